/*
 * Time on the charts: the phases of a run and its checkpoints, drawn as
 * bands and lines over time panels, and the moments (checkpoints, or the
 * end of each phase) the bar charts show.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart-run.h"
#include "log.h"

/*
 * The phases in the order they ran, each from its first to its last
 * sample, widened to its phase_start/phase_end events when those exist.
 */
int
chart_spans(const struct results *res, struct chart_span **out)
{
	const struct results_times *tm = &res->samples;
	struct chart_span *spans = NULL;
	int n = 0, i;

	for (i = 0; i < tm->n; i++) {
		if (n > 0 && spans[n - 1].phase == tm->phase[i]) {
			spans[n - 1].t1 = tm->t[i];
			continue;
		}
		spans = xreallocarray(spans, n + 1, sizeof *spans);
		spans[n].phase = tm->phase[i];
		spans[n].t0 = spans[n].t1 = tm->t[i];
		n++;
	}
	for (i = 0; i < res->nevents; i++) {
		const struct results_event *e = &res->events[i];
		int s;

		for (s = 0; s < n; s++) {
			if (spans[s].phase != e->phase)
				continue;
			if (strcmp(e->event, "phase_start") == 0 &&
			    e->t < spans[s].t0)
				spans[s].t0 = e->t;
			if (strcmp(e->event, "phase_end") == 0 &&
			    e->t > spans[s].t1)
				spans[s].t1 = e->t;
		}
	}
	*out = spans;
	return (n);
}

/* The checkpoint events, in time order. */
int
chart_checkpoints(const struct results *res, struct chart_mark **out)
{
	struct chart_mark *marks = NULL;
	int n = 0, i;

	for (i = 0; i < res->nevents; i++) {
		if (strcmp(res->events[i].event, "checkpoint") != 0)
			continue;
		marks = xreallocarray(marks, n + 1, sizeof *marks);
		marks[n].t = res->events[i].t;
		marks[n].phase = res->events[i].phase;
		marks[n].label = res->events[i].detail;
		n++;
	}
	*out = marks;
	return (n);
}

/*
 * The time axis of a run: first to last sample, plus one typical interval
 * so that the last sample gets a width of its own.
 */
void
chart_time_range(const struct results *res, double *t0, double *t1)
{
	const struct results_times *tm = &res->samples;

	*t0 = tm->n > 0 ? tm->t[0] : 0;
	*t1 = tm->n > 0 ? tm->t[tm->n - 1] : 1;
	if (tm->n > 1)
		*t1 += (*t1 - *t0) / (tm->n - 1);
	if (!(*t1 > *t0))
		*t1 = *t0 + 1;
}

/* A vertical marker over every panel, as seen on white or on an image. */
static void
mark_line(cairo_t *cr, const struct chart_axes *panels, int npanels,
    double t, int dashed, int on_image)
{
	double dash[] = { 4, 3 }, x = round(chart_px(&panels[0], t)) + 0.5;
	int p;

	if (x < panels[0].x || x > panels[0].x + panels[0].w)
		return;
	cairo_save(cr);
	if (dashed)
		cairo_set_dash(cr, dash, 2, 0);
	for (p = 0; p < npanels; p++) {
		if (on_image) {
			cairo_set_source_rgba(cr, 0, 0, 0, 0.55);
			cairo_set_line_width(cr, 3);
			cairo_move_to(cr, x, panels[p].y);
			cairo_line_to(cr, x, panels[p].y + panels[p].h);
			cairo_stroke(cr);
			cairo_set_source_rgb(cr, 1, 1, 1);
		} else
			cairo_set_source_rgba(cr, 0.2, 0.2, 0.2,
			    dashed ? 0.6 : 0.8);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, x, panels[p].y);
		cairo_line_to(cr, x, panels[p].y + panels[p].h);
		cairo_stroke(cr);
	}
	cairo_restore(cr);
}

/* Draw a label centred at x unless it would overlap the previous one. */
static void
row_label(cairo_t *cr, const struct chart_axes *a, double x, double y,
    const char *s, double *right)
{
	char *fit = chart_fit_text(cr, s, 160);
	double w = chart_text_width(cr, fit), l = x - w / 2;

	if (l < a->x)
		l = a->x;
	if (l + w > a->x + a->w + 40)
		l = a->x + a->w + 40 - w;
	if (l >= *right + 6) {
		chart_text(cr, l, y, 0, 0, fit);
		*right = l + w;
	}
	free(fit);
}

/*
 * Phase spans (alternate shading on white; boundary lines on an image)
 * and checkpoints (dashed lines) over stacked time panels sharing one x
 * range, with phase names and checkpoint labels in two rows above the
 * first panel (the chart leaves 34 units there).
 */
void
chart_phase_bands(cairo_t *cr, const struct results *res,
    const struct chart_axes *panels, int npanels, int on_image)
{
	struct chart_span *spans;
	struct chart_mark *marks;
	const struct chart_axes *a = &panels[0];
	double right = -1e9, l, r;
	int nspans, nmarks, i, p;

	nspans = chart_spans(res, &spans);
	nmarks = chart_checkpoints(res, &marks);
	for (i = 0; i < nspans && !on_image; i += 2) {
		if (nspans < 2)
			break;
		l = fmax(chart_px(a, spans[i].t0), a->x);
		r = i + 1 < nspans ? chart_px(a, spans[i + 1].t0) :
		    a->x + a->w;
		r = fmin(r, a->x + a->w);
		for (p = 0; p < npanels; p++) {
			cairo_set_source_rgba(cr, 0.2, 0.3, 0.6, 0.07);
			cairo_rectangle(cr, l, panels[p].y, r - l, panels[p].h);
			cairo_fill(cr);
		}
	}
	for (i = 1; i < nspans; i++)
		mark_line(cr, panels, npanels, spans[i].t0, 0, on_image);
	for (i = 0; i < nmarks; i++)
		mark_line(cr, panels, npanels, marks[i].t, 1, on_image);

	chart_font(cr, CHART_FONT_SIZE, 1);
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	for (i = 0; i < nspans; i++) {
		if (spans[i].phase < 0 || spans[i].phase >= res->nphases)
			continue;
		l = fmax(chart_px(a, spans[i].t0), a->x);
		r = i + 1 < nspans ? chart_px(a, spans[i + 1].t0) :
		    a->x + a->w;
		row_label(cr, a, nspans > 1 ? (l + r) / 2 : a->x + a->w / 2,
		    a->y - 32, res->phases[spans[i].phase], &right);
	}
	chart_font(cr, CHART_FONT_SIZE - 1, 0);
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	right = -1e9;
	for (i = 0; i < nmarks; i++) {
		if (marks[i].label != NULL && marks[i].label[0] != '\0')
			row_label(cr, a, chart_px(a, marks[i].t), a->y - 16,
			    marks[i].label, &right);
	}
	free(spans);
	free(marks);
}

/* Append a moment: point index of a time base, and its label. */
static void
moment_add(struct chart_moment **mo, int *n, int index, char *label)
{
	*mo = xreallocarray(*mo, *n + 1, sizeof **mo);
	(*mo)[*n].index = index;
	(*mo)[*n].label = label;
	(*n)++;
}

/* Sort helper: moments by the point they show. */
static int
moment_cmp(const void *a, const void *b)
{
	const struct chart_moment *x = a, *y = b;

	return (x->index < y->index ? -1 : x->index > y->index);
}

/*
 * The points of time base tm a bar chart shows: at each checkpoint the
 * point closest to it in its phase (like the seed table; the label says
 * when that point is not at the checkpoint, e.g. "50% (scan +0.4 s)"),
 * and the last point of every phase that has no checkpoint, so that every
 * phase is drawn.
 */
int
chart_moments(const struct results *res, const struct results_times *tm,
    struct chart_moment **out)
{
	struct chart_moment *mo = NULL;
	struct chart_mark *marks;
	const char *name;
	int nmarks, n = 0, i, j, idx, marked;
	double dt;

	nmarks = chart_checkpoints(res, &marks);
	for (i = 0; i < nmarks; i++) {
		if ((idx = metrics_point_nearest(tm, marks[i].phase,
		    marks[i].t)) < 0)
			continue;
		name = marks[i].label != NULL && marks[i].label[0] != '\0' ?
		    marks[i].label : "checkpoint";
		dt = tm->t[idx] - marks[i].t;
		moment_add(&mo, &n, idx, fabs(dt) < 0.0005 ? xstrdup(name) :
		    xasprintf("%s (scan %+.3g s)", name, dt));
	}
	for (i = 0; i < tm->n; i++) {
		if (i + 1 < tm->n && tm->phase[i + 1] == tm->phase[i])
			continue;
		for (marked = 0, j = 0; j < nmarks && !marked; j++)
			marked = marks[j].phase == tm->phase[i];
		if (marked)
			continue;
		moment_add(&mo, &n, i, tm->phase[i] >= 0 && tm->phase[i] <
		    res->nphases ? xasprintf("end of %s",
		    res->phases[tm->phase[i]]) : xstrdup("end"));
	}
	free(marks);
	if (n > 1)
		qsort(mo, n, sizeof *mo, moment_cmp);
	*out = mo;
	return (n);
}

/* The labels of n moments, for a legend (the strings are borrowed). */
static const char **
moment_names(const struct chart_moment *mo, int n)
{
	const char **names = xcalloc(n > 0 ? n : 1, sizeof *names);
	int i;

	for (i = 0; i < n; i++)
		names[i] = mo[i].label;
	return (names);
}

/* Height of the legend naming the moments of tm, max_w wide. */
double
chart_moments_legend_height(const struct results *res,
    const struct results_times *tm, double max_w)
{
	struct chart_moment *mo;
	const char **names;
	int n = chart_moments(res, tm, &mo);
	double h;

	names = moment_names(mo, n);
	h = chart_legend_height(names, n, max_w);
	free(names);
	chart_moments_free(mo, n);
	return (h);
}

/*
 * The moments of tm (*mo, *n: free with chart_moments_free) and their
 * legend, one palette colour each, under the title of a bar chart w wide
 * whose title ends at top.  Returns the height of the legend.
 */
double
chart_moments_legend(cairo_t *cr, const struct results *res,
    const struct results_times *tm, double top, double w,
    struct chart_moment **mo, int *n)
{
	struct chart_rgb *colours;
	const char **names;
	double h;
	int i;

	*n = chart_moments(res, tm, mo);
	names = moment_names(*mo, *n);
	colours = xcalloc(*n > 0 ? *n : 1, sizeof *colours);
	for (i = 0; i < *n; i++)
		colours[i] = chart_palette(i);
	h = chart_legend(cr, CHART_BARS_LEFT, top, w - CHART_BARS_LEFT -
	    CHART_BARS_RIGHT, names, colours, *n);
	free(names);
	free(colours);
	return (h);
}

/* Free moments. */
void
chart_moments_free(struct chart_moment *moments, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(moments[i].label);
	free(moments);
}
