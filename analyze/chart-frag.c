/*
 * Fragmentation: per region, the free memory by buddy order (buddy.csv),
 * stacked, at the last sample of each phase.  Free memory in high orders
 * can be handed out as huge pages or emptied; a stack of low orders is
 * fragmented.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "chart-run.h"
#include "log.h"

#define FRAG_W		1000.0
#define FRAG_PANEL_H	150.0
#define FRAG_GAP	62.0

/* The last buddy sample of each phase, in time order. */
static int
frag_points(const struct results *res, int *idx)
{
	const struct results_times *tm = &res->buddy;
	int i, n = 0;

	for (i = 0; i < tm->n; i++) {
		if (i + 1 < tm->n && tm->phase[i + 1] == tm->phase[i])
			continue;
		if (idx != NULL)
			idx[n] = i;
		n++;
	}
	return (n);
}

/* "order 3 (32 KiB)". */
static char *
order_name(const struct results *res, int o)
{
	double bytes = (double)res->page_size * (1u << o);
	struct chart_scale s = chart_bytes_scale(bytes);

	return (xasprintf("order %d (%.4g %s)", o, bytes / s.div, s.unit));
}

static const char *
frag_absent(const void *data)
{
	const struct chart_run *run = data;

	if (run->res->buddy.n == 0 || run->res->buddy_orders == 0)
		return ("buddy.csv has no rows");
	return (NULL);
}

static void
frag_size(const void *data, double *w, double *h)
{
	const struct chart_run *run = data;
	char **names = xcalloc(run->res->buddy_orders + 1, sizeof *names);
	double legend_h;
	int o;

	for (o = 0; o < run->res->buddy_orders; o++)
		names[o] = order_name(run->res, o);
	legend_h = chart_legend_height((const char *const *)names,
	    run->res->buddy_orders, FRAG_W - 126);
	for (o = 0; o < run->res->buddy_orders; o++)
		free(names[o]);
	free(names);
	*w = FRAG_W;
	*h = 62 + legend_h + 10 + frag_points(run->res, NULL) *
	    (FRAG_PANEL_H + FRAG_GAP) + 10;
}

static void
frag_draw(cairo_t *cr, double w, double h, const void *data)
{
	const struct chart_run *run = data;
	const struct results *res = run->res;
	int no = res->buddy_orders, nr = res->nregions, np, p, r, o, *idx;
	struct chart_rgb *colours;
	struct chart_scale scale;
	struct chart_axes a;
	char **names, label[128];
	double top, max = 0, base, v, legend_h;
	const uint64_t *blocks;

	chart_background(cr, w, h);
	top = chart_title(cr, w, "Fragmentation: free memory per region by "
	    "buddy order, at the end of each phase", run->where);
	names = xcalloc(no, sizeof *names);
	colours = xcalloc(no, sizeof *colours);
	for (o = 0; o < no; o++) {
		names[o] = order_name(res, o);
		colours[o] = chart_viridis(no > 1 ? (double)o / (no - 1) : 0);
	}
	legend_h = chart_legend(cr, 96, top, w - 126,
	    (const char *const *)names, colours, no) + 10;
	idx = xcalloc(res->buddy.n, sizeof *idx);
	np = frag_points(res, idx);
	for (r = 0; r < nr; r++)
		max = fmax(max, (double)res->regions[r].present_pages *
		    res->page_size);
	scale = chart_bytes_scale(max);
	for (p = 0; p < np; p++) {
		a.x = 96;
		a.w = w - a.x - 30;
		a.y = round(top + legend_h + 18 +
		    p * (FRAG_PANEL_H + FRAG_GAP));
		a.h = FRAG_PANEL_H;
		a.x0 = -0.5;
		a.x1 = nr - 0.5;
		a.y0 = 0;
		a.y1 = fmax(max * 1.05, 1);
		snprintf(label, sizeof label, "free (%s)", scale.unit);
		chart_axis_y(cr, &a, scale, label, 1);
		for (r = 0; r < nr; r++) {
			blocks = results_buddy_at(res, idx[p], r);
			for (base = 0, o = 0; o < no; o++) {
				v = (double)blocks[o] * (1u << o) *
				    res->page_size;
				if (v <= 0)
					continue;
				chart_bar(cr, &a, r - 0.38, r + 0.38, base,
				    base + v, colours[o]);
				base += v;
			}
		}
		chart_font(cr, CHART_FONT_SIZE, 1);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		snprintf(label, sizeof label, "end of phase %s (t = %.1f s)",
		    res->buddy.phase[idx[p]] >= 0 &&
		    res->buddy.phase[idx[p]] < res->nphases ?
		    res->phases[res->buddy.phase[idx[p]]] : "?",
		    res->buddy.t[idx[p]]);
		chart_text(cr, a.x, a.y - 16, 0, 0, label);
		chart_region_axis(cr, res, &a, 1);
		chart_frame(cr, &a);
	}
	for (o = 0; o < no; o++)
		free(names[o]);
	free(names);
	free(colours);
	free(idx);
}

const struct chart_def chart_frag_def = {
	.name = "fragmentation",
	.title = "Free memory by buddy order",
	.input = CHART_RUN,
	.absent = frag_absent,
	.size = frag_size,
	.draw = frag_draw,
};
