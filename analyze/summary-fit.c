/*
 * How the summary's text table fits a terminal: the widths of the name,
 * value and unit columns, the compact layout, which reductions keep a
 * column and when a metric's name goes on a line of its own, and the same
 * for the region list.  The table walk is summary-table.c.
 */
#include "config.h"

#include <string.h>

#include "summary.h"
#include "summary-int.h"

/* Width of the name column: at least 28, else the longest name shown. */
static int
summary_name_width(const struct summary_run *sr, int p, int brief)
{
	const struct metrics *m = sr->m;
	int i, width = 28;

	for (i = 0; i < m->nseries; i++) {
		if (m->series[i].headline &&
		    (int)strlen(m->series[i].name) > width)
			width = (int)strlen(m->series[i].name);
	}
	for (i = 0; i < sr->sum.n; i++) {
		if (summary_row_shown(&sr->sum.rows[i], p, brief) &&
		    (int)strlen(sr->sum.rows[i].metric) > width)
			width = (int)strlen(sr->sum.rows[i].metric);
	}
	return (width);
}

/*
 * The unit the narrow layout shows: short words, and nothing for a ratio
 * (its four decimals say what it is).
 */
static const char *
summary_short_unit(const char *unit)
{
	static const char *const units[][2] = {
		{ "bytes", "MiB" }, { "regions", "rgn" }, { "pages", "pg" },
		{ "ratio", "" }, { "samples", "smp" },
	};
	size_t i;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(unit, units[i][0]) == 0)
			return (units[i][1]);
	}
	return (unit);
}

/* The unit a row shows in a layout. */
const char *
summary_fit_unit(const struct summary_fit *fit, const char *unit)
{
	return (fit->compact ? summary_short_unit(unit) :
	    summary_table_unit(unit));
}

/* Grow *w to hold s. */
static void
summary_widen(int *w, const char *s)
{
	if ((int)strlen(s) > *w)
		*w = (int)strlen(s);
}

/* The length of a metric line in the compact layout of fit. */
static int
summary_fit_length(const struct summary_fit *fit)
{
	int j, n = 2 + (fit->name_alone ? 2 : fit->name_width);

	for (j = 0; j < SUMMARY_NRED; j++)
		n += fit->shown[j] ? 1 + fit->cell_width : 0;
	return (n + (fit->unit_width > 0 ? 1 + fit->unit_width : 0));
}

/* Choose the reductions' columns of a compact layout that fit. */
static int
summary_fit_columns(struct summary_fit *fit)
{
	static const int drop[] = { 0, 2, 3 };	/* min, max, final */
	size_t i;
	int j;

	for (j = 0; j < SUMMARY_NRED; j++)
		fit->shown[j] = 1;
	for (i = 0; summary_fit_length(fit) > fit->width &&
	    i < sizeof drop / sizeof drop[0]; i++)
		fit->shown[drop[i]] = 0;
	return (summary_fit_length(fit) <= fit->width);
}

/*
 * Choose the layout of phase p's metric lines for a terminal of width
 * columns (0: no limit, the full layout).
 */
void
summary_fit_phase(const struct summary_run *sr, int p, int brief, int width,
    struct summary_fit *fit)
{
	char cell[SUMMARY_NRED][32], one[32];
	struct metric_reduction red;
	const struct summary_row *row;
	int i, j, names = 0, cells = 6, units = 0, full_units = 0;

	memset(fit, 0, sizeof *fit);
	fit->width = width;
	fit->name_width = summary_name_width(sr, p, brief);
	fit->cell_width = 10;
	for (j = 0; j < SUMMARY_NRED; j++)
		fit->shown[j] = 1;
	for (i = 0; i < sr->m->nseries; i++) {
		if (!summary_series_shown(sr, &sr->m->series[i], p, brief,
		    &red))
			continue;
		summary_series_cells(&sr->m->series[i], &red, cell);
		summary_widen(&names, sr->m->series[i].name);
		for (j = 0; j < SUMMARY_NRED; j++)
			summary_widen(&cells, cell[j]);
		summary_widen(&units,
		    summary_short_unit(sr->m->series[i].unit));
		summary_widen(&full_units,
		    summary_table_unit(sr->m->series[i].unit));
	}
	for (i = 0; i < sr->sum.n; i++) {
		row = &sr->sum.rows[i];
		if (!summary_row_shown(row, p, brief))
			continue;
		summary_format_value(one, sizeof one, row->value, row->unit);
		summary_widen(&names, row->metric);
		summary_widen(&cells, one);
		summary_widen(&units, summary_short_unit(row->unit));
		summary_widen(&full_units, row->unit);
	}
	if (width <= 0 || 2 + fit->name_width + SUMMARY_NRED * 11 + 2 +
	    full_units <= width)
		return;
	fit->compact = 1;
	fit->name_width = names > 6 ? names : 6;
	fit->cell_width = cells;
	fit->unit_width = units;
	if (summary_fit_columns(fit))
		return;
	fit->name_alone = 1;
	summary_fit_columns(fit);
}

/*
 * Choose the layout of the region list: the full one when it fits, else
 * columns as wide as their contents, without the pfn range if need be.
 */
void
summary_fit_regions(const struct summary_run *sr, int last,
    struct summary_fit *fit)
{
	const struct results *res = sr->res;
	char range[48], state[48];
	int i, full;

	fit->region_width = 6;
	fit->range_width = 9;
	fit->state_width = 5;
	fit->show_range = 1;
	for (i = 0; i < res->nregions; i++) {
		summary_widen(&fit->region_width, res->regions[i].name);
		if (res->regions[i].start_pfn == RESULTS_UNKNOWN)
			snprintf(range, sizeof range, "unknown");
		else
			snprintf(range, sizeof range, "%#llx-%#llx",
			    (unsigned long long)res->regions[i].start_pfn,
			    (unsigned long long)res->regions[i].end_pfn);
		summary_widen(&fit->range_width, range);
		summary_widen(&fit->state_width, summary_region_state(sr,
		    (size_t)last * res->nregions + i, state, sizeof state));
	}
	full = 2 + 8 + 1 + 25 + 1 + 12 + 1 + 12 + 1 + 9 + 2 + fit->state_width;
	fit->compact = fit->width > 0 && full > fit->width;
	if (fit->compact && 2 + fit->region_width + 1 + fit->range_width +
	    3 * 8 + 2 + fit->state_width > fit->width)
		fit->show_range = 0;
}

