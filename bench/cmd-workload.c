/*
 * "regionbench workload NAME [options]": run one workload on its own, the
 * same way the runner does (forked child, threads inside), and print its
 * metric rows as a table, as workloads.csv rows or as one JSON object,
 * and with --progress what it has done so far on stderr as it goes.
 * SIGINT/SIGTERM stop it, print what was done so far and exit 130.
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "log.h"
#include "suggest.h"
#include "session.h"
#include "units.h"
#include "workload.h"

enum { CMD_WORKLOAD_TABLE, CMD_WORKLOAD_CSV, CMD_WORKLOAD_JSON };

struct cmd_workload_settings {
	int		 format;
	uint64_t	 progress_ns;	/* 0: no progress lines */
};

static const char *const cmd_workload_formats[] = {
	"table", "csv", "json", NULL
};

static const struct opt_def cmd_workload_options[] = {
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct cmd_workload_settings, format),
	  .arg = "FORMAT", .def = "table", .choices = cmd_workload_formats,
	  .help = "how to print the metrics" },
	{ .name = "progress", .type = OPT_DURATION,
	  .offset = offsetof(struct cmd_workload_settings, progress_ns),
	  .arg = "INTERVAL", .def = "0",
	  .help = "print the work done so far on stderr every INTERVAL "
	  "(0: never)" },
	{ .name = NULL }
};

/* Print the workload names (for errors and general help). */
static void
cmd_workload_names(FILE *f)
{
	const struct workload_desc *const *d;

	fprintf(f, "workloads:\n");
	for (d = workload_all(); *d != NULL; d++) {
		fprintf(f, "  %-18s ", (*d)->name);
		opt_print_wrapped(f, (*d)->summary, 21, 21,
		    command_help_width(f));
	}
}

/*
 * The usage line of one workload, or of any when desc is NULL: its own
 * options, those of every workload and the output options, from their
 * tables.
 */
static void
cmd_workload_usage(FILE *f, const struct workload_desc *desc, int width)
{
	char *own, *common, *output, *line;

	own = desc != NULL && desc->options != NULL ?
	    opt_synopsis(desc->options) : xstrdup("[options]");
	common = opt_synopsis(workload_common_options);
	output = opt_synopsis(cmd_workload_options);
	line = xasprintf("%s%s%s %s %s", desc != NULL ? desc->name : "NAME",
	    own[0] != '\0' ? " " : "", own, common, output);
	fputs("usage: regionbench workload ", f);
	opt_print_wrapped(f, line, 28, 28, width);
	free(line);
	free(own);
	free(common);
	free(output);
}

/* Help for one workload, or for all when desc is NULL. */
static void
cmd_workload_help(FILE *f, const struct workload_desc *desc)
{
	int width = command_help_width(f);

	cmd_workload_usage(f, desc, width);
	fputc('\n', f);
	if (desc == NULL) {
		opt_print_wrapped(f, cmd_workload_entry.summary, 0, 0, width);
		fputc('\n', f);
		opt_print_wrapped(f, cmd_workload_entry.description, 0, 0,
		    width);
		fputc('\n', f);
		cmd_workload_names(f);
	} else {
		opt_print_wrapped(f, desc->summary, 0, 0, width);
		if (desc->options != NULL && desc->options[0].name != NULL) {
			fprintf(f, "\noptions of %s:\n", desc->name);
			opt_print_help(f, desc->options, width);
		}
	}
	fprintf(f, "\noptions of every workload:\n");
	opt_print_help(f, workload_common_options, width);
	fprintf(f, "\noutput:\n");
	opt_print_help(f, cmd_workload_options, width);
}

/*
 * One JSON object: the workload, how it ended (status, exit code, signal,
 * progress, message) and its rows, thread "total" or a thread number.
 */
static void
cmd_workload_json(const struct workload_desc *desc,
    const struct workload_result *res)
{
	const struct workload_row *row;
	json_t *root, *rows;
	size_t i;

	rows = json_array();
	for (i = 0; i < res->nrows; i++) {
		row = &res->rows[i];
		json_array_append_new(rows, json_pack("{s:o, s:s, s:o, s:s}",
		    "thread", row->thread < 0 ? json_string("total") :
		    json_integer(row->thread), "metric", row->metric, "value",
		    isfinite(row->value) ? json_real(row->value) : json_null(),
		    "unit", row->unit));
	}
	root = json_pack("{s:s, s:s, s:i, s:i, s:f, s:o, s:o}", "workload",
	    desc->name, "status", workload_status_name(res->status),
	    "exit_code", res->exit_code, "signal", res->signal, "progress",
	    res->progress, "message", res->message != NULL ?
	    json_string(res->message) : json_null(), "rows", rows);
	if (json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10)) != 0)
		die_errno(RB_EXIT_ENV, "stdout");
	putchar('\n');
	json_decref(root);
	fflush(stdout);
}

/* Print the rows as an aligned table, workloads.csv rows or JSON. */
static void
cmd_workload_print(const struct workload_desc *desc,
    const struct workload_result *res, int format)
{
	const struct workload_row *row;
	char thread[16];
	size_t i;

	if (format == CMD_WORKLOAD_JSON) {
		cmd_workload_json(desc, res);
		return;
	}
	if (format == CMD_WORKLOAD_CSV)
		printf("phase,workload,thread,metric,value,unit\n");
	else
		printf("%-7s %-34s %16s %s\n", "THREAD", "METRIC", "VALUE",
		    "UNIT");
	for (i = 0; i < res->nrows; i++) {
		row = &res->rows[i];
		if (row->thread < 0)
			snprintf(thread, sizeof thread, "total");
		else
			snprintf(thread, sizeof thread, "%d", row->thread);
		if (format == CMD_WORKLOAD_CSV)
			printf("workload,%s,%s,%s,%.10g,%s\n", desc->name,
			    thread, row->metric, row->value, row->unit);
		else
			printf("%-7s %-34s %16.10g %s\n", thread, row->metric,
			    row->value, row->unit);
	}
	fflush(stdout);
}

/*
 * One progress line on stderr: seconds since the measured work began, the
 * share done (of the time with --duration) and every counter's total.
 */
static void
cmd_workload_progress(const struct workload_desc *desc,
    const struct workload_run *run, uint64_t since_ns)
{
	const struct workload_counter *c;
	int k;

	fprintf(stderr, "%s: %.1f s, %.0f%% done", desc->name,
	    (double)(units_now_ns() - since_ns) / 1e9,
	    workload_progress(run) * 100);
	for (k = 0, c = desc->counters; c != NULL && c->name != NULL &&
	    k < WORKLOAD_MAX_COUNTERS; c++, k++)
		fprintf(stderr, "%s %s %.6g%s%s", k == 0 ? ":" : ",", c->name,
		    workload_counter_total(run, k), strcmp(c->unit, c->name) ==
		    0 ? "" : " ", strcmp(c->unit, c->name) == 0 ? "" : c->unit);
	fprintf(stderr, "\n");
}

/* Run one workload and print its metrics. */
static int
cmd_workload_exec(int argc, char **argv)
{
	struct cmd_workload_settings cs = { 0 };
	struct opt_set extra = { cmd_workload_options, &cs };
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	uint64_t since_ns = 0, next_ns = 0, now;
	const struct workload_desc *desc, *const *d;
	struct workload_result res;
	struct suggest sg;
	struct workload_run *run;
	char *cause = NULL;
	int rc, first, code;

	if (argc < 2)
		command_usage_error(&cmd_workload_entry, "which one? ('regionbench "
		    "list' names them)");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		cmd_workload_help(stdout, NULL);
		return (RB_EXIT_OK);
	}
	if ((desc = workload_find(argv[1])) == NULL) {
		suggest_init(&sg, argv[1]);
		for (d = workload_all(); *d != NULL; d++)
			suggest_offer(&sg, (*d)->name);
		if (sg.best != NULL)
			die(RB_EXIT_INPUT, "workload: unknown workload '%s' (did "
			    "you mean %s?); see 'regionbench list'", argv[1],
			    sg.best);
		die(RB_EXIT_INPUT, "workload: unknown workload '%s'; see "
		    "'regionbench list' for the workloads", argv[1]);
	}
	run = workload_run_new(desc);
	if (opt_defaults(cmd_workload_options, &cs, &cause) != 0)
		die(RB_EXIT_FAIL, "workload: %s", cause);
	rc = workload_parse_args(run, argc - 1, argv + 1, &extra, &first,
	    &cause);
	if (rc == OPT_HELP_REQUESTED) {
		cmd_workload_help(stdout, desc);
		workload_run_free(run);
		return (RB_EXIT_OK);
	}
	if (rc != 0)
		die(RB_EXIT_INPUT, "workload %s: %s; see 'regionbench workload "
		    "%s --help'", desc->name, cause, desc->name);
	if (first < argc - 1)
		die(RB_EXIT_INPUT, "workload %s: unexpected argument '%s'",
		    desc->name, argv[1 + first]);

	session_catch_signals(SESSION_SIGHUP);
	session_protect_from_oom();
	if ((rc = workload_start(run, &cause)) != 0)
		die(-rc, "%s", cause);
	while (!workload_finished(run)) {
		if (session_signal() != 0)
			workload_stop(run);
		if (cs.progress_ns > 0 && workload_measuring(run)) {
			now = units_now_ns();
			if (since_ns == 0)
				since_ns = next_ns = now;
			if (now >= next_ns) {
				cmd_workload_progress(desc, run, since_ns);
				next_ns += cs.progress_ns;
			}
		}
		nanosleep(&nap, NULL);
	}
	workload_wait(run, &res);
	cmd_workload_print(desc, &res, cs.format);
	code = workload_result_exit_code(&res);
	if (res.status == WORKLOAD_STOPPED)
		log_warnx("workload %s interrupted at %.0f%% of its work; the "
		    "figures above are what it had done", desc->name,
		    res.progress * 100);
	else if (res.status != WORKLOAD_DONE)
		log_errorx("workload %s %s: %s", desc->name,
		    workload_status_name(res.status), res.message != NULL ?
		    res.message : "no reason given");
	workload_result_free(&res);
	workload_run_free(run);
	return (code);
}

const struct command_entry cmd_workload_entry = {
	.name = "workload",
	.usage = "NAME [options]",
	.summary = "run one workload on its own and print its metrics",
	.description = "Runs the workload in a forked child with its threads "
	    "inside, as 'run' does, and prints its metrics per thread and in "
	    "total.  See 'regionbench list'.",
	.options = cmd_workload_options,
	.exec = cmd_workload_exec,
};
