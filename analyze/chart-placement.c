/*
 * Placement: for each workload, the share of its pages in each region
 * (placement.csv, through the placement.WORKLOAD.share.REGION series of
 * metrics.h) at each checkpoint, as grouped bars, one panel per workload.
 * A well-consolidated workload has tall bars in few regions.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "chart-run.h"
#include "log.h"

#define PLACE_W		1000.0
#define PLACE_PANEL_H	150.0
#define PLACE_GAP	62.0

static const char *
placement_absent(const void *data)
{
	const struct chart_run *run = data;

	if (run->res->placement.n == 0 || run->res->nworkloads == 0)
		return ("placement.csv has no rows");
	return (NULL);
}

static void
placement_size(const void *data, double *w, double *h)
{
	const struct chart_run *run = data;

	*w = PLACE_W;
	*h = 62 + chart_moments_legend_height(run->res, &run->res->placement,
	    PLACE_W - 126) + 10 + run->res->nworkloads *
	    (PLACE_PANEL_H + PLACE_GAP) + 10;
}

static void
placement_draw(cairo_t *cr, double w, double h, const void *data)
{
	const struct chart_run *run = data;
	const struct results *res = run->res;
	const struct metric_series *s;
	struct chart_scale pct = { 0.01, "%", 0 };
	struct chart_moment *mo;
	struct chart_rgb *colours;
	struct chart_axes a;
	const char **names;
	double *v, top, legend_h;
	char name[256];
	int n, i, r, wl, nr = res->nregions;

	chart_background(cr, w, h);
	top = chart_title(cr, w, "Placement: share of each workload's pages "
	    "per region", run->where);
	n = chart_moments(res, &res->placement, &mo);
	names = xcalloc(n, sizeof *names);
	colours = xcalloc(n, sizeof *colours);
	for (i = 0; i < n; i++) {
		names[i] = mo[i].label;
		colours[i] = chart_palette(i);
	}
	legend_h = chart_legend(cr, 96, top, w - 126, names, colours, n) + 10;
	v = xcalloc((size_t)n * nr, sizeof *v);
	for (wl = 0; wl < res->nworkloads; wl++) {
		a.x = 96;
		a.w = w - a.x - 30;
		a.y = round(top + legend_h + 18 +
		    wl * (PLACE_PANEL_H + PLACE_GAP));
		a.h = PLACE_PANEL_H;
		a.x0 = -0.5;
		a.x1 = nr - 0.5;
		a.y0 = 0;
		a.y1 = 1;
		for (r = 0; r < nr; r++) {
			snprintf(name, sizeof name, "placement.%s.share.%s",
			    res->workloads[wl], res->regions[r].name);
			s = metrics_find(run->m, name);
			for (i = 0; i < n; i++)
				v[(size_t)i * nr + r] = s != NULL ?
				    s->v[mo[i].index] : NAN;
		}
		chart_font(cr, CHART_FONT_SIZE, 1);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		snprintf(name, sizeof name, "workload %s", res->workloads[wl]);
		chart_text(cr, a.x, a.y - 16, 0, 0, name);
		chart_axis_y(cr, &a, pct, "share (%)", 1);
		chart_bars_grouped(cr, &a, v, n, nr);
		chart_region_axis(cr, res, &a, 1);
		chart_frame(cr, &a);
	}
	chart_moments_free(mo, n);
	free(v);
	free(names);
	free(colours);
}

const struct chart_def chart_placement_def = {
	.name = "placement",
	.title = "Placement of each workload's pages",
	.input = CHART_RUN,
	.absent = placement_absent,
	.size = placement_size,
	.draw = placement_draw,
};
