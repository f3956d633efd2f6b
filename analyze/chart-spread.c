/*
 * Spread over time: three panels sharing the time axis, drawn from the
 * metric series of metrics.h: the spread index (active / ideal regions),
 * the active, empty and ideal region counts, and the empty memory (what
 * could be powered down), with phase bands and checkpoints.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart-run.h"
#include "log.h"

#define SPREAD_W	1000.0
#define SPREAD_PANEL_H	150.0
#define SPREAD_GAP	26.0
#define SPREAD_RIGHT	170.0

/* One line of a panel. */
struct spread_line {
	enum metric_id	 series;
	const char	*name;
	int		 colour;
	int		 dashed;
};

static const char *
spread_absent(const void *data)
{
	const struct chart_run *run = data;

	return (metrics_find(run->m, METRIC_NAME(SPREAD_INDEX)) == NULL ?
	    "no spread_index series" : NULL);
}

static void
spread_size(const void *data, double *w, double *h)
{
	(void)data;
	*w = SPREAD_W;
	*h = 62 + 34 + 3 * SPREAD_PANEL_H + 2 * SPREAD_GAP + 56;
}

/* Largest finite value of a series, 0 when none. */
static double
series_max(const struct metric_series *s)
{
	double max = 0;
	int i;

	for (i = 0; s != NULL && i < s->times->n; i++)
		if (isfinite(s->v[i]) && s->v[i] > max)
			max = s->v[i];
	return (max);
}

/* A legend stacked vertically right of a panel. */
static void
panel_legend(cairo_t *cr, const struct chart_axes *a,
    const struct spread_line *lines, int n)
{
	double y = a->y + 4;
	int i;

	chart_font(cr, CHART_FONT_SIZE, 0);
	for (i = 0; i < n; i++) {
		double dash[] = { 5, 3 };

		cairo_save(cr);
		chart_set_rgb(cr, chart_palette(lines[i].colour), 1);
		cairo_set_line_width(cr, 2.5);
		if (lines[i].dashed)
			cairo_set_dash(cr, dash, 2, 0);
		cairo_move_to(cr, a->x + a->w + 12, y + CHART_FONT_SIZE / 2);
		cairo_line_to(cr, a->x + a->w + 30, y + CHART_FONT_SIZE / 2);
		cairo_stroke(cr);
		cairo_restore(cr);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text(cr, a->x + a->w + 36, y, 0, 0, lines[i].name);
		y += CHART_FONT_SIZE * 1.6;
	}
}

/* Draw the lines of one panel from the run's metric series. */
static void
panel_lines(cairo_t *cr, const struct chart_run *run,
    const struct chart_axes *a, const struct spread_line *lines, int n,
    double div)
{
	const struct metric_series *s;
	double *v;
	int i, k;

	for (i = 0; i < n; i++) {
		if ((s = metrics_find(run->m,
		    metric_defs[lines[i].series].name)) == NULL)
			continue;
		v = xcalloc(s->times->n, sizeof *v);
		for (k = 0; k < s->times->n; k++)
			v[k] = s->v[k] / div;
		chart_line(cr, a, s->times->t, v, s->times->n,
		    chart_palette(lines[i].colour), 2, lines[i].dashed);
		free(v);
	}
	panel_legend(cr, a, lines, n);
}

static void
spread_draw(cairo_t *cr, double w, double h, const void *data)
{
	static const struct spread_line l_spread[] = {
		{ METRIC_SPREAD_INDEX, "spread index", 0, 0 },
	};
	static const struct spread_line l_regions[] = {
		{ METRIC_ACTIVE_REGIONS, "active", 1, 0 },
		{ METRIC_EMPTY_REGIONS, "empty", 2, 0 },
		{ METRIC_IDEAL_REGIONS, "ideal (fewest)", 0, 1 },
	};
	static const struct spread_line l_bytes[] = {
		{ METRIC_EMPTY_BYTES, "empty memory", 2, 0 },
	};
	const struct chart_run *run = data;
	const struct results *res = run->res;
	struct chart_axes p[3];
	struct chart_scale none = { 1, "", 0 }, count = { 1, "", 1 }, bytes;
	double top, total = 0, max;
	char label[64];
	int i;

	chart_background(cr, w, h);
	top = chart_title(cr, w, "Spread over time: how many regions hold "
	    "the used memory", run->where);
	for (i = 0; i < 3; i++) {
		p[i].x = 96;
		p[i].w = w - p[i].x - SPREAD_RIGHT;
		p[i].y = round(top + 34 + i * (SPREAD_PANEL_H + SPREAD_GAP));
		p[i].h = SPREAD_PANEL_H;
		chart_time_range(res, &p[i].x0, &p[i].x1);
		p[i].y0 = 0;
	}
	max = series_max(metrics_find(run->m, METRIC_NAME(SPREAD_INDEX)));
	p[0].y1 = fmax(2, ceil(max * 1.15 * 2) / 2);
	p[1].y1 = res->nregions + 0.5;
	for (i = 0; i < res->nregions; i++)
		total += (double)res->regions[i].present_pages *
		    res->page_size;
	bytes = chart_bytes_scale(total);
	p[2].y1 = fmax(total, 1);

	chart_phase_bands(cr, res, p, 3, 0);
	chart_axis_y(cr, &p[0], none, "active / ideal", 1);
	chart_axis_y(cr, &p[1], count, "regions", 1);
	snprintf(label, sizeof label, "empty (%s)", bytes.unit);
	chart_axis_y(cr, &p[2], bytes, label, 1);
	panel_lines(cr, run, &p[0], l_spread, 1, 1);
	panel_lines(cr, run, &p[1], l_regions, 3, 1);
	panel_lines(cr, run, &p[2], l_bytes, 1, 1);
	for (i = 0; i < 3; i++)
		chart_frame(cr, &p[i]);
	snprintf(label, sizeof label, "time since start (%s)",
	    chart_time_scale(p[2].x1 - p[2].x0).unit);
	chart_axis_x(cr, &p[2], chart_time_scale(p[2].x1 - p[2].x0), label);
}

const struct chart_def chart_spread_def = {
	.name = "spread",
	.title = "Spread over time",
	.input = CHART_RUN,
	.absent = spread_absent,
	.size = spread_size,
	.draw = spread_draw,
};
