/*
 * Fragmentation: per region, the free memory by buddy order (buddy.csv),
 * stacked, at the last sample of each phase.  Free memory in high orders
 * can be handed out as huge pages or emptied; a stack of low orders is
 * fragmented.  A region without pages at that moment (a hole, memory not
 * initialised yet) has no free memory either: it gets a mark, so that it
 * is not read as a full region.
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

/* "order 3 (32 KiB)" for every order of the run, for the legend. */
static char **
order_names(const struct results *res)
{
	char **names = xcalloc(res->buddy_orders + 1, sizeof *names);
	double bytes;
	struct chart_scale s;
	int o;

	for (o = 0; o < res->buddy_orders; o++) {
		bytes = (double)res->page_size * (1u << o);
		s = chart_bytes_scale(bytes);
		names[o] = xasprintf("order %d (%.4g %s)", o, bytes / s.div,
		    s.unit);
	}
	return (names);
}

/* Free what order_names returned. */
static void
order_names_free(const struct results *res, char **names)
{
	int o;

	for (o = 0; o < res->buddy_orders; o++)
		free(names[o]);
	free(names);
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
	char **names = order_names(run->res);
	double legend_h;

	legend_h = chart_legend_height((const char *const *)names,
	    run->res->buddy_orders, FRAG_W - CHART_BARS_LEFT -
	    CHART_BARS_RIGHT);
	order_names_free(run->res, names);
	*w = FRAG_W;
	*h = chart_bars_height(legend_h, frag_points(run->res, NULL),
	    FRAG_PANEL_H, FRAG_GAP);
}

/*
 * Mark the regions without pages at buddy sample s (marks begun on its
 * panel), as the occupancy sample nearest it found them.
 */
static void
frag_nopages(cairo_t *cr, const struct chart_run *run, int s,
    struct chart_nopages *marks)
{
	const struct results *res = run->res;
	int at, r;

	at = metrics_point_nearest(&res->samples, res->buddy.phase[s],
	    res->buddy.t[s]);
	if (at < 0)
		return;
	for (r = 0; r < res->nregions; r++)
		chart_nopages_slot(cr, marks, r - 0.38, r + 0.38,
		    run->m->state[(size_t)at * res->nregions + r]);
	chart_nopages_end(cr, marks);
}

/* The free memory of region r at buddy sample s, stacked by order. */
static void
frag_stack(cairo_t *cr, const struct results *res,
    const struct chart_axes *a, int s, int r, const struct chart_rgb *colours)
{
	const uint64_t *blocks = results_buddy_at(res, s, r);
	double base = 0, v;
	int o;

	for (o = 0; o < res->buddy_orders; o++) {
		v = (double)blocks[o] * (1u << o) * res->page_size;
		if (v <= 0)
			continue;
		chart_bar(cr, a, r - 0.38, r + 0.38, base, base + v,
		    colours[o]);
		base += v;
	}
}

static void
frag_draw(cairo_t *cr, double w, double h, const void *data)
{
	const struct chart_run *run = data;
	const struct results *res = run->res;
	int no = res->buddy_orders, np, p, r, o, *idx;
	struct chart_rgb *colours;
	struct chart_scale scale;
	struct chart_axes a;
	char **names, label[128];
	double top, max, legend_h;
	struct chart_nopages marks;
	int hole = 0, uninit = 0;

	chart_background(cr, w, h);
	top = chart_title(cr, w, "Fragmentation: free memory per region by "
	    "buddy order, at the end of each phase", run->where);
	names = order_names(res);
	colours = xcalloc(no, sizeof *colours);
	for (o = 0; o < no; o++)
		colours[o] = chart_viridis(no > 1 ? (double)o / (no - 1) : 0);
	legend_h = chart_legend(cr, CHART_BARS_LEFT, top, w - CHART_BARS_LEFT -
	    CHART_BARS_RIGHT, (const char *const *)names, colours, no) + 10;
	idx = xcalloc(res->buddy.n, sizeof *idx);
	np = frag_points(res, idx);
	max = chart_region_max_bytes(res);
	scale = chart_bytes_scale(max);
	for (p = 0; p < np; p++) {
		chart_region_panel(res, w, top + legend_h + 18 +
		    p * (FRAG_PANEL_H + FRAG_GAP), FRAG_PANEL_H,
		    fmax(max * 1.05, 1), &a);
		snprintf(label, sizeof label, "free (%s)", scale.unit);
		chart_axis_y(cr, &a, scale, label, 1);
		for (r = 0; r < res->nregions; r++)
			frag_stack(cr, res, &a, idx[p], r, colours);
		chart_nopages_begin(&marks, &a);
		frag_nopages(cr, run, idx[p], &marks);
		hole |= marks.hole;
		uninit |= marks.uninit;
		snprintf(label, sizeof label, "end of phase %s (t = %.1f s)",
		    res->buddy.phase[idx[p]] >= 0 &&
		    res->buddy.phase[idx[p]] < res->nphases ?
		    res->phases[res->buddy.phase[idx[p]]] : "?",
		    res->buddy.t[idx[p]]);
		chart_panel_title(cr, &a, label);
		chart_region_panel_end(cr, res, &a);
	}
	if (np > 0)
		chart_nopages_note(cr, &a, hole, uninit);
	order_names_free(res, names);
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
