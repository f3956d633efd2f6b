/*
 * The summary of one run: metrics reduced per phase, saved as summary.csv
 * and summary.json in the results directory and printed as text or
 * markdown tables.  The tables walk the data once (summary_print_phase);
 * what differs between text and markdown is a table of line printers.
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opt.h"
#include "output.h"
#include "quality.h"
#include "summary.h"

#define SUMMARY_NRED	5	/* min, mean, max, final, twmean */

/*
 * How the text table fits the terminal.  width 0 (a file or a pipe) or a
 * terminal wide enough: the full layout.  Otherwise the compact one:
 * columns as wide as their contents, short units, and, while it still
 * does not fit, fewer reductions (min, then max, then final go) and at
 * last each metric's name on a line of its own.
 */
struct summary_fit {
	int	 width;			/* terminal columns, 0: no limit */
	int	 compact;
	int	 name_width;
	int	 cell_width;
	int	 unit_width;
	int	 shown[SUMMARY_NRED];	/* which reductions have a column */
	int	 name_alone;		/* the name on a line of its own */
	/* region list */
	int	 region_width, range_width, state_width;
	int	 show_range;
};

static const char *const summary_red_names[SUMMARY_NRED] = {
	"min", "mean", "max", "final", "twmean"
};

/* How one table format prints each kind of line. */
struct summary_style {
	void	(*title)(FILE *f, const struct summary_run *sr, int width);
	void	(*phase)(FILE *f, const char *phase,
		    const struct summary_fit *fit);
	void	(*series)(FILE *f, const struct summary_fit *fit,
		    const char *name, char cell[SUMMARY_NRED][32],
		    const char *unit);
	void	(*row)(FILE *f, const struct summary_fit *fit,
		    const struct summary_row *row, const char *cell);
	void	(*regions)(FILE *f, double t_s, const struct summary_fit *fit);
	void	(*region)(FILE *f, const struct summary_fit *fit,
		    const char *name, const char *range, double present_mib,
		    double used_mib, double occupancy, const char *state);
	void	(*quality)(FILE *f, const char *text,
		    const struct summary_fit *fit);
	const char *power_note;		/* printed after the phases */
};

/* Load, compute and summarize the run in dir (power model optional). */
int
summary_run_load(struct summary_run *sr, const char *dir,
    const struct metrics_options *mo, const struct power_model *pm,
    char **cause)
{
	int rc;

	memset(sr, 0, sizeof *sr);
	if ((rc = results_load(dir, &sr->res, cause)) != 0)
		return (rc);
	if ((rc = metrics_compute(sr->res, mo, &sr->m, cause)) != 0) {
		results_free(sr->res);
		sr->res = NULL;
		return (rc);
	}
	metrics_summarize(sr->m, &sr->sum);
	if (pm != NULL) {
		power_summarize(sr->res, sr->m, pm, &sr->sum);
		sr->power = 1;
	}
	return (0);
}

/* Free what summary_run_load made. */
void
summary_run_free(struct summary_run *sr)
{
	summary_free(&sr->sum);
	if (sr->m != NULL)
		metrics_free(sr->m);
	if (sr->res != NULL)
		results_free(sr->res);
	memset(sr, 0, sizeof *sr);
}

/* Write summary.csv: one row per (phase, metric). */
void
summary_write_csv(FILE *f, const struct summary_run *sr)
{
	const struct summary_row *row;
	int i;

	fprintf(f, "phase,metric,value,unit\n");
	for (i = 0; i < sr->sum.n; i++) {
		row = &sr->sum.rows[i];
		output_csv_field(f, sr->res->phases[row->phase]);
		fputc(',', f);
		output_csv_field(f, row->metric);
		fputc(',', f);
		output_csv_number(f, row->value);
		fputc(',', f);
		output_csv_field(f, row->unit);
		fputc('\n', f);
	}
}

/* A JSON number, or null for NAN/inf. */
static json_t *
summary_json_num(double v)
{
	return (isfinite(v) ? json_real(v) : json_null());
}

/* Build summary.json: the run's identity, then phases -> metrics. */
static json_t *
summary_json(const struct summary_run *sr)
{
	const struct results *res = sr->res;
	json_t *root, *phases, *phase, *metric;
	const struct summary_row *row;
	int i;

	root = json_object();
	json_object_set_new(root, "schema_version",
	    json_integer(SUMMARY_SCHEMA_VERSION));
	json_object_set_new(root, "dir", json_string(res->dir));
	json_object_set_new(root, "label", json_string(res->label));
	json_object_set_new(root, "host", json_string(res->host));
	json_object_set_new(root, "kernel", json_string(res->kernel_release));
	json_object_set_new(root, "status", json_string(res->status));
	json_object_set_new(root, "regions", json_integer(res->nregions));
	json_object_set_new(root, "page_size", json_integer(res->page_size));
	json_object_set_new(root, "empty_tolerance_pages",
	    json_integer(sr->m->opt.empty_tolerance));
	phases = json_object();
	for (i = 0; i < sr->sum.n; i++) {
		row = &sr->sum.rows[i];
		if ((phase = json_object_get(phases,
		    res->phases[row->phase])) == NULL) {
			phase = json_object();
			json_object_set_new(phases, res->phases[row->phase],
			    phase);
		}
		metric = json_object();
		json_object_set_new(metric, "value",
		    summary_json_num(row->value));
		json_object_set_new(metric, "unit", json_string(row->unit));
		json_object_set_new(phase, row->metric, metric);
	}
	json_object_set_new(root, "phases", phases);
	return (root);
}

/* Write summary.json (indented, no trailing newline); -1 on error. */
int
summary_write_json(FILE *f, const struct summary_run *sr)
{
	json_t *json = summary_json(sr);
	int rc;

	rc = json_dumpf(json, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10));
	json_decref(json);
	return (rc != 0 ? -1 : 0);
}

/* Write summary.csv and summary.json into the results directory. */
int
summary_save(const struct summary_run *sr, char **cause)
{
	struct output_file of;
	char *path;
	int rc;

	path = xasprintf("%s/summary.csv", sr->res->dir);
	rc = output_open(&of, path, cause);
	free(path);
	if (rc != 0)
		return (rc);
	summary_write_csv(of.f, sr);
	if ((rc = output_commit(&of, cause)) != 0)
		return (rc);
	path = xasprintf("%s/summary.json", sr->res->dir);
	rc = output_open(&of, path, cause);
	free(path);
	if (rc != 0)
		return (rc);
	if (summary_write_json(of.f, sr) != 0) {
		output_abort(&of);
		return (fail_with(cause, RB_EXIT_ENV, "%s/summary.json: write "
		    "failed", sr->res->dir));
	}
	fputc('\n', of.f);
	return (output_commit(&of, cause));
}

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
static int
summary_row_shown(const struct summary_row *row, int p, int brief)
{
	return (row->phase == p && !metrics_is_reduction(row->metric) &&
	    metrics_shown(row->metric, row->headline, brief ? METRICS_BRIEF :
	    METRICS_HEADLINE));
}

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
static const char *
summary_fit_unit(const struct summary_fit *fit, const char *unit)
{
	return (fit->compact ? summary_short_unit(unit) :
	    summary_table_unit(unit));
}

/* Does a headline series have a line in phase p's table? */
static int
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
static void
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
static void
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
static const char *
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

/*
 * Choose the layout of the region list: the full one when it fits, else
 * columns as wide as their contents, without the pfn range if need be.
 */
static void
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

/* How the counts were read, for the title blocks. */
static const char *
summary_counts(const struct results *res)
{
	if (res->scan == NULL || strcmp(res->scan, "exact") == 0)
		return (res->count_age_ms != NULL ? "exact, in rotation: a "
		    "region keeps its last exact count until its part of "
		    "memory is counted again (counted_at_s)" : "exact");
	return (res->scan);
}

/*
 * Print items separated by ", " from column col, a new line (at indent)
 * before an item that would pass width (0: no limit); ends the line.
 */
static void
summary_print_items(FILE *f, const char *const *items, int n, int col,
    int indent, int width)
{
	int i, len;

	for (i = 0; i < n; i++) {
		len = (int)strlen(items[i]) + (i + 1 < n ? 1 : 0);
		if (i > 0 && width > 0 && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (i > 0) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%s%s", items[i], i + 1 < n ? "," : "");
		col += len;
	}
	fputc('\n', f);
}

/* Text: the title block, its lines broken between items to fit width. */
static void
text_title(FILE *f, const struct summary_run *sr, int width)
{
	const struct results *res = sr->res;
	char *items[9];
	int i;

	fprintf(f, "regionbench analyze %s\n  ", res->dir);
	items[0] = xasprintf("label %s", res->label[0] != '\0' ? res->label :
	    "(none)");
	items[1] = xasprintf("kernel %s", res->kernel_release);
	items[2] = xasprintf("host %s", res->host);
	items[3] = xasprintf("source %s", res->source != NULL ? res->source :
	    "unknown");
	summary_print_items(f, (const char *const *)items, 4, 2, 2, width);
	items[4] = xasprintf("%d regions", res->nregions);
	items[5] = xasprintf("%d samples", res->samples.n);
	items[6] = xasprintf("page size %llu",
	    (unsigned long long)res->page_size);
	items[7] = xasprintf("empty tolerance %llu pages",
	    (unsigned long long)sr->m->opt.empty_tolerance);
	items[8] = xasprintf("status %s", res->status);
	fputs("  ", f);
	summary_print_items(f, (const char *const *)items + 4, 5, 2, 2, width);
	for (i = 0; i < 9; i++)
		free(items[i]);
	items[0] = xasprintf("counts: %s", summary_counts(res));
	fputs("  ", f);
	if (width > 0)
		opt_print_wrapped(f, items[0], 2, 4, width);
	else
		fprintf(f, "%s\n", items[0]);
	free(items[0]);
	if (res->guest_kernel_report != NULL) {
		fputs("  ", f);
		items[0] = xasprintf("the guest kernel reported a bug: %s (its "
		    "boot's vm-dmesg.log has the rest)",
		    res->guest_kernel_report);
		if (width > 0)
			opt_print_wrapped(f, items[0], 2, 4, width);
		else
			fprintf(f, "%s\n", items[0]);
		free(items[0]);
	}
}

/* Text, compact: the cells of one line, value alone in the mean column. */
static void
text_fit_cells(FILE *f, const struct summary_fit *fit,
    char cell[SUMMARY_NRED][32], const char *unit)
{
	int j;

	for (j = 0; j < SUMMARY_NRED; j++) {
		if (fit->shown[j])
			fprintf(f, " %*s", fit->cell_width, cell[j]);
	}
	if (unit[0] != '\0')
		fprintf(f, " %s", unit);
	fputc('\n', f);
}

/* Text, compact: the start of a metric's line (or its own line). */
static void
text_fit_name(FILE *f, const struct summary_fit *fit, const char *name)
{
	if (fit->name_alone)
		fprintf(f, "  %s\n    ", name);
	else
		fprintf(f, "  %-*s", fit->name_width, name);
}

/* Text: a phase's heading and column names. */
static void
text_phase(FILE *f, const char *phase, const struct summary_fit *fit)
{
	char cell[SUMMARY_NRED][32];
	int j, left = 0;

	if (!fit->compact) {
		fprintf(f, "\nphase %s\n  %-*s %10s %10s %10s %10s %10s  %s\n",
		    phase, fit->name_width, "metric", "min", "mean", "max",
		    "final", "twmean", "unit");
		return;
	}
	fprintf(f, "\nphase %s", phase);
	for (j = 0; j < SUMMARY_NRED; j++) {
		snprintf(cell[j], sizeof cell[j], "%s", summary_red_names[j]);
		if (!fit->shown[j])
			fprintf(f, "%s%s", left++ == 0 ? " (not shown: " : ", ",
			    summary_red_names[j]);
	}
	fprintf(f, "%s\n", left > 0 ? ")" : "");
	text_fit_name(f, fit, "metric");
	text_fit_cells(f, fit, cell, "unit");
}

/* Text: one series with its reductions. */
static void
text_series(FILE *f, const struct summary_fit *fit, const char *name,
    char cell[SUMMARY_NRED][32], const char *unit)
{
	if (fit->compact) {
		text_fit_name(f, fit, name);
		text_fit_cells(f, fit, cell, summary_fit_unit(fit, unit));
		return;
	}
	fprintf(f, "  %-*s %10s %10s %10s %10s %10s  %s\n", fit->name_width,
	    name, cell[0], cell[1], cell[2], cell[3], cell[4],
	    summary_table_unit(unit));
}

/* Text: one summary row, its value in the mean column. */
static void
text_row(FILE *f, const struct summary_fit *fit,
    const struct summary_row *row, const char *cell)
{
	char cells[SUMMARY_NRED][32] = { "", "", "", "", "" };
	int model = strncmp(row->metric, "power_model.", 12) == 0;

	if (fit->compact) {
		snprintf(cells[1], sizeof cells[1], "%s", cell);
		text_fit_name(f, fit, row->metric);
		text_fit_cells(f, fit, cells, model ? "(model)" :
		    summary_fit_unit(fit, row->unit));
		return;
	}
	fprintf(f, "  %-*s %10s %10s %10s %10s %10s  %s%s\n", fit->name_width,
	    row->metric, "", cell, "", "", "", row->unit, model ?
	    "  (model estimate)" : "");
}

/* Text: the heading of the region list. */
static void
text_regions(FILE *f, double t_s, const struct summary_fit *fit)
{
	if (!fit->compact) {
		fprintf(f, "\n  regions at the last sample (t=%.3fs)\n"
		    "  %-8s %-25s %12s %12s %9s  %s\n", t_s, "region",
		    "pfn range", "present MiB", "used MiB", "occupancy",
		    "state");
		return;
	}
	fprintf(f, "\n  regions at t=%.3fs (the last sample; MiB)\n"
	    "  %-*s", t_s, fit->region_width, "region");
	if (fit->show_range)
		fprintf(f, " %-*s", fit->range_width, "pfn range");
	fprintf(f, " %7s %7s %7s  %s\n", "present", "used", "occup.",
	    "state");
}

/* Text: one region. */
static void
text_region(FILE *f, const struct summary_fit *fit, const char *name,
    const char *range, double present, double used, double occupancy,
    const char *state)
{
	if (!fit->compact) {
		fprintf(f, "  %-8s %-25s %12.1f %12.1f %9.4f  %s\n", name,
		    range, present, used, occupancy, state);
		return;
	}
	fprintf(f, "  %-*s", fit->region_width, name);
	if (fit->show_range)
		fprintf(f, " %-*s", fit->range_width, range);
	fprintf(f, " %7.1f %7.1f %7.4f  %s\n", present, used, occupancy,
	    state);
}

/* Text: the data-quality line of a phase, wrapped on a terminal. */
static void
text_quality(FILE *f, const char *text, const struct summary_fit *fit)
{
	fprintf(f, "  data quality: ");
	if (fit->width > 0)
		opt_print_wrapped(f, text, 16, 4, fit->width);
	else
		fprintf(f, "%s\n", text);
}

static const struct summary_style summary_text_style = {
	.title = text_title,
	.phase = text_phase,
	.series = text_series,
	.row = text_row,
	.regions = text_regions,
	.region = text_region,
	.quality = text_quality,
	.power_note = "Power figures are a MODEL ESTIMATE from --power-model "
	    "(DRAM power per GiB on, in self-refresh and powered down), "
	    "not a measurement.",
};

/* Markdown: the title block. */
static void
md_title(FILE *f, const struct summary_run *sr, int width)
{
	const struct results *res = sr->res;

	(void)width;
	fprintf(f, "## regionbench analyze: `%s`\n\nlabel `%s`, kernel `%s`, "
	    "host `%s`, source `%s`, %d regions, %d samples, status %s\n",
	    res->dir, res->label, res->kernel_release, res->host,
	    res->source != NULL ? res->source : "unknown", res->nregions,
	    res->samples.n, res->status);
	fprintf(f, "\ncounts: %s\n", summary_counts(res));
	if (res->guest_kernel_report != NULL)
		fprintf(f, "\n**The guest kernel reported a bug:** `%s` (its "
		    "boot's `vm-dmesg.log` has the rest)\n",
		    res->guest_kernel_report);
}

/* Markdown: a phase's heading and table head. */
static void
md_phase(FILE *f, const char *phase, const struct summary_fit *fit)
{
	(void)fit;
	fprintf(f, "\n### Phase `%s`\n\n| metric | min | mean | max | final | "
	    "time-weighted mean | unit |\n|---|---:|---:|---:|---:|---:|---|\n",
	    phase);
}

/* Markdown: one series with its reductions. */
static void
md_series(FILE *f, const struct summary_fit *fit, const char *name,
    char cell[SUMMARY_NRED][32], const char *unit)
{
	(void)fit;
	fprintf(f, "| %s | %s | %s | %s | %s | %s | %s |\n", name, cell[0],
	    cell[1], cell[2], cell[3], cell[4], summary_table_unit(unit));
}

/* Markdown: one summary row, its value in the mean column. */
static void
md_row(FILE *f, const struct summary_fit *fit, const struct summary_row *row,
    const char *cell)
{
	(void)fit;
	fprintf(f, "| %s | | %s | | | | %s |\n", row->metric, cell, row->unit);
}

/* Markdown: the head of the region table. */
static void
md_regions(FILE *f, double t_s, const struct summary_fit *fit)
{
	(void)t_s;
	(void)fit;
	fprintf(f, "\n| region | pfn range | present MiB | used MiB | "
	    "occupancy | state |\n|---|---|---:|---:|---:|---|\n");
}

/* Markdown: one region. */
static void
md_region(FILE *f, const struct summary_fit *fit, const char *name,
    const char *range, double present, double used, double occupancy,
    const char *state)
{
	(void)fit;
	fprintf(f, "| %s | %s | %.1f | %.1f | %.4f | %s |\n", name, range,
	    present, used, occupancy, state);
}

/* Markdown: the data-quality line of a phase, after its table. */
static void
md_quality(FILE *f, const char *text, const struct summary_fit *fit)
{
	(void)fit;
	fprintf(f, "\n**data quality:** %s\n", text);
}

static const struct summary_style summary_markdown_style = {
	.title = md_title,
	.phase = md_phase,
	.series = md_series,
	.row = md_row,
	.regions = md_regions,
	.region = md_region,
	.quality = md_quality,
	.power_note = "> Power figures are a MODEL ESTIMATE from "
	    "--power-model (DRAM power per GiB on, in self-refresh and "
	    "powered down), not a measurement.",
};

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
