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
#define SEED_MARK_PX	8.0	/* height of a hole's mark */

/* The colour of a region's state, as an RGB triple. */
static struct chart_rgb
seed_rgb(uint32_t rgb)
{
	struct chart_rgb c = { ((rgb >> 16) & 0xff) / 255.0,
	    ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0 };

	return (c);
}

/*
 * The word over a span of adjacent marks of one state, when it fits: a
 * word per mark would overlap its neighbours once the bars are narrower
 * than the word, so a span of marks (say, every region beyond the memory
 * initialised so far) gets one word, and a span too narrow for it none
 * (the note under the plot names the colours).
 */
static void
seed_mark_word(cairo_t *cr, const struct chart_axes *a, double x0, double x1,
    int state)
{
	const char *word = state == REGION_HOLE ? "hole" : "uninit";
	double px0 = chart_px(a, x0), px1 = chart_px(a, x1);

	chart_font(cr, CHART_FONT_SIZE - 2, 0);
	if (chart_text_width(cr, word) > px1 - px0)
		return;
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	chart_text(cr, (px0 + px1) / 2, a->y + a->h - SEED_MARK_PX - 3, 0.5, 1,
	    word);
}

/*
 * Marks for the regions without pages at each moment, where their bars
 * would stand, a word over each span of them and a note under the plot
 * saying what they mean; returns whether there were any.
 */
static int
seed_marks(cairo_t *cr, const struct chart_run *run,
    const struct chart_axes *a, const struct chart_moment *mo, int n)
{
	const struct results *res = run->res;
	double bw = 0.8 / (n > 0 ? n : 1), x, span_x0 = 0, span_x1 = 0;
	int i, r, state, span = -1, hole = 0, uninit = 0;
	char note[128];
	double hy;

	hy = SEED_MARK_PX / a->h * (a->y1 - a->y0);
	/* Left to right: each region's bars, one per moment. */
	for (r = 0; r < res->nregions; r++) {
		for (i = 0; i < n; i++) {
			state = run->m->state[(size_t)mo[i].index *
			    res->nregions + r];
			if (state != span && span != -1) {
				seed_mark_word(cr, a, span_x0, span_x1, span);
				span = -1;
			}
			if (state != REGION_HOLE && state != REGION_UNINIT)
				continue;
			x = r - 0.4 + i * bw;
			chart_bar(cr, a, x, x + bw * 0.92, 0, hy,
			    seed_rgb(state == REGION_HOLE ?
			    CHART_RGB_NO_DATA : CHART_RGB_UNINIT));
			if (span == -1) {
				span = state;
				span_x0 = x;
			}
			span_x1 = x + bw * 0.92;
			hole |= state == REGION_HOLE;
			uninit |= state == REGION_UNINIT;
		}
	}
	if (span != -1)
		seed_mark_word(cr, a, span_x0, span_x1, span);
	if (!hole && !uninit)
		return (0);
	snprintf(note, sizeof note, "no free figure: %s%s%s",
	    hole ? "grey = no pages (hole)" : "", hole && uninit ? ", " : "",
	    uninit ? "tan = memory not initialised yet" : "");
	chart_font(cr, CHART_FONT_SIZE - 1, 0);
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	chart_text(cr, a->x + a->w, a->y + a->h + 46, 1, 0, note);
	return (1);
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
	chart_bars_grouped(cr, &a, v, n, nr);
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
