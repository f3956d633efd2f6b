/*
 * The seed chart: free memory per region at each checkpoint, the seed
 * cover letter's table as grouped bars (one bar per checkpoint, or per
 * phase end when the run has no checkpoints).  A region that empties shows
 * its bar growing to the region's size.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "chart-run.h"
#include "log.h"

#define SEED_W		1000.0
#define SEED_PLOT_H	300.0

static const char *
seed_absent(const void *data)
{
	const struct chart_run *run = data;

	return (run->res->samples.n == 0 ? "no samples" : NULL);
}

static void
seed_size(const void *data, double *w, double *h)
{
	const struct chart_run *run = data;

	*w = SEED_W;
	*h = 62 + chart_moments_legend_height(run->res, &run->res->samples,
	    SEED_W - CHART_BARS_LEFT - CHART_BARS_RIGHT) + 10 + SEED_PLOT_H +
	    56;
}

static void
seed_draw(cairo_t *cr, double w, double h, const void *data)
{
	const struct chart_run *run = data;
	const struct results *res = run->res;
	struct chart_moment *mo;
	struct chart_scale scale;
	struct chart_axes a;
	double *v, max, top, legend_h;
	char label[64];
	int n, i, r, nr = res->nregions;

	chart_background(cr, w, h);
	top = chart_title(cr, w, "Free memory per region at the checkpoints "
	    "(seed table)", run->where);
	legend_h = chart_moments_legend(cr, res, &res->samples, top, w, &mo,
	    &n);
	v = xcalloc((size_t)n * nr, sizeof *v);
	max = chart_region_max_bytes(res);
	for (i = 0; i < n; i++) {
		for (r = 0; r < nr; r++) {
			v[(size_t)i * nr + r] = (double)res->free[
			    (size_t)mo[i].index * nr + r] * res->page_size;
			max = fmax(max, v[(size_t)i * nr + r]);
		}
	}
	scale = chart_bytes_scale(max);
	chart_region_panel(res, w, top + legend_h + 10, SEED_PLOT_H,
	    fmax(max * 1.05, 1), &a);
	snprintf(label, sizeof label, "free (%s)", scale.unit);
	chart_axis_y(cr, &a, scale, label, 1);
	chart_bars_grouped(cr, &a, v, n, nr);
	chart_region_panel_end(cr, res, &a);
	chart_moments_free(mo, n);
	free(v);
}

const struct chart_def chart_seed_def = {
	.name = "seed",
	.title = "Free memory per region at the checkpoints",
	.input = CHART_RUN,
	.absent = seed_absent,
	.size = seed_size,
	.draw = seed_draw,
};
