/*
 * regionbench report: one self-contained HTML file per set of runs.  It
 * holds the charts as SVG (data: URIs, so several charts' element ids
 * cannot clash and the page validates as HTML), the comparison table and
 * the per-run summaries computed by compare.h and metrics.h, the meta
 * information, and relative links to the CSV files.  No script, no
 * network: it opens from disk in any browser.  Every string from a results
 * directory is escaped before it goes into the page.  This file writes
 * the page and its per-run sections; the comparison table and the
 * headlines are report-compare.c.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "chart.h"
#include "chart-draw.h"
#include "compare.h"
#include "log.h"
#include "meta.h"
#include "output.h"
#include "quality.h"
#include "report.h"
#include "report-int.h"
#include "results.h"
#include "summary.h"

static const char *const report_csvs[] = {
	"meta.json", "regions.csv", "samples.csv", "buddy.csv",
	"pagetype.csv", "pageblocks.csv", "placement.csv", "workloads.csv",
	"references.csv", "events.csv", "summary.csv"
};

static const char report_style[] =
    "body{font-family:'DejaVu Sans',Verdana,sans-serif;margin:1.5em;"
    "color:#222;max-width:1100px}"
    "h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;"
    "padding-bottom:.2em;margin-top:2em}h3{font-size:1.05em}"
    "table{border-collapse:collapse;margin:.5em 0 1em}"
    "td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;"
    "font-size:.9em}td.n{text-align:right;font-family:monospace}"
    "th{background:#f0f0f0}img.chart{max-width:100%;height:auto;"
    "border:1px solid #ddd;margin:.3em 0}.sig{font-weight:bold}"
    ".better{color:#17732a}.worse{color:#b22222}"
    ".note{color:#555;font-size:.9em}"
    ".warn{background:#fde8c8}";

/*
 * Write s with &, <, >, " and ' escaped, and bytes that are not UTF-8
 * (names from CSV files are not checked on input) as '?'.
 */
void
html_text(FILE *f, const char *text)
{
	char *clean;

	if (text == NULL)
		return;
	clean = chart_utf8_clean(text);
	output_xml_escape(f, clean);
	free(clean);
}

/* Write a relative URL: path bytes outside [A-Za-z0-9/._~-] as %XX. */
static void
html_url(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = *s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("/._~-", c) != NULL)
			fputc(c, f);
		else
			fprintf(f, "%%%02X", c);
	}
}

/* Write len bytes as base64 (RFC 4648). */
static void
base64(FILE *f, const unsigned char *p, size_t len)
{
	static const char abc[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t v;
	size_t i;

	for (i = 0; i + 2 < len; i += 3) {
		v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		fputc(abc[v >> 18], f);
		fputc(abc[(v >> 12) & 63], f);
		fputc(abc[(v >> 6) & 63], f);
		fputc(abc[v & 63], f);
	}
	if (len - i == 1) {
		v = (uint32_t)p[i] << 16;
		fprintf(f, "%c%c==", abc[v >> 18], abc[(v >> 12) & 63]);
	} else if (len - i == 2) {
		v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
		fprintf(f, "%c%c%c=", abc[v >> 18], abc[(v >> 12) & 63],
		    abc[(v >> 6) & 63]);
	}
}

/* One chart as an <img> with its SVG inline as a data: URI. */
static void
html_chart(FILE *f, const struct chart_svg *c)
{
	fputs("<p><img class=\"chart\" alt=\"", f);
	html_text(f, c->title);
	fputs("\" src=\"data:image/svg+xml;base64,", f);
	base64(f, (const unsigned char *)c->data, c->len);
	fputs("\"></p>\n", f);
}

/* Split an absolute path into its components (in place). */
static int
split_path(char *path, char **parts, int max)
{
	char *save = NULL, *word;
	int n = 0;

	for (word = strtok_r(path, "/", &save); word != NULL && n < max;
	    word = strtok_r(NULL, "/", &save))
		parts[n++] = word;
	return (n);
}

/*
 * The path from directory from to path to, both resolved; NULL when
 * either does not resolve.
 */
static char *
relative_path(const char *from, const char *to)
{
	char a[PATH_MAX], b[PATH_MAX], *pa[PATH_MAX / 2], *pb[PATH_MAX / 2];
	char *out, *next;
	int na, nb, common = 0, i;

	if (realpath(from, a) == NULL || realpath(to, b) == NULL)
		return (NULL);
	na = split_path(a, pa, PATH_MAX / 2);
	nb = split_path(b, pb, PATH_MAX / 2);
	while (common < na && common < nb &&
	    strcmp(pa[common], pb[common]) == 0)
		common++;
	out = xstrdup("");
	for (i = common; i < na; i++) {
		next = xasprintf("%s../", out);
		free(out);
		out = next;
	}
	for (i = common; i < nb; i++) {
		next = xasprintf("%s%s%s", out, i > common ? "/" : "", pb[i]);
		free(out);
		out = next;
	}
	if (*out == '\0') {
		free(out);
		out = xstrdup(".");
	} else if (out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = '\0';
	return (out);
}

/* A row of the meta table, skipped when the value is empty. */
static void
meta_row(FILE *f, const char *key, const char *value)
{
	if (value == NULL || *value == '\0')
		return;
	fputs("<tr><th>", f);
	html_text(f, key);
	fputs("</th><td>", f);
	html_text(f, value);
	fputs("</td></tr>\n", f);
}

/* A JSON member as text ("" when absent or not a scalar). */
static char *
json_text(json_t *v)
{
	if (json_is_string(v))
		return (xstrdup(json_string_value(v)));
	if (json_is_integer(v))
		return (xasprintf("%lld", (long long)json_integer_value(v)));
	if (json_is_real(v))
		return (xasprintf("%g", json_real_value(v)));
	if (json_is_boolean(v))
		return (xstrdup(json_is_true(v) ? "true" : "false"));
	return (xstrdup(""));
}

/*
 * The meta table of a run, from its meta.json.  results.h keeps only what
 * analysis needs, so the descriptive fields are read here.
 */
static void
html_meta(FILE *f, const char *dir)
{
	static const char *const top[][2] = {
		{ "command", "command" }, { "label", "label" },
		{ "host", "host" }, { "start_time", "start (UTC)" },
		{ "end_time", "end (UTC)" }, { "status", "status" },
		{ "samples", "samples" }, { "interval_s", "interval (s)" },
		{ "page_size", "page size (bytes)" },
		{ "region_size_bytes", "emulated region size (bytes)" },
	};
	char *path, *text, *joined;
	FILE *list;
	size_t len;
	const char *key;
	json_t *root, *v, *k;
	size_t i;

	if ((root = meta_read(dir, NULL)) == NULL)
		return;
	fputs("<table>\n", f);
	v = json_object_get(json_object_get(root, "suite"), "name");
	text = json_text(v);
	meta_row(f, "suite", text);
	free(text);
	for (i = 0; i < sizeof top / sizeof top[0]; i++) {
		text = json_text(json_object_get(root, top[i][0]));
		meta_row(f, top[i][1], text);
		free(text);
	}
	k = json_object_get(root, "kernel");
	text = json_text(json_object_get(k, "release"));
	meta_row(f, "kernel", text);
	free(text);
	text = json_text(json_object_get(k, "version"));
	meta_row(f, "kernel version", text);
	free(text);
	text = json_text(json_object_get(k, "cmdline"));
	meta_row(f, "kernel command line", text);
	free(text);
	text = json_text(json_object_get(json_object_get(root, "source"),
	    "name"));
	meta_row(f, "region source", text);
	free(text);
	/* In one stream: a meta.json may list 100 000 phases. */
	v = json_object_get(root, "phases");
	joined = NULL;
	if ((list = open_memstream(&joined, &len)) == NULL)
		die_errno(RB_EXIT_ENV, "open_memstream");
	for (i = 0; json_is_array(v) && i < json_array_size(v); i++) {
		text = json_text(json_array_get(v, i));
		fprintf(list, "%s%s", i > 0 ? ", " : "", text);
		free(text);
	}
	if (fclose(list) != 0)
		die(RB_EXIT_ENV, "open_memstream: out of memory");
	meta_row(f, "phases", joined);
	free(joined);
	/* A table the source cannot fill: say why it is not linked. */
	json_object_foreach(json_object_get(root, "files_omitted"), key, v) {
		path = xasprintf("%s not written", key);
		meta_row(f, path, json_string_value(v));
		free(path);
	}
	fputs("</table>\n", f);
	json_decref(root);
}

/* Links to the files of a run that exist, relative to the report. */
static void
html_links(FILE *f, const char *dir, const char *outdir)
{
	char *rel = relative_path(outdir, dir), *path;
	struct stat st;
	size_t i;
	int any = 0;

	if (rel == NULL)
		return;
	for (i = 0; i < sizeof report_csvs / sizeof report_csvs[0]; i++) {
		path = xasprintf("%s/%s", dir, report_csvs[i]);
		if (stat(path, &st) == 0) {
			fputs(any ? " | " : "<p>Data: ", f);
			fputs("<a href=\"", f);
			if (strcmp(rel, ".") != 0) {
				html_url(f, rel);
				fputc('/', f);
			}
			html_url(f, report_csvs[i]);
			fputs("\">", f);
			html_text(f, report_csvs[i]);
			fputs("</a>", f);
			any = 1;
		}
		free(path);
	}
	if (any)
		fputs("</p>\n", f);
	free(rel);
}

/* Print a number for a table cell. */
void
html_number(FILE *f, double v)
{
	if (isnan(v))
		fputs("-", f);
	else if (v != 0 && (fabs(v) >= 1e7 || fabs(v) < 1e-3))
		fprintf(f, "%.4e", v);
	else
		fprintf(f, "%.6g", v);
}

/*
 * Every summary row of one run, per phase, in the units the terminal
 * shows (bytes in MiB), collapsed: the figures above lead.
 */
static void
html_summary(FILE *f, const struct compare_run *run)
{
	const struct summary_row *row;
	char cell[64];
	int i;

	fprintf(f, "<details><summary>Every summary metric (%d rows, as in "
	    "summary.csv)</summary>\n", run->sum.n);
	fputs("<table>\n<tr><th>phase</th><th>metric</th><th>value</th>"
	    "<th>unit</th></tr>\n", f);
	for (i = 0; i < run->sum.n; i++) {
		row = &run->sum.rows[i];
		fputs("<tr><td>", f);
		if (row->phase >= 0 && row->phase < run->nphases)
			html_text(f, run->phases[row->phase]);
		fputs("</td><td>", f);
		html_text(f, row->metric);
		fputs("</td><td class=\"n\">", f);
		summary_format_value(cell, sizeof cell, row->value, row->unit);
		html_text(f, cell);
		fputs("</td><td>", f);
		html_text(f, summary_table_unit(row->unit));
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n</details>\n", f);
}

static double html_row_value(const struct compare_run *, int, const char *);

/* The value of BASE.SUFFIX in phase p, NAN when there is none. */
double
html_row_value_of(const struct compare_run *run, int p, const char *base,
    const char *suffix)
{
	char *name = xasprintf("%s.%s", base, suffix);
	double v = html_row_value(run, p, name);

	free(name);
	return (v);
}

/* The value of a summary row of one phase, NAN when there is none. */
static double
html_row_value(const struct compare_run *run, int phase, const char *metric)
{
	int i;

	for (i = 0; i < run->sum.n; i++) {
		if (run->sum.rows[i].phase == phase &&
		    strcmp(run->sum.rows[i].metric, metric) == 0)
			return (run->sum.rows[i].value);
	}
	return (NAN);
}

/* The time-weighted mean of a series of METRIC_LIST in one phase. */
static double
html_twmean(const struct compare_run *run, int phase, enum metric_id id)
{
	char *name = xasprintf("%s.twmean", metric_defs[id].name);
	double v = html_row_value(run, phase, name);

	free(name);
	return (v);
}

/*
 * The data quality of each phase (quality.h): overruns, the largest gap
 * between samples and the kpageflags error, rows that are not clean
 * highlighted, so a reader knows which figures to distrust.
 */
static void
html_quality(FILE *f, const struct compare_run *run)
{
	struct quality q;
	int p;

	fputs("<table>\n<tr><th>phase</th><th>sampler overruns</th>"
	    "<th>largest gap (s)</th><th>kpageflags error (pages)</th>"
	    "<th>oldest exact count (s)</th><th></th></tr>\n", f);
	for (p = 0; p < run->nphases; p++) {
		q.overruns = html_row_value(run, p, QUALITY_OVERRUNS);
		q.max_gap_s = html_row_value(run, p, QUALITY_MAX_GAP);
		q.kpf_error = html_row_value(run, p, QUALITY_KPF_ERROR);
		q.max_count_age_s = html_row_value(run, p,
		    QUALITY_MAX_COUNT_AGE);
		if (isnan(q.overruns))
			continue;
		fprintf(f, "<tr%s><td>", quality_clean(&q, run->interval_s >
		    0 ? run->interval_s : NAN) ? "" : " class=\"warn\"");
		html_text(f, run->phases[p]);
		fputs("</td><td class=\"n\">", f);
		html_number(f, q.overruns);
		fputs("</td><td class=\"n\">", f);
		html_number(f, q.max_gap_s);
		fputs("</td><td class=\"n\">", f);
		html_number(f, q.kpf_error);
		fputs("</td><td class=\"n\">", f);
		html_number(f, q.max_count_age_s);
		fprintf(f, "</td><td>%s</td></tr>\n", quality_clean(&q,
		    run->interval_s > 0 ? run->interval_s : NAN) ? "clean" :
		    "figures less certain");
	}
	/* Figures from a guest whose kernel was not healthy (docs/ci.md). */
	if (run->guest_kernel_report != NULL) {
		fputs("<tr class=\"warn\"><td colspan=\"6\">the guest kernel "
		    "reported a bug: <code>", f);
		html_text(f, run->guest_kernel_report);
		fputs("</code> (its boot's vm-dmesg.log has the rest)"
		    "</td></tr>\n", f);
	}
	fputs("</table>\n<p class=\"note\">Overruns: samples the sampler "
	    "skipped because it fell behind; largest gap: the longest "
	    "interval between two samples of the phase; kpageflags error: "
	    "the most free pages a scan counted outside zoneinfo's figures "
	    "around it (- for other sources).</p>\n", f);
}

/* A share as a percentage for a table cell, - when unknown. */
static void
html_percent(FILE *f, double v)
{
	if (isnan(v))
		fputs("-", f);
	else
		fprintf(f, "%.1f %%", v * 100);
}

/* Does the run have power states (DAMON's references) in any phase? */
static int
html_has_power_states(const struct compare_run *run)
{
	int p;

	for (p = 0; p < run->nphases; p++) {
		if (!isnan(html_twmean(run, p, METRIC_STATE_ON_SHARE)))
			return (1);
	}
	return (0);
}

/*
 * The power states of a run with DAMON's references: per phase the
 * time-weighted shares of region-time off, in self-refresh and on, with
 * the regions referenced and the idle allocated ones; the chart when
 * there is one; and what DAMON cannot see, so nobody reads self-refresh
 * as proven idle.
 */
static void
html_power_states(FILE *f, const struct compare_run *run,
    const struct chart_svg *chart)
{
	static const enum metric_id shares[] = {
		METRIC_STATE_OFF_SHARE, METRIC_STATE_SELF_REFRESH_SHARE,
		METRIC_STATE_ON_SHARE
	};
	static const enum metric_id counts[] = {
		METRIC_REFERENCED_REGIONS, METRIC_IDLE_ALLOCATED_REGIONS
	};
	size_t i;
	int p;

	fputs("<h3>Power states (DAMON)</h3>\n<p class=\"note\">Which state "
	    "each region could be in: <b>off</b> when it is empty by "
	    "allocation, <b>self-refresh</b> when it holds allocated "
	    "memory that was not referenced, <b>on</b> when it was "
	    "referenced. References are measured by DAMON (the kernel's "
	    "data access monitor, physical-address mode, references.csv), "
	    "joined to each allocation sample; shares are of region-time, "
	    "time-weighted over the phase (docs/metrics.md, \"Power "
	    "states\").</p>\n<table>\n<tr><th>phase</th><th>off</th>"
	    "<th>self-refresh</th><th>on</th><th>referenced regions</th>"
	    "<th>idle allocated regions</th></tr>\n", f);
	for (p = 0; p < run->nphases; p++) {
		if (isnan(html_twmean(run, p, shares[0])))
			continue;
		fputs("<tr><td>", f);
		html_text(f, run->phases[p]);
		fputs("</td>", f);
		for (i = 0; i < sizeof shares / sizeof shares[0]; i++) {
			fputs("<td class=\"n\">", f);
			html_percent(f, html_twmean(run, p, shares[i]));
			fputs("</td>", f);
		}
		for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
			fputs("<td class=\"n\">", f);
			html_number(f, html_twmean(run, p, counts[i]));
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (chart != NULL)
		html_chart(f, chart);
	fputs("<p class=\"note\">What DAMON cannot see (docs/damon.md): "
	    "kernel-internal references (slab, page tables, DMA) set no "
	    "accessed bit, and DAMON samples one page per monitored range, "
	    "so sparse hot pages can read as idle. Self-refresh is "
	    "therefore an upper bound and on a lower bound; a region is "
	    "counted as referenced only above 1 % of its watched memory "
	    "and 4 MiB.</p>\n", f);
}

/* One run's section: meta, links, charts (when asked), summary. */
static int
html_run(FILE *f, const struct compare_run *run, const char *outdir,
    int charts, char **cause)
{
	const struct chart_svg *power = NULL;
	struct chart_svg *svg = NULL;
	int n = 0, i, rc;

	fputs("<h2>Run ", f);
	html_text(f, run->dir);
	fputs("</h2>\n", f);
	html_headline(f, run);
	if (charts) {
		if ((rc = chart_svg_all(run->dir, &svg, &n, cause)) != 0)
			return (rc);
		for (i = 0; i < n; i++) {
			/* The power states have a section of their own. */
			if (svg[i].apart) {
				power = &svg[i];
				continue;
			}
			fputs("<h3>", f);
			html_text(f, svg[i].title);
			fputs("</h3>\n", f);
			html_chart(f, &svg[i]);
		}
	}
	/* The chart alone when no sample had a DAMON reading to join. */
	if (power != NULL || html_has_power_states(run))
		html_power_states(f, run, power);
	chart_svg_free(svg, n);
	fputs("<h3>Data quality</h3>\n", f);
	html_quality(f, run);
	fputs("<h3>The run</h3>\n", f);
	html_meta(f, run->dir);
	html_links(f, run->dir, outdir);
	fputs("<h3>Summary</h3>\n", f);
	html_summary(f, run);
	return (0);
}

/* Is run the first of its group (it gets the charts)? */
static int
first_of_group(const struct compare_set *set, const struct compare_run *run)
{
	int g;

	for (g = 0; g < set->ngroups; g++)
		if (set->groups[g].nruns > 0 && set->groups[g].runs[0] == run)
			return (1);
	return (0);
}

/* The directory a file will be written in. */
static char *
out_dir(const char *out)
{
	const char *slash = strrchr(out, '/');

	if (slash == NULL)
		return (xstrdup("."));
	if (slash == out)
		return (xstrdup("/"));
	return (xstrndup(out, slash - out));
}

/* The defaults: compare's (one value a boot, Welch, alpha 0.05). */
void
report_options_default(struct report_options *ro, enum compare_group_by by)
{
	memset(ro, 0, sizeof *ro);
	ro->by = by;
	ro->unit = COMPARE_UNIT_BOOT;
	ro->test = COMPARE_WELCH;
	ro->alpha = 0.05;
}

/* report_write_with the defaults. */
int
report_write(char **paths, int npaths, enum compare_group_by by,
    const char *out, char **cause)
{
	struct report_options ro;

	report_options_default(&ro, by);
	return (report_write_with(paths, npaths, &ro, out, cause));
}

/* Write the report of paths (runs or groups of runs) to out. */
int
report_write_with(char **paths, int npaths, const struct report_options *ro,
    const char *out, char **cause)
{
	struct metrics_options mo;
	enum compare_group_by by = ro->by;
	struct output_file of;
	struct compare_set *set;
	struct chart_svg *cmp;
	char *outdir, *diff, stamp[64];
	time_t now = time(NULL);
	int rc, i, ncmp;
	FILE *f;

	metrics_options_default(&mo);
	mo.empty_tolerance = ro->empty_tolerance;
	if ((rc = compare_load(paths, npaths, by, &mo, NULL, &set,
	    cause)) != 0)
		return (rc);
	set->unit = ro->unit;
	if ((rc = output_open(&of, out, cause)) != 0) {
		compare_free(set);
		return (rc);
	}
	f = of.f;
	outdir = out_dir(out);
	strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>regionbench report: ", f);
	for (i = 0; i < set->ngroups; i++) {
		html_text(f, set->groups[i].name);
		fputs(i + 1 < set->ngroups ? " vs " : "", f);
	}
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n",
	    report_style);
	fputs("<h1>regionbench report: ", f);
	for (i = 0; i < set->ngroups; i++) {
		html_text(f, set->groups[i].name);
		fputs(i + 1 < set->ngroups ? " vs " : "", f);
	}
	fprintf(f, "</h1>\n<p class=\"note\">Written by regionbench %s on "
	    "%s from %d run%s in %d group%s. Charts and figures are "
	    "described in docs/charts.md and docs/metrics.md.</p>\n",
	    PACKAGE_VERSION, stamp, set->nruns, set->nruns == 1 ? "" : "s",
	    set->ngroups, set->ngroups == 1 ? "" : "s");
	if (set->ngroups > 1 || set->nruns > 1) {
		fputs("<h2>Comparison</h2>\n", f);
		if ((diff = compare_differences(set)) != NULL) {
			fputs("<p class=\"note\">The runs differ: ", f);
			html_text(f, diff);
			fputs("</p>\n", f);
			free(diff);
		}
		if ((rc = chart_svg_compare(paths, npaths, by, &cmp, &ncmp,
		    cause)) != 0)
			goto fail;
		for (i = 0; i < ncmp; i++)
			html_chart(f, &cmp[i]);
		chart_svg_free(cmp, ncmp);
		html_compare_table(f, set, ro);
	}
	for (i = 0; i < set->nruns; i++)
		if ((rc = html_run(f, set->runs[i], outdir,
		    first_of_group(set, set->runs[i]), cause)) != 0)
			goto fail;
	if (set->nruns > set->ngroups)
		fputs("<p class=\"note\">Charts are shown for the first run "
		    "of each group.</p>\n", f);
	fputs("</body>\n</html>\n", f);
	rc = output_commit(&of, cause);
	free(outdir);
	compare_free(set);
	return (rc);
fail:
	output_abort(&of);
	free(outdir);
	compare_free(set);
	return (rc);
}

/* Where the report goes by default: into a single run, else here. */
char *
report_default_path(char **paths, int npaths)
{
	if (npaths == 1 && results_is_run_dir(paths[0]))
		return (xasprintf("%s/report.html", paths[0]));
	return (xstrdup("report.html"));
}
