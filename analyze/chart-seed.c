/*
 * The seed chart: free memory per region at each checkpoint, the seed
 * cover letter's table as grouped bars (one bar per checkpoint, or per
 * phase end when the run has no checkpoints).  A region that empties shows
 * its bar growing to the region's size.  A region without pages at a
 * moment (a hole, or memory not initialised yet) has no free figure: it
 * gets a short grey or tan mark on the axis, never a bar of 0 free.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "chart-run.h"
#include "log.h"

#define SEED_W		1000.0
#define SEED_PLOT_H	300.0

/*
 * Marks for the regions without pages at each moment, where their bars
 * would stand, and the note saying what they mean.
 */
static void
seed_marks(cairo_t *cr, const struct chart_run *run,
    const struct chart_axes *a, const struct chart_moment *mo, int n)
{
	const struct results *res = run->res;
	double bw = 0.8 / (n > 0 ? n : 1), x;
	struct chart_nopages marks;
	int i, r;

	chart_nopages_begin(&marks, a);
	/* Left to right: each region's bars, one per moment. */
	for (r = 0; r < res->nregions; r++) {
		for (i = 0; i < n; i++) {
			x = r - 0.4 + i * bw;
			chart_nopages_slot(cr, &marks, x, x + bw * 0.92,
			    run->m->state[(size_t)mo[i].index *
			    res->nregions + r]);
		}
	}
	chart_nopages_end(cr, &marks);
	chart_nopages_note(cr, a, marks.hole, marks.uninit);
}

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
	    72;
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
	size_t at;
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
			at = (size_t)mo[i].index * nr + r;
			if (run->m->state[at] == REGION_HOLE ||
			    run->m->state[at] == REGION_UNINIT) {
				v[(size_t)i * nr + r] = NAN;
				continue;
			}
			v[(size_t)i * nr + r] = (double)res->free[at] *
			    res->page_size;
			max = fmax(max, v[(size_t)i * nr + r]);
		}
	}
	scale = chart_bytes_scale(max);
	chart_region_panel(res, w, top + legend_h + 10, SEED_PLOT_H,
	    fmax(max * 1.05, 1), &a);
	snprintf(label, sizeof label, "free (%s)", scale.unit);
	chart_axis_y(cr, &a, scale, label, 1);
	chart_bars_grouped(cr, &a, v, n, nr, NULL);
	seed_marks(cr, run, &a, mo, n);
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
