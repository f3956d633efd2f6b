/*
 * The summary of one run: metrics reduced per phase, saved as summary.csv
 * and summary.json in the results directory and printed as text or
 * markdown tables.  This file loads the run and writes the two files;
 * the tables walk the data once (summary_print_phase, summary-table.c),
 * what differs between text and markdown is a table of line printers
 * (summary-style.c), and the text table's fit to a terminal is
 * summary-fit.c.
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

