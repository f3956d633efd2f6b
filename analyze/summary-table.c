/*
 * The summary's tables: one walk over the data per phase (its metrics,
 * data quality and regions) that prints each line through a style, so
 * that text and markdown (summary-style.c) differ only in their line
 * printers, and the entry points analyze and run call.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "quality.h"
#include "summary.h"
#include "summary-int.h"

const char *const summary_red_names[SUMMARY_NRED] = {
	"min", "mean", "max", "final", "twmean"
};

/* Human-friendly number for tables: MiB for bytes, 4 digits for ratios. */
void
summary_format_value(char *buf, size_t len, double v, const char *unit)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (strcmp(unit, "bytes") == 0)
		snprintf(buf, len, "%.1f", v / (1024 * 1024));
	else if (strcmp(unit, "ratio") == 0)
		snprintf(buf, len, "%.4f", v);
	else if ((v == floor(v) && fabs(v) < 1e12) ||
	    (fabs(v) >= 1e4 && fabs(v) < 1e12))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

/* The unit a table shows: bytes are printed in MiB. */
const char *
summary_table_unit(const char *unit)
{
	return (strcmp(unit, "bytes") == 0 ? "MiB" : unit);
}

/*
 * Is a summary row one the phase table shows after the series (which it
 * prints with all their reductions)?
 */
int
summary_row_shown(const struct summary_row *row, int p, int brief)
{
	return (row->phase == p && !metrics_is_reduction(row->metric) &&
	    metrics_shown(row->metric, row->headline, brief ? METRICS_BRIEF :
	    METRICS_HEADLINE));
}

/* Does a headline series have a line in phase p's table? */
int
summary_series_shown(const struct summary_run *sr,
    const struct metric_series *s, int p, int brief,
    struct metric_reduction *red)
{
	if (!s->headline || metrics_reduce(sr->m, s, p, red) == 0)
		return (0);
	/* Brief: a workload that does not run in this phase has no
	 * placement worth a line. */
	if (brief && metric_lookup(s->name) ==
	    &metric_defs[METRIC_PLACEMENT_REGIONS] && red->max == 0)
		return (0);
	return (1);
}

/* The five cells of a series' reductions. */
void
summary_series_cells(const struct metric_series *s,
    const struct metric_reduction *red, char cell[SUMMARY_NRED][32])
{
	double vals[SUMMARY_NRED];
	int j;

	vals[0] = red->min;
	vals[1] = red->mean;
	vals[2] = red->max;
	vals[3] = red->final;
	vals[4] = red->twmean;
	for (j = 0; j < SUMMARY_NRED; j++)
		summary_format_value(cell[j], sizeof cell[j], vals[j], s->unit);
}

/* The words the region list uses for region_state. */
static const char *const summary_state_names[] = {
	[REGION_HOLE] = "hole",
	[REGION_UNINIT] = "uninit",
	[REGION_EMPTY] = "empty",
	[REGION_ACTIVE] = "active",
	[REGION_UNPROVEN] = "unproven",
};

/* The words the region list adds for metrics_power (runs with DAMON). */
static const char *const summary_power_names[] = {
	[METRICS_POWER_NONE] = "no DAMON reading",
	[METRICS_POWER_OFF] = "off",
	[METRICS_POWER_SELF_REFRESH] = "self-refresh",
	[METRICS_POWER_ON] = "on",
};

/*
 * A region's state at one sample: by allocation, and with DAMON's
 * references the power state too ("active, self-refresh").  Regions
 * without memory have no power state to add.
 */
const char *
summary_region_state(const struct summary_run *sr, size_t at, char *buf,
    size_t len)
{
	unsigned state = sr->m->state[at];

	if (sr->m->power == NULL || state == REGION_HOLE ||
	    state == REGION_UNINIT)
		return (summary_state_names[state]);
	snprintf(buf, len, "%s, %s", summary_state_names[state],
	    summary_power_names[sr->m->power[at]]);
	return (buf);
}

/* The headline series of phase p with their five reductions. */
static void
summary_print_series(FILE *f, const struct summary_run *sr, int p, int brief,
    const struct summary_fit *fit, const struct summary_style *st)
{
	char cell[SUMMARY_NRED][32];
	struct metric_reduction red;
	const struct metric_series *s;
	int i;

	for (i = 0; i < sr->m->nseries; i++) {
		s = &sr->m->series[i];
		if (!summary_series_shown(sr, s, p, brief, &red))
			continue;
		summary_series_cells(s, &red, cell);
		st->series(f, fit, s->name, cell, s->unit);
	}
}

/* Every region at the phase's last sample: sizes, occupancy, state. */
static void
summary_print_regions(FILE *f, const struct summary_run *sr, int p,
    int width, const struct summary_style *st)
{
	const struct results *res = sr->res;
	double mib = res->page_size / (1024.0 * 1024);
	char range[48], state[48];
	struct summary_fit fit;
	size_t at;
	int i, last;

	for (last = -1, i = 0; i < res->samples.n; i++)
		if (res->samples.phase[i] == p)
			last = i;
	if (last < 0)
		return;
	memset(&fit, 0, sizeof fit);
	fit.width = width;
	summary_fit_regions(sr, last, &fit);
	st->regions(f, res->samples.t[last], &fit);
	for (i = 0; i < res->nregions; i++) {
		at = (size_t)last * res->nregions + i;
		if (res->regions[i].start_pfn == RESULTS_UNKNOWN)
			snprintf(range, sizeof range, "unknown");
		else
			snprintf(range, sizeof range, "%#llx-%#llx",
			    (unsigned long long)res->regions[i].start_pfn,
			    (unsigned long long)res->regions[i].end_pfn);
		st->region(f, &fit, res->regions[i].name, range,
		    res->present[at] * mib, res->used[at] * mib,
		    sr->m->occupancy[at],
		    summary_region_state(sr, at, state, sizeof state));
	}
}

/* The phase's data quality in one line, only when it is not clean. */
static void
summary_print_quality(FILE *f, const struct summary_run *sr, int p,
    const struct summary_fit *fit, const struct summary_style *st)
{
	struct quality q;
	char text[224];

	quality_phase(sr->res, p, &q);
	/* Stale counts are exact, but how stale is always said. */
	if (quality_clean(&q, sr->res->interval_s) && !(q.max_count_age_s > 0))
		return;
	quality_text(text, sizeof text, &q);
	st->quality(f, text, fit);
}

/* One phase: the series, the other rows shown, then the regions. */
static void
summary_print_phase(FILE *f, const struct summary_run *sr, int p, int brief,
    int width, const struct summary_style *st)
{
	const struct summary_row *row;
	struct summary_fit fit;
	char cell[32];
	int i;

	summary_fit_phase(sr, p, brief, width, &fit);
	st->phase(f, sr->res->phases[p], &fit);
	summary_print_series(f, sr, p, brief, &fit, st);
	for (i = 0; i < sr->sum.n; i++) {
		row = &sr->sum.rows[i];
		if (!summary_row_shown(row, p, brief))
			continue;
		summary_format_value(cell, sizeof cell, row->value, row->unit);
		st->row(f, &fit, row, cell);
	}
	summary_print_quality(f, sr, p, &fit, st);
	if (!brief)
		summary_print_regions(f, sr, p, width, st);
}

/* The whole table in one style, fitted to width columns (0: no limit). */
static void
summary_print(FILE *f, const struct summary_run *sr, int brief, int width,
    const struct summary_style *st)
{
	int p;

	st->title(f, sr, width);
	for (p = 0; p < sr->res->nphases; p++)
		summary_print_phase(f, sr, p, brief, width, st);
	if (sr->power) {
		fputc('\n', f);
		if (width > 0)
			opt_print_wrapped(f, st->power_note, 0, 0, width);
		else
			fprintf(f, "%s\n", st->power_note);
	}
}

/* The summary as aligned text (brief: what run prints). */
void
summary_print_text(FILE *f, const struct summary_run *sr, int brief)
{
	summary_print(f, sr, brief, 0, &summary_text_style);
}

/*
 * The summary as aligned text fitted to a terminal of width columns
 * (0: a file or a pipe, the full table).
 */
void
summary_print_text_fit(FILE *f, const struct summary_run *sr, int brief,
    int width)
{
	summary_print(f, sr, brief, width, &summary_text_style);
}

/* The summary as markdown tables. */
void
summary_print_markdown(FILE *f, const struct summary_run *sr, int brief)
{
	summary_print(f, sr, brief, 0, &summary_markdown_style);
}

