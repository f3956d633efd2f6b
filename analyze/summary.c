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
#include "output.h"
#include "quality.h"
#include "summary.h"

#define SUMMARY_NRED	5	/* min, mean, max, final, twmean */

/* How one table format prints each kind of line. */
struct summary_style {
	void	(*title)(FILE *f, const struct summary_run *sr);
	void	(*phase)(FILE *f, const char *phase, int width);
	void	(*series)(FILE *f, int width, const char *name,
		    char cell[SUMMARY_NRED][32], const char *unit);
	void	(*row)(FILE *f, int width, const struct summary_row *row,
		    const char *cell);
	void	(*regions)(FILE *f, double t_s);
	void	(*region)(FILE *f, const char *name, const char *range,
		    double present_mib, double used_mib, double occupancy,
		    const char *state);
	void	(*quality)(FILE *f, const char *text);
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

/* The headline series of phase p with their five reductions. */
static void
summary_print_series(FILE *f, const struct summary_run *sr, int p, int brief,
    int width, const struct summary_style *st)
{
	char cell[SUMMARY_NRED][32];
	struct metric_reduction red;
	const struct metric_series *s;
	double vals[SUMMARY_NRED];
	int i, j;

	for (i = 0; i < sr->m->nseries; i++) {
		s = &sr->m->series[i];
		if (!s->headline || metrics_reduce(sr->m, s, p, &red) == 0)
			continue;
		/* Brief: a workload that does not run in this phase has no
		 * placement worth a line. */
		if (brief && metric_lookup(s->name) ==
		    &metric_defs[METRIC_PLACEMENT_REGIONS] && red.max == 0)
			continue;
		vals[0] = red.min;
		vals[1] = red.mean;
		vals[2] = red.max;
		vals[3] = red.final;
		vals[4] = red.twmean;
		for (j = 0; j < SUMMARY_NRED; j++)
			summary_format_value(cell[j], sizeof cell[j], vals[j],
			    s->unit);
		st->series(f, width, s->name, cell, s->unit);
	}
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

/* Every region at the phase's last sample: sizes, occupancy, state. */
static void
summary_print_regions(FILE *f, const struct summary_run *sr, int p,
    const struct summary_style *st)
{
	const struct results *res = sr->res;
	double mib = res->page_size / (1024.0 * 1024);
	char range[48], state[48];
	size_t at;
	int i, last;

	for (last = -1, i = 0; i < res->samples.n; i++)
		if (res->samples.phase[i] == p)
			last = i;
	if (last < 0)
		return;
	st->regions(f, res->samples.t[last]);
	for (i = 0; i < res->nregions; i++) {
		at = (size_t)last * res->nregions + i;
		if (res->regions[i].start_pfn == RESULTS_UNKNOWN)
			snprintf(range, sizeof range, "unknown");
		else
			snprintf(range, sizeof range, "%#llx-%#llx",
			    (unsigned long long)res->regions[i].start_pfn,
			    (unsigned long long)res->regions[i].end_pfn);
		st->region(f, res->regions[i].name, range,
		    res->present[at] * mib, res->used[at] * mib,
		    sr->m->occupancy[at],
		    summary_region_state(sr, at, state, sizeof state));
	}
}

/* The phase's data quality in one line, only when it is not clean. */
static void
summary_print_quality(FILE *f, const struct summary_run *sr, int p,
    const struct summary_style *st)
{
	struct quality q;
	char text[224];

	quality_phase(sr->res, p, &q);
	/* Stale counts are exact, but how stale is always said. */
	if (quality_clean(&q, sr->res->interval_s) && !(q.max_count_age_s > 0))
		return;
	quality_text(text, sizeof text, &q);
	st->quality(f, text);
}

/* One phase: the series, the other rows shown, then the regions. */
static void
summary_print_phase(FILE *f, const struct summary_run *sr, int p, int brief,
    const struct summary_style *st)
{
	const struct summary_row *row;
	int i, width = summary_name_width(sr, p, brief);
	char cell[32];

	st->phase(f, sr->res->phases[p], width);
	summary_print_series(f, sr, p, brief, width, st);
	for (i = 0; i < sr->sum.n; i++) {
		row = &sr->sum.rows[i];
		if (!summary_row_shown(row, p, brief))
			continue;
		summary_format_value(cell, sizeof cell, row->value, row->unit);
		st->row(f, width, row, cell);
	}
	summary_print_quality(f, sr, p, st);
	if (!brief)
		summary_print_regions(f, sr, p, st);
}

/* The whole table in one style. */
static void
summary_print(FILE *f, const struct summary_run *sr, int brief,
    const struct summary_style *st)
{
	int p;

	st->title(f, sr);
	for (p = 0; p < sr->res->nphases; p++)
		summary_print_phase(f, sr, p, brief, st);
	if (sr->power)
		fprintf(f, "\n%s\n", st->power_note);
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

/* Text: the title block. */
static void
text_title(FILE *f, const struct summary_run *sr)
{
	const struct results *res = sr->res;

	fprintf(f, "regionbench analyze %s\n  label %s, kernel %s, host %s, "
	    "source %s\n  %d regions, %d samples, page size %llu, empty "
	    "tolerance %llu pages, status %s\n", res->dir,
	    res->label[0] != '\0' ? res->label : "(none)",
	    res->kernel_release, res->host, res->source != NULL ?
	    res->source : "unknown", res->nregions, res->samples.n,
	    (unsigned long long)res->page_size,
	    (unsigned long long)sr->m->opt.empty_tolerance, res->status);
	fprintf(f, "  counts: %s\n", summary_counts(res));
	if (res->guest_kernel_report != NULL)
		fprintf(f, "  the guest kernel reported a bug: %s (its boot's "
		    "vm-dmesg.log has the rest)\n", res->guest_kernel_report);
}

/* Text: a phase's heading and column names. */
static void
text_phase(FILE *f, const char *phase, int width)
{
	fprintf(f, "\nphase %s\n  %-*s %10s %10s %10s %10s %10s  %s\n", phase,
	    width, "metric", "min", "mean", "max", "final", "twmean", "unit");
}

/* Text: one series with its reductions. */
static void
text_series(FILE *f, int width, const char *name,
    char cell[SUMMARY_NRED][32], const char *unit)
{
	fprintf(f, "  %-*s %10s %10s %10s %10s %10s  %s\n", width, name,
	    cell[0], cell[1], cell[2], cell[3], cell[4],
	    summary_table_unit(unit));
}

/* Text: one summary row, its value in the mean column. */
static void
text_row(FILE *f, int width, const struct summary_row *row, const char *cell)
{
	fprintf(f, "  %-*s %10s %10s %10s %10s %10s  %s%s\n", width,
	    row->metric, "", cell, "", "", "", row->unit,
	    strncmp(row->metric, "power_model.", 12) == 0 ?
	    "  (model estimate)" : "");
}

/* Text: the heading of the region list. */
static void
text_regions(FILE *f, double t_s)
{
	fprintf(f, "\n  regions at the last sample (t=%.3fs)\n"
	    "  %-8s %-25s %12s %12s %9s  %s\n", t_s, "region", "pfn range",
	    "present MiB", "used MiB", "occupancy", "state");
}

/* Text: one region. */
static void
text_region(FILE *f, const char *name, const char *range, double present,
    double used, double occupancy, const char *state)
{
	fprintf(f, "  %-8s %-25s %12.1f %12.1f %9.4f  %s\n", name, range,
	    present, used, occupancy, state);
}

/* Text: the data-quality line of a phase. */
static void
text_quality(FILE *f, const char *text)
{
	fprintf(f, "  data quality: %s\n", text);
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
md_title(FILE *f, const struct summary_run *sr)
{
	const struct results *res = sr->res;

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
md_phase(FILE *f, const char *phase, int width)
{
	(void)width;
	fprintf(f, "\n### Phase `%s`\n\n| metric | min | mean | max | final | "
	    "time-weighted mean | unit |\n|---|---:|---:|---:|---:|---:|---|\n",
	    phase);
}

/* Markdown: one series with its reductions. */
static void
md_series(FILE *f, int width, const char *name, char cell[SUMMARY_NRED][32],
    const char *unit)
{
	(void)width;
	fprintf(f, "| %s | %s | %s | %s | %s | %s | %s |\n", name, cell[0],
	    cell[1], cell[2], cell[3], cell[4], summary_table_unit(unit));
}

/* Markdown: one summary row, its value in the mean column. */
static void
md_row(FILE *f, int width, const struct summary_row *row, const char *cell)
{
	(void)width;
	fprintf(f, "| %s | | %s | | | | %s |\n", row->metric, cell, row->unit);
}

/* Markdown: the head of the region table. */
static void
md_regions(FILE *f, double t_s)
{
	(void)t_s;
	fprintf(f, "\n| region | pfn range | present MiB | used MiB | "
	    "occupancy | state |\n|---|---|---:|---:|---:|---|\n");
}

/* Markdown: one region. */
static void
md_region(FILE *f, const char *name, const char *range, double present,
    double used, double occupancy, const char *state)
{
	fprintf(f, "| %s | %s | %.1f | %.1f | %.4f | %s |\n", name, range,
	    present, used, occupancy, state);
}

/* Markdown: the data-quality line of a phase, after its table. */
static void
md_quality(FILE *f, const char *text)
{
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
	summary_print(f, sr, brief, &summary_text_style);
}

/* The summary as markdown tables. */
void
summary_print_markdown(FILE *f, const struct summary_run *sr, int brief)
{
	summary_print(f, sr, brief, &summary_markdown_style);
}
