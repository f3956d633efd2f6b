/*
 * regionbench analyze DIR: the metrics of one run, reduced per phase, saved
 * as summary.csv and summary.json in DIR and printed as a table; or the
 * seed table (free pages per region at each checkpoint) in the layout of
 * the 2011 cover letter; optionally a clearly labelled power model.
 */
#include "config.h"

#include <ini.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "log.h"
#include "metrics.h"
#include "output.h"
#include "results.h"

enum { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_MARKDOWN };
enum { TABLE_SUMMARY, TABLE_SEED };

struct analyze_settings {
	int		 format;
	int		 table;
	uint64_t	 empty_tolerance;
	char		*power_model;
	int		 brief;
};

static const char *const format_choices[] = {
	"text", "csv", "json", "markdown", NULL
};
static const char *const table_choices[] = { "summary", "seed", NULL };

static const struct opt_def analyze_options[] = {
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct analyze_settings, format), .arg = "FORMAT",
	  .def = "text", .choices = format_choices, .help = "output format" },
	{ .name = "table", .type = OPT_ENUM,
	  .offset = offsetof(struct analyze_settings, table), .arg = "TABLE",
	  .def = "summary", .choices = table_choices,
	  .help = "metrics per phase, or free pages per region at each "
	  "checkpoint" },
	{ .name = "empty-tolerance", .type = OPT_U64,
	  .offset = offsetof(struct analyze_settings, empty_tolerance),
	  .arg = "PAGES", .def = "0",
	  .help = "a region with at most PAGES used pages is empty" },
	{ .name = "power-model", .type = OPT_STRING,
	  .offset = offsetof(struct analyze_settings, power_model),
	  .arg = "FILE",
	  .help = "INI file with DRAM refresh power per GiB: estimate what "
	  "empty regions could save (a model, not a measurement)" },
	{ .name = "brief", .type = OPT_FLAG,
	  .offset = offsetof(struct analyze_settings, brief),
	  .help = "text: only the headline metrics and each workload's "
	  "rates (what run prints)" },
	{ .name = NULL }
};

/* The power model of --power-model. */
struct power_model {
	double	 self_refresh_mw_per_gib;
	double	 powered_down_mw_per_gib;
	int	 have_self_refresh;
	int	 have_powered_down;
	char	*bad;
};

/* inih handler for the power model. */
static int
power_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct power_model *pm = user;
	double *target;
	char *end;

	if (strcmp(section, "power") != 0)
		goto bad;
	if (strcmp(name, "self_refresh_mw_per_gib") == 0) {
		target = &pm->self_refresh_mw_per_gib;
		pm->have_self_refresh = 1;
	} else if (strcmp(name, "powered_down_mw_per_gib") == 0) {
		target = &pm->powered_down_mw_per_gib;
		pm->have_powered_down = 1;
	} else
		goto bad;
	*target = strtod(value, &end);
	if (end == value || *end != '\0' || !isfinite(*target) ||
	    *target < 0)
		goto bad;
	return (1);
bad:
	if (pm->bad == NULL)
		pm->bad = xasprintf("expected [power] with "
		    "self_refresh_mw_per_gib and powered_down_mw_per_gib "
		    "(non-negative numbers), got %s = %s", name, value);
	return (0);
}

/* Load the power model or die with exit 2. */
static void
power_load(const char *path, struct power_model *pm)
{
	int rc;

	memset(pm, 0, sizeof *pm);
	rc = ini_parse(path, power_handler, pm);
	if (rc == -1)
		die_errno(RB_EXIT_INPUT, "%s", path);
	if (rc != 0)
		die(RB_EXIT_INPUT, "%s:%d: %s", path, rc, pm->bad != NULL ?
		    pm->bad : "expected key = value");
	if (!pm->have_self_refresh || !pm->have_powered_down)
		die(RB_EXIT_INPUT, "%s: [power] needs both "
		    "self_refresh_mw_per_gib and powered_down_mw_per_gib",
		    path);
	if (pm->powered_down_mw_per_gib > pm->self_refresh_mw_per_gib)
		die(RB_EXIT_INPUT, "%s: powered_down_mw_per_gib is larger "
		    "than self_refresh_mw_per_gib", path);
}

/* Append power-model rows per phase to the summary. */
static void
power_summarize(const struct results *res, const struct metrics *m,
    const struct power_model *pm, struct summary *sum)
{
	const struct metric_series *empty = metrics_find(m, "empty_bytes");
	struct metric_reduction red;
	struct summary_row *row;
	double total, gib, share;
	int p, s, r, n;

	for (p = 0; p < res->nphases; p++) {
		if (metrics_reduce(m, empty, p, &red) == 0)
			continue;
		total = 0;
		n = 0;
		for (s = 0; s < res->samples.n; s++) {
			if (res->samples.phase[s] != p)
				continue;
			for (r = 0; r < res->nregions; r++)
				total += res->present[(size_t)s *
				    res->nregions + r];
			n++;
		}
		total = total / n * res->page_size;
		share = total > 0 ? red.twmean / total : 0;
		gib = red.twmean / (1024.0 * 1024 * 1024);
		sum->rows = xreallocarray(sum->rows, sum->n + 2,
		    sizeof *sum->rows);
		row = &sum->rows[sum->n++];
		row->phase = p;
		row->metric = xstrdup("power_model.powered_down_share");
		row->value = share;
		row->unit = xstrdup("ratio");
		row->headline = 1;
		row = &sum->rows[sum->n++];
		row->phase = p;
		row->metric = xstrdup("power_model.saving_mw");
		row->value = gib * (pm->self_refresh_mw_per_gib -
		    pm->powered_down_mw_per_gib);
		row->unit = xstrdup("mW");
		row->headline = 1;
	}
}

/* Write summary.csv. */
static void
write_summary_csv(FILE *f, const struct results *res,
    const struct summary *sum)
{
	int i;

	fprintf(f, "phase,metric,value,unit\n");
	for (i = 0; i < sum->n; i++) {
		output_csv_field(f, res->phases[sum->rows[i].phase]);
		fputc(',', f);
		output_csv_field(f, sum->rows[i].metric);
		fputc(',', f);
		output_csv_number(f, sum->rows[i].value);
		fputc(',', f);
		output_csv_field(f, sum->rows[i].unit);
		fputc('\n', f);
	}
}

/* A JSON number, or null for NAN/inf. */
static json_t *
json_num(double v)
{
	return (isfinite(v) ? json_real(v) : json_null());
}

/* Build summary.json. */
static json_t *
summary_json(const struct results *res, const struct metrics *m,
    const struct summary *sum)
{
	json_t *root, *phases, *phase, *metric;
	int i;

	root = json_object();
	json_object_set_new(root, "schema_version", json_integer(1));
	json_object_set_new(root, "dir", json_string(res->dir));
	json_object_set_new(root, "label", json_string(res->label));
	json_object_set_new(root, "host", json_string(res->host));
	json_object_set_new(root, "kernel", json_string(res->kernel_release));
	json_object_set_new(root, "status", json_string(res->status));
	json_object_set_new(root, "regions", json_integer(res->nregions));
	json_object_set_new(root, "page_size", json_integer(res->page_size));
	json_object_set_new(root, "empty_tolerance_pages",
	    json_integer(m->opt.empty_tolerance));
	phases = json_object();
	for (i = 0; i < sum->n; i++) {
		const char *name = res->phases[sum->rows[i].phase];

		if ((phase = json_object_get(phases, name)) == NULL) {
			phase = json_object();
			json_object_set_new(phases, name, phase);
		}
		metric = json_object();
		json_object_set_new(metric, "value",
		    json_num(sum->rows[i].value));
		json_object_set_new(metric, "unit",
		    json_string(sum->rows[i].unit));
		json_object_set_new(phase, sum->rows[i].metric, metric);
	}
	json_object_set_new(root, "phases", phases);
	return (root);
}

/* Write summary.csv and summary.json into the results directory. */
static int
save_summary(const struct results *res, json_t *json,
    const struct summary *sum, char **cause)
{
	struct output_file of;
	char *path;
	int rc;

	path = xasprintf("%s/summary.csv", res->dir);
	rc = output_open(&of, path, cause);
	free(path);
	if (rc != 0)
		return (rc);
	write_summary_csv(of.f, res, sum);
	if ((rc = output_commit(&of, cause)) != 0)
		return (rc);
	path = xasprintf("%s/summary.json", res->dir);
	rc = output_open(&of, path, cause);
	free(path);
	if (rc != 0)
		return (rc);
	if (json_dumpf(json, of.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10)) != 0) {
		output_abort(&of);
		return (fail_with(cause, RB_EXIT_ENV, "%s/summary.json: write "
		    "failed", res->dir));
	}
	fputc('\n', of.f);
	return (output_commit(&of, cause));
}

/* Human-friendly number for tables. */
static void
fmt_value(char *buf, size_t len, double v, const char *unit)
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

/*
 * Is a summary row one print_phase shows after the series (which it
 * prints with all their reductions)?
 */
static int
phase_row_shown(const struct summary_row *row, int p, int brief)
{
	return (row->phase == p && !metrics_is_reduction(row->metric) &&
	    metrics_shown(row->metric, row->headline, brief ? METRICS_BRIEF :
	    METRICS_HEADLINE));
}

/* Print the headline series of one phase as a table. */
static void
print_phase(const struct results *res, const struct metrics *m,
    const struct summary *sum, int p, int markdown, int brief)
{
	static const char *const red_names[] = {
		"min", "mean", "max", "final", "twmean"
	};
	struct metric_reduction red;
	const struct metric_series *s;
	char cell[5][32];
	double vals[5];
	int i, j, last, width = 28;

	/* Widen the name column for the longest name shown. */
	for (i = 0; i < m->nseries; i++) {
		if (m->series[i].headline &&
		    (int)strlen(m->series[i].name) > width)
			width = (int)strlen(m->series[i].name);
	}
	for (i = 0; i < sum->n; i++) {
		if (phase_row_shown(&sum->rows[i], p, brief) &&
		    (int)strlen(sum->rows[i].metric) > width)
			width = (int)strlen(sum->rows[i].metric);
	}
	if (markdown)
		printf("\n### Phase `%s`\n\n| metric | min | mean | max | "
		    "final | time-weighted mean | unit |\n"
		    "|---|---:|---:|---:|---:|---:|---|\n", res->phases[p]);
	else
		printf("\nphase %s\n  %-*s %10s %10s %10s %10s %10s  %s\n",
		    res->phases[p], width, "metric", red_names[0], red_names[1],
		    red_names[2], red_names[3], red_names[4], "unit");
	for (i = 0; i < m->nseries; i++) {
		s = &m->series[i];
		if (!s->headline || metrics_reduce(m, s, p, &red) == 0)
			continue;
		/* Brief: a workload that does not run in this phase has no
		 * placement worth a line. */
		if (brief && strncmp(s->name, "placement.", 10) == 0 &&
		    red.max == 0)
			continue;
		vals[0] = red.min;
		vals[1] = red.mean;
		vals[2] = red.max;
		vals[3] = red.final;
		vals[4] = red.twmean;
		for (j = 0; j < 5; j++)
			fmt_value(cell[j], sizeof cell[j], vals[j], s->unit);
		if (markdown)
			printf("| %s | %s | %s | %s | %s | %s | %s |\n",
			    s->name, cell[0], cell[1], cell[2], cell[3],
			    cell[4], strcmp(s->unit, "bytes") == 0 ? "MiB" :
			    s->unit);
		else
			printf("  %-*s %10s %10s %10s %10s %10s  %s\n",
			    width, s->name, cell[0], cell[1], cell[2], cell[3],
			    cell[4], strcmp(s->unit, "bytes") == 0 ? "MiB" :
			    s->unit);
	}
	for (i = 0; i < sum->n; i++) {
		if (!phase_row_shown(&sum->rows[i], p, brief))
			continue;
		fmt_value(cell[0], sizeof cell[0], sum->rows[i].value,
		    sum->rows[i].unit);
		if (markdown)
			printf("| %s | | %s | | | | %s |\n",
			    sum->rows[i].metric, cell[0], sum->rows[i].unit);
		else
			printf("  %-*s %10s %10s %10s %10s %10s  %s%s\n",
			    width, sum->rows[i].metric, "", cell[0], "", "", "",
			    sum->rows[i].unit, strncmp(sum->rows[i].metric,
			    "power_model.", 12) == 0 ? "  (model estimate)" :
			    "");
	}
	/* Regions at the phase's last sample. */
	if (brief)
		return;
	for (last = -1, i = 0; i < res->samples.n; i++)
		if (res->samples.phase[i] == p)
			last = i;
	if (last < 0)
		return;
	if (markdown)
		printf("\n| region | pfn range | present MiB | used MiB | "
		    "occupancy | state |\n|---|---|---:|---:|---:|---|\n");
	else
		printf("\n  regions at the last sample (t=%.3fs)\n"
		    "  %-8s %-25s %12s %12s %9s  %s\n", res->samples.t[last],
		    "region", "pfn range", "present MiB", "used MiB",
		    "occupancy", "state");
	for (i = 0; i < res->nregions; i++) {
		size_t at = (size_t)last * res->nregions + i;
		double mib = res->page_size / (1024.0 * 1024);
		char range[48];

		snprintf(range, sizeof range, "%#llx-%#llx",
		    (unsigned long long)res->regions[i].start_pfn,
		    (unsigned long long)res->regions[i].end_pfn);
		printf(markdown ? "| %s | %s | %.1f | %.1f | %.4f | %s |\n" :
		    "  %-8s %-25s %12.1f %12.1f %9.4f  %s\n",
		    res->regions[i].name, range, res->present[at] * mib,
		    res->used[at] * mib, m->occupancy[at],
		    m->empty[at] ? "empty" : res->present[at] == 0 &&
		    res->used[at] == 0 ? "hole" : "active");
	}
}

/* Print the summary in text or markdown. */
static void
print_summary(const struct results *res, const struct metrics *m,
    const struct summary *sum, int markdown, int power, int brief)
{
	int p;

	if (markdown)
		printf("## regionbench analyze: `%s`\n\nlabel `%s`, kernel "
		    "`%s`, host `%s`, source `%s`, %d regions, %d samples, "
		    "status %s\n", res->dir, res->label, res->kernel_release,
		    res->host, res->source != NULL ? res->source : "unknown",
		    res->nregions, res->samples.n, res->status);
	else
		printf("regionbench analyze %s\n  label %s, kernel %s, host "
		    "%s, source %s\n  %d regions, %d samples, page size %llu, "
		    "empty tolerance %llu pages, status %s\n", res->dir,
		    res->label[0] != '\0' ? res->label : "(none)",
		    res->kernel_release, res->host, res->source != NULL ?
		    res->source : "unknown", res->nregions, res->samples.n,
		    (unsigned long long)res->page_size,
		    (unsigned long long)m->opt.empty_tolerance, res->status);
	for (p = 0; p < res->nphases; p++)
		print_phase(res, m, sum, p, markdown, brief);
	if (power)
		printf("\n%sPower figures are a MODEL ESTIMATE from "
		    "--power-model (refresh power per GiB of empty regions), "
		    "not a measurement.\n", markdown ? "> " : "");
}

/* A seed-table column: one sample, with its heading. */
struct seed_col {
	int	 sample;
	char	 head[48];
};

/* Columns: checkpoints, or every sample when the run has none. */
static int
seed_columns(const struct results *res, struct seed_col **out)
{
	struct seed_col *cols = NULL;
	int i, n = 0, s;

	for (i = 0; i < res->nevents; i++) {
		if (strcmp(res->events[i].event, "checkpoint") != 0)
			continue;
		if ((s = metrics_sample_at(res, res->events[i].phase,
		    res->events[i].t)) < 0)
			continue;
		cols = xreallocarray(cols, n + 1, sizeof *cols);
		cols[n].sample = s;
		snprintf(cols[n].head, sizeof cols[n].head, "%s",
		    res->events[i].detail[0] != '\0' ?
		    res->events[i].detail : "checkpoint");
		n++;
	}
	if (n == 0) {
		cols = xcalloc(res->samples.n, sizeof *cols);
		for (s = 0; s < res->samples.n; s++) {
			cols[s].sample = s;
			snprintf(cols[s].head, sizeof cols[s].head, "%.3fs",
			    res->samples.t[s]);
		}
		n = res->samples.n;
	}
	*out = cols;
	return (n);
}

/* Free pages of region i at seed column c. */
static unsigned long long
seed_free(const struct results *res, const struct seed_col *cols, int c,
    int i)
{
	return (res->free[(size_t)cols[c].sample * res->nregions + i]);
}

/* Row heading of region i: "Region 3", or "Node 1 Region 3". */
static void
seed_row_name(const struct results *res, int i, char *buf, size_t len)
{
	if (res->regions[0].node == res->regions[res->nregions - 1].node)
		snprintf(buf, len, "Region %d", res->regions[i].region);
	else
		snprintf(buf, len, "Node %d Region %d", res->regions[i].node,
		    res->regions[i].region);
}

/* Print a horizontal rule of the seed table. */
static void
seed_rule(int namew, const int *w, int n)
{
	int i, len = 1 + namew + 3;

	for (i = 0; i < n; i++)
		len += w[i] + 3;
	putchar('\t');
	for (i = 0; i < len; i++)
		putchar('-');
	putchar('\n');
}

/* The seed table: free pages per region at each checkpoint. */
static void
print_seed(const struct results *res, int format)
{
	struct seed_col *cols;
	char name[48], num[32];
	json_t *root, *jcols, *jrows, *jrow, *jfree;
	int n, i, c, namew = 6, *w;

	n = seed_columns(res, &cols);
	w = xcalloc(n + 1, sizeof *w);
	for (c = 0; c < n; c++)
		w[c] = strlen(cols[c].head);
	for (i = 0; i < res->nregions; i++) {
		seed_row_name(res, i, name, sizeof name);
		if ((int)strlen(name) > namew)
			namew = strlen(name);
		for (c = 0; c < n; c++) {
			snprintf(num, sizeof num, "%llu",
			    seed_free(res, cols, c, i));
			if ((int)strlen(num) > w[c])
				w[c] = strlen(num);
		}
	}
	switch (format) {
	case FMT_CSV:
		printf("node,region");
		for (c = 0; c < n; c++) {
			putchar(',');
			output_csv_field(stdout, cols[c].head);
		}
		putchar('\n');
		for (i = 0; i < res->nregions; i++) {
			printf("%d,%d", res->regions[i].node,
			    res->regions[i].region);
			for (c = 0; c < n; c++)
				printf(",%llu", seed_free(res, cols, c, i));
			putchar('\n');
		}
		break;
	case FMT_JSON:
		root = json_object();
		jcols = json_array();
		for (c = 0; c < n; c++) {
			json_t *jc = json_object();

			json_object_set_new(jc, "label",
			    json_string(cols[c].head));
			json_object_set_new(jc, "t_s",
			    json_real(res->samples.t[cols[c].sample]));
			json_object_set_new(jc, "phase", json_string(
			    res->phases[res->samples.phase[cols[c].sample]]));
			json_array_append_new(jcols, jc);
		}
		jrows = json_array();
		for (i = 0; i < res->nregions; i++) {
			jrow = json_object();
			json_object_set_new(jrow, "node",
			    json_integer(res->regions[i].node));
			json_object_set_new(jrow, "region",
			    json_integer(res->regions[i].region));
			jfree = json_array();
			for (c = 0; c < n; c++)
				json_array_append_new(jfree,
				    json_integer(seed_free(res, cols, c, i)));
			json_object_set_new(jrow, "free_pages", jfree);
			json_array_append_new(jrows, jrow);
		}
		json_object_set_new(root, "columns", jcols);
		json_object_set_new(root, "regions", jrows);
		json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(root);
		break;
	case FMT_MARKDOWN:
		printf("| |");
		for (c = 0; c < n; c++)
			printf(" %s |", cols[c].head);
		printf("\n|---|");
		for (c = 0; c < n; c++)
			printf("---:|");
		putchar('\n');
		for (i = 0; i < res->nregions; i++) {
			seed_row_name(res, i, name, sizeof name);
			printf("| %s |", name);
			for (c = 0; c < n; c++)
				printf(" %llu |", seed_free(res, cols, c, i));
			putchar('\n');
		}
		break;
	default:
		printf("free page statistics per region (pages):\n\n");
		seed_rule(namew, w, n);
		printf("\t| %-*s |", namew, "");
		for (c = 0; c < n; c++)
			printf(" %-*s |", w[c], cols[c].head);
		putchar('\n');
		seed_rule(namew, w, n);
		for (i = 0; i < res->nregions; i++) {
			seed_row_name(res, i, name, sizeof name);
			printf("\t| %-*s |", namew, name);
			for (c = 0; c < n; c++)
				printf(" %-*llu |", w[c],
				    seed_free(res, cols, c, i));
			putchar('\n');
		}
		seed_rule(namew, w, n);
		break;
	}
	free(w);
	free(cols);
}

/* "regionbench analyze DIR ...". */
static int
cmd_analyze_exec(int argc, char **argv)
{
	struct analyze_settings st;
	struct metrics_options mo;
	struct power_model pm;
	struct results *res;
	struct metrics *m;
	struct summary sum;
	json_t *json;
	char *cause = NULL;
	int first, rc;

	memset(&st, 0, sizeof st);
	memset(&pm, 0, sizeof pm);
	command_parse(&cmd_analyze_entry, &st, argc, argv, &first);
	if (argc - first != 1) {
		log_errorx("analyze: expected one results directory");
		command_usage(stderr, &cmd_analyze_entry);
		exit(RB_EXIT_INPUT);
	}
	if (st.power_model != NULL)
		power_load(st.power_model, &pm);
	metrics_options_default(&mo);
	mo.empty_tolerance = st.empty_tolerance;
	if ((rc = results_load(argv[first], &res, &cause)) != 0)
		die(-rc, "%s", cause);
	if ((rc = metrics_compute(res, &mo, &m, &cause)) != 0)
		die(-rc, "%s", cause);
	metrics_summarize(m, &sum);
	if (st.power_model != NULL)
		power_summarize(res, m, &pm, &sum);
	json = summary_json(res, m, &sum);
	if ((rc = save_summary(res, json, &sum, &cause)) != 0) {
		log_warnx("summary not saved: %s", cause);
		free(cause);
		cause = NULL;
	}
	if (st.table == TABLE_SEED)
		print_seed(res, st.format);
	else if (st.format == FMT_CSV)
		write_summary_csv(stdout, res, &sum);
	else if (st.format == FMT_JSON) {
		json_dumpf(json, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		    JSON_REAL_PRECISION(10));
		putchar('\n');
	} else
		print_summary(res, m, &sum, st.format == FMT_MARKDOWN,
		    st.power_model != NULL, st.brief);
	json_decref(json);
	summary_free(&sum);
	metrics_free(m);
	results_free(res);
	free(pm.bad);
	opt_free(analyze_options, &st);
	if (fflush(stdout) != 0)
		die_errno(RB_EXIT_ENV, "stdout");
	return (RB_EXIT_OK);
}

const struct command_entry cmd_analyze_entry = {
	.name = "analyze",
	.usage = "DIR [--format text|csv|json|markdown] [--table seed] "
	    "[--empty-tolerance PAGES] [--power-model FILE]",
	.summary = "region metrics of one run, per phase",
	.description = "Reads the results directory DIR (never /proc), "
	    "computes the region metrics per sample (active and empty "
	    "regions, empty bytes, ideal regions, spread index, placement, "
	    "unmovable pollution, usable free memory) and reduces them per "
	    "phase to min, mean, max, final and time-weighted mean.  Writes "
	    "DIR/summary.csv and DIR/summary.json and prints a table.",
	.options = analyze_options,
	.exec = cmd_analyze_exec,
};
