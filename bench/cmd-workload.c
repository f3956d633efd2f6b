/*
 * "regionbench workload NAME [options]": run one workload on its own, the
 * same way the runner does (forked child, threads inside), and print its
 * metric rows as a table, as workloads.csv rows or as one JSON object.  SIGINT/SIGTERM stop
 * it, print what was done so far and exit 130.
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
#include "session.h"
#include "workload.h"

enum { CMD_WORKLOAD_TABLE, CMD_WORKLOAD_CSV, CMD_WORKLOAD_JSON };

struct cmd_workload_settings {
	int		 format;
};

static const char *const cmd_workload_formats[] = {
	"table", "csv", "json", NULL
};

static const struct opt_def cmd_workload_options[] = {
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct cmd_workload_settings, format),
	  .arg = "FORMAT", .def = "table", .choices = cmd_workload_formats,
	  .help = "how to print the metrics" },
	{ .name = NULL }
};

/* Print the workload names (for errors and general help). */
static void
cmd_workload_names(FILE *f)
{
	const struct workload_desc *const *d;

	fprintf(f, "workloads:\n");
	for (d = workload_all(); *d != NULL; d++)
		fprintf(f, "  %-18s %s\n", (*d)->name, (*d)->summary);
}

/* Help for one workload, or for all when desc is NULL. */
static void
cmd_workload_help(FILE *f, const struct workload_desc *desc)
{
	fprintf(f, "usage: regionbench workload %s [options] "
	    "[--format table|csv|json]\n\n", desc != NULL ? desc->name : "NAME");
	if (desc == NULL) {
		fprintf(f, "%s\n\n", cmd_workload_entry.summary);
		cmd_workload_names(f);
		fprintf(f, "\noptions of every workload:\n");
		opt_print_help(f, workload_common_options);
	} else {
		fprintf(f, "%s\n\n", desc->summary);
		workload_print_help(f, desc);
	}
	fprintf(f, "\noutput:\n");
	opt_print_help(f, cmd_workload_options);
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

/* Run one workload and print its metrics. */
static int
cmd_workload_exec(int argc, char **argv)
{
	struct cmd_workload_settings cs = { 0 };
	struct opt_set extra = { cmd_workload_options, &cs };
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	const struct workload_desc *desc;
	struct workload_result res;
	struct workload_run *run;
	char *cause = NULL;
	int rc, first, code;

	if (argc < 2) {
		log_errorx("workload: which one?");
		cmd_workload_help(stderr, NULL);
		return (RB_EXIT_INPUT);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		cmd_workload_help(stdout, NULL);
		return (RB_EXIT_OK);
	}
	if ((desc = workload_find(argv[1])) == NULL) {
		log_errorx("workload: unknown workload '%s'", argv[1]);
		cmd_workload_names(stderr);
		return (RB_EXIT_INPUT);
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
	if (rc != 0) {
		log_errorx("workload %s: %s", desc->name, cause);
		fprintf(stderr, "usage: regionbench workload %s [options] "
		    "(see --help)\n", desc->name);
		free(cause);
		workload_run_free(run);
		return (RB_EXIT_INPUT);
	}
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
	.usage = "NAME [options] [--format table|csv|json]",
	.summary = "run one workload on its own and print its metrics",
	.description = "Runs the workload in a forked child with its threads "
	    "inside, as 'run' does,\nand prints its metrics per thread and in "
	    "total.  See 'regionbench list'.",
	.options = cmd_workload_options,
	.exec = cmd_workload_exec,
};
