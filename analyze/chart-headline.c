/*
 * Headline metrics compared: for every (phase, metric) of compare's
 * headline set, each group's mean with its 95% confidence interval as a
 * dot and whisker, one row per metric on a scale of its own, the figures
 * written beside them.  The same statistics as `compare` (compare.h, one
 * value per boot): an interval that overlaps the baseline's is a hint
 * that the difference may be noise, the p-value in compare says how much.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart-run.h"
#include "compare.h"
#include "log.h"
#include "summary.h"

#define HL_W		1000.0
#define HL_LABEL_W	300.0	/* metric names, left */
#define HL_TEXT_W	230.0	/* figures, right */
#define HL_GROUP_H	15.0
#define HL_ROW_GAP	20.0

/* One (phase, metric): per group its mean and interval (NAN: none). */
struct hl_row {
	char		*label;
	const char	*unit;
	double		*mean;
	double		*lo;
	double		*hi;
	int		*n;
};

struct hl_data {
	char		**groups;
	int		 ngroups;
	struct hl_row	*rows;
	int		 nrows;
	char		*where;
	int		 boots;		/* n counts boots, not runs */
};

/*
 * One group's figures for a key.  Rates get the harmonic mean, and the
 * interval of the reciprocals turned back into rates.
 */
static void
hl_cell(const struct compare_set *set, int g, const struct compare_key *key,
    struct hl_row *row)
{
	struct compare_cell cell;
	double lo, hi;

	row->mean[g] = row->lo[g] = row->hi[g] = NAN;
	row->n[g] = 0;
	if (metrics_is_rate(key->metric, key->unit)) {
		if (compare_cell_harmonic(set, 0, g, key, COMPARE_WELCH, 0.05,
		    &cell) != 0)
			return;
		lo = cell.desc.ci_high > 0 ? 1 / cell.desc.ci_high : NAN;
		hi = cell.desc.ci_low > 0 ? 1 / cell.desc.ci_low : NAN;
	} else {
		compare_cell(set, 0, g, key, COMPARE_WELCH, 0.05, &cell);
		lo = cell.desc.ci_low;
		hi = cell.desc.ci_high;
	}
	if (cell.desc.n == 0)
		return;
	row->mean[g] = cell.desc.mean;
	row->lo[g] = lo;
	row->hi[g] = hi;
	row->n[g] = cell.desc.n;
}

/* Free what hl_load built. */
static void
hl_free(struct hl_data *d)
{
	int i;

	for (i = 0; i < d->ngroups; i++)
		free(d->groups[i]);
	free(d->groups);
	for (i = 0; i < d->nrows; i++) {
		free(d->rows[i].label);
		free(d->rows[i].mean);
		free(d->rows[i].lo);
		free(d->rows[i].hi);
		free(d->rows[i].n);
	}
	free(d->rows);
	free(d->where);
}

/* Group paths as `compare` does and take every headline key's figures. */
static int
hl_load(char **paths, int npaths, enum compare_group_by by,
    struct hl_data *d, char **cause)
{
	const struct compare_key *k;
	struct compare_set *set;
	struct hl_row *row;
	char *next;
	int i, g, rc, any;

	memset(d, 0, sizeof *d);
	if ((rc = compare_load(paths, npaths, by, NULL, NULL, &set,
	    cause)) != 0)
		return (rc);
	set->unit = COMPARE_UNIT_BOOT;
	d->boots = 1;
	d->ngroups = set->ngroups;
	d->groups = xcalloc(set->ngroups + 1, sizeof *d->groups);
	d->where = xstrdup("");
	for (g = 0; g < set->ngroups; g++) {
		d->groups[g] = xstrdup(set->groups[g].name);
		next = xasprintf("%s%s%s: %d run%s", d->where, g > 0 ? " | " :
		    "", set->groups[g].name, set->groups[g].nruns,
		    set->groups[g].nruns == 1 ? "" : "s");
		free(d->where);
		d->where = next;
	}
	for (i = 0; i < set->nkeys; i++) {
		k = &set->keys[i];
		if (!metrics_compare_shown(k->metric, k->unit, k->headline))
			continue;
		d->rows = xreallocarray(d->rows, d->nrows + 1,
		    sizeof *d->rows);
		row = &d->rows[d->nrows++];
		row->label = xasprintf("%s: %s", k->phase, k->metric);
		/* The set's strings die with it: keep what formatting needs. */
		row->unit = strcmp(k->unit, "bytes") == 0 ? "bytes" :
		    strcmp(k->unit, "ratio") == 0 ? "ratio" : NULL;
		row->mean = xcalloc(set->ngroups, sizeof *row->mean);
		row->lo = xcalloc(set->ngroups, sizeof *row->lo);
		row->hi = xcalloc(set->ngroups, sizeof *row->hi);
		row->n = xcalloc(set->ngroups, sizeof *row->n);
		for (any = 0, g = 0; g < set->ngroups; g++) {
			hl_cell(set, g, k, row);
			any |= isfinite(row->mean[g]);
		}
		if (!any) {
			free(row->label);
			free(row->mean);
			free(row->lo);
			free(row->hi);
			free(row->n);
			d->nrows--;
		}
	}
	compare_free(set);
	return (0);
}

static const char *
hl_absent(const void *data)
{
	const struct hl_data *d = data;

	return (d->nrows == 0 ? "no headline metric in any group" : NULL);
}

/* Height of one metric's row. */
static double
hl_row_h(const struct hl_data *d)
{
	return (d->ngroups * HL_GROUP_H + HL_ROW_GAP);
}

static void
hl_size(const void *data, double *w, double *h)
{
	const struct hl_data *d = data;

	*w = HL_W;
	*h = 62 + 30 + d->nrows * hl_row_h(d) + 30;
}

/*
 * The range a row's scale spans: every mean and interval end, and zero
 * (so that a 1% difference looks like one, not like the whole scale),
 * padded.
 */
static void
hl_range(const struct hl_data *d, const struct hl_row *row, double *lo,
    double *hi)
{
	double v;
	int g;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (g = 0; g < d->ngroups; g++) {
		v = row->mean[g];
		if (!isfinite(v))
			continue;
		*lo = fmin(*lo, isfinite(row->lo[g]) ? fmin(row->lo[g], v) : v);
		*hi = fmax(*hi, isfinite(row->hi[g]) ? fmax(row->hi[g], v) : v);
	}
	*lo = fmin(*lo, 0);
	*hi = fmax(*hi, 0);
	if (*hi - *lo < 1e-12 * fmax(fabs(*hi), 1)) {
		*lo -= fmax(fabs(*lo) * 0.05, 0.5);
		*hi += fmax(fabs(*hi) * 0.05, 0.5);
	}
	v = (*hi - *lo) * 0.06;
	*lo -= v;
	*hi += v;
}

/* A row's figure for people, in the units analyze prints. */
static void
hl_figure(char *buf, size_t len, double v, const char *unit)
{
	summary_format_value(buf, len, v, unit != NULL ? unit : "");
}

/* One metric: its name, a scale line, and per group a dot and whisker. */
static void
hl_draw_row(cairo_t *cr, const struct hl_data *d, const struct hl_row *row,
    double y, double x0, double x1)
{
	char m[32], l[32], h[32], text[128];
	double lo, hi, py, a, b;
	int g;

	hl_range(d, row, &lo, &hi);
	chart_font(cr, CHART_FONT_SIZE - 1, 0);
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	chart_text(cr, 12, y + d->ngroups * HL_GROUP_H / 2, 0, 0.5,
	    row->label);
	cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, x0, y - 2, x1 - x0, d->ngroups * HL_GROUP_H + 4);
	cairo_stroke(cr);
	for (g = 0; g < d->ngroups; g++) {
		if (!isfinite(row->mean[g]))
			continue;
		py = y + (g + 0.5) * HL_GROUP_H;
		chart_set_rgb(cr, chart_palette(g), 1);
		if (isfinite(row->lo[g]) && isfinite(row->hi[g])) {
			a = x0 + (row->lo[g] - lo) / (hi - lo) * (x1 - x0);
			b = x0 + (row->hi[g] - lo) / (hi - lo) * (x1 - x0);
			cairo_set_line_width(cr, 2);
			cairo_move_to(cr, a, py);
			cairo_line_to(cr, b, py);
			cairo_move_to(cr, a, py - 4);
			cairo_line_to(cr, a, py + 4);
			cairo_move_to(cr, b, py - 4);
			cairo_line_to(cr, b, py + 4);
			cairo_stroke(cr);
		}
		a = x0 + (row->mean[g] - lo) / (hi - lo) * (x1 - x0);
		cairo_arc(cr, a, py, 4, 0, 2 * M_PI);
		cairo_fill(cr);
		hl_figure(m, sizeof m, row->mean[g], row->unit);
		if (isfinite(row->lo[g]) && isfinite(row->hi[g])) {
			hl_figure(l, sizeof l, row->lo[g], row->unit);
			hl_figure(h, sizeof h, row->hi[g], row->unit);
			snprintf(text, sizeof text, "%s [%s, %s] n=%d", m, l, h,
			    row->n[g]);
		} else
			snprintf(text, sizeof text, "%s n=%d", m, row->n[g]);
		chart_text(cr, x1 + 10, py, 0, 0.5, text);
	}
}

static void
hl_draw(cairo_t *cr, double w, double h, const void *data)
{
	const struct hl_data *d = data;
	struct chart_rgb *colours;
	double top, y, x0 = HL_LABEL_W, x1 = w - HL_TEXT_W;
	int i;

	chart_background(cr, w, h);
	top = chart_title(cr, w, d->boots ? "Headline metrics per group "
	    "(mean and 95% confidence interval; n = boots; bytes in MiB)" :
	    "Headline metrics per group (mean and 95% confidence interval)",
	    d->where);
	colours = xcalloc(d->ngroups + 1, sizeof *colours);
	for (i = 0; i < d->ngroups; i++)
		colours[i] = chart_palette(i);
	chart_legend(cr, x0, top, x1 - x0, (const char *const *)d->groups,
	    colours, d->ngroups);
	free(colours);
	for (y = top + 30, i = 0; i < d->nrows; i++, y += hl_row_h(d))
		hl_draw_row(cr, d, &d->rows[i], y, x0, x1);
}

/* CHART_RUNS load hook. */
static int
hl_load_hook(char **paths, int npaths, enum compare_group_by by,
    void **data, char **cause)
{
	struct hl_data *d = xcalloc(1, sizeof *d);
	int rc;

	if ((rc = hl_load(paths, npaths, by, d, cause)) != 0) {
		free(d);
		return (rc);
	}
	*data = d;
	return (0);
}

/* CHART_RUNS free hook. */
static void
hl_free_hook(void *data)
{
	hl_free(data);
	free(data);
}

const struct chart_def chart_headline_def = {
	.name = "headline",
	.title = "Headline metrics per group with 95% intervals",
	.input = CHART_RUNS,
	.load = hl_load_hook,
	.free = hl_free_hook,
	.absent = hl_absent,
	.size = hl_size,
	.draw = hl_draw,
};
