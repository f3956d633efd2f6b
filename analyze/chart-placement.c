/*
 * Placement: for each workload, the share of its pages in each region
 * (placement.csv, through the placement.WORKLOAD.share.REGION series of
 * metrics.h) at each checkpoint, as grouped bars, one panel per workload.
 * A well-consolidated workload has tall bars in few regions.  Every panel
 * shares one scale, from 0 to the largest share rounded up to a tenth, so
 * that panels compare and a workload spread thin still shows its bars.
 * A panel has bars only for the moments its workload had pages at (a
 * workload of one phase has one), each in its colour of the legend.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	*h = chart_bars_height(chart_moments_legend_height(run->res,
	    &run->res->placement, PLACE_W - CHART_BARS_LEFT -
	    CHART_BARS_RIGHT), run->res->nworkloads, PLACE_PANEL_H, PLACE_GAP);
}

/* Share of workload wl's pages per region (v[moment * nr + region]). */
static void
placement_shares(const struct chart_run *run, int wl,
    const struct chart_moment *mo, int n, double *v)
{
	const struct results *res = run->res;
	const struct metric_series *s;
	char *name;
	int i, r, nr = res->nregions;

	for (r = 0; r < nr; r++) {
		name = metric_name(METRIC_PLACEMENT_SHARE, res->workloads[wl],
		    res->regions[r].name);
		s = metrics_find(run->m, name);
		free(name);
		for (i = 0; i < n; i++)
			v[(size_t)i * nr + r] = s != NULL ?
			    s->v[mo[i].index] : NAN;
	}
}

/* The top of the share axis: the largest share of any panel, see above. */
static double
placement_top(const struct chart_run *run, const struct chart_moment *mo,
    int n, double *v)
{
	int wl, i, nv = n * run->res->nregions;
	double max = 0;

	for (wl = 0; wl < run->res->nworkloads; wl++) {
		placement_shares(run, wl, mo, n, v);
		for (i = 0; i < nv; i++)
			if (isfinite(v[i]) && v[i] > max)
				max = v[i];
	}
	return (chart_share_top(max));
}

/*
 * Keep in v only the moments (rows of nr values) at which the workload
 * had pages, and their legend colours in colour; returns how many.
 */
static int
placement_present(double *v, int n, int nr, int *colour)
{
	int i, r, kept = 0, any;

	for (i = 0; i < n; i++) {
		for (any = 0, r = 0; r < nr && !any; r++)
			any = isfinite(v[(size_t)i * nr + r]) &&
			    v[(size_t)i * nr + r] > 0;
		if (!any)
			continue;
		if (kept != i)
			memmove(&v[(size_t)kept * nr], &v[(size_t)i * nr],
			    nr * sizeof *v);
		colour[kept++] = i;
	}
	return (kept);
}

static void
placement_draw(cairo_t *cr, double w, double h, const void *data)
{
	const struct chart_run *run = data;
	const struct results *res = run->res;
	struct chart_scale pct = { 0.01, "%", 0 };
	struct chart_moment *mo;
	struct chart_axes a;
	double *v, top, legend_h, share_top;
	char name[256];
	int n, wl, nr = res->nregions, kept, *colour;

	chart_background(cr, w, h);
	top = chart_title(cr, w, "Placement: share of each workload's pages "
	    "per region", run->where);
	legend_h = chart_moments_legend(cr, res, &res->placement, top, w, &mo,
	    &n) + 10;
	v = xcalloc((size_t)n * nr + 1, sizeof *v);
	colour = xcalloc(n + 1, sizeof *colour);
	share_top = placement_top(run, mo, n, v);
	for (wl = 0; wl < res->nworkloads; wl++) {
		chart_region_panel(res, w, top + legend_h + 18 +
		    wl * (PLACE_PANEL_H + PLACE_GAP), PLACE_PANEL_H, share_top,
		    &a);
		placement_shares(run, wl, mo, n, v);
		snprintf(name, sizeof name, "workload %s", res->workloads[wl]);
		chart_panel_title(cr, &a, name);
		chart_axis_y(cr, &a, pct, "share (%)", 1);
		kept = placement_present(v, n, nr, colour);
		chart_bars_grouped(cr, &a, v, kept, nr, colour);
		chart_region_panel_end(cr, res, &a);
	}
	chart_moments_free(mo, n);
	free(colour);
	free(v);
}

const struct chart_def chart_placement_def = {
	.name = "placement",
	.title = "Placement of each workload's pages",
	.input = CHART_RUN,
	.absent = placement_absent,
	.size = placement_size,
	.draw = placement_draw,
};
