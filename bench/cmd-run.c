/*
 * regionbench run: the main job.  Runs a suite (built-in by name, or a
 * file) with the sampler recording region occupancy, and leaves one
 * results directory per repetition.
 */
#include "config.h"

#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "store.h"
#include "log.h"
#include "runner.h"
#include "session.h"
#include "suite.h"

static const char *const run_formats[] = { "text", "json", NULL };

static const struct opt_def run_options[] = {
	{ .name = "out", .type = OPT_STRING,
	  .offset = offsetof(struct runner_settings, out), .arg = "DIR",
	  .help = "results directory (default results/<suite>-<time>-<host>)" },
	{ .name = "label", .type = OPT_STRING,
	  .offset = offsetof(struct runner_settings, label), .arg = "L",
	  .def = "",
	  .help = "label stored in meta.json (e.g. vanilla, patched)" },
	{ .name = "replay", .type = OPT_STRING,
	  .offset = offsetof(struct runner_settings, replay), .arg = "DIR",
	  .help = "take region figures from a sample --record directory "
	  "(the workloads still run here)" },
	{ .name = "repeat", .type = OPT_LONG,
	  .offset = offsetof(struct runner_settings, repeat), .arg = "N",
	  .max = 1000,
	  .help = "repetitions, each its own directory under --out "
	  "(default: the suite's)" },
	{ .name = "interval", .type = OPT_DURATION,
	  .offset = offsetof(struct runner_settings, interval), .arg = "D",
	  .max = 86400000000000LL,
	  .help = "time between samples (default: the suite's)" },
	{ .name = "placement-every", .type = OPT_LONG,
	  .offset = offsetof(struct runner_settings, placement_every),
	  .arg = "N", .def = "10", .max = 1000000,
	  .help = "scan the workload's pages every N samples (0: only at "
	  "checkpoints)" },
	{ .name = "no-charts", .type = OPT_FLAG,
	  .offset = offsetof(struct runner_settings, no_charts),
	  .help = "do not draw charts or the report at the end" },
	{ .name = "force", .type = OPT_FLAG,
	  .offset = offsetof(struct runner_settings, force),
	  .help = "let workloads use more memory than is available" },
	{ .name = "quiet", .type = OPT_FLAG,
	  .offset = offsetof(struct runner_settings, quiet),
	  .help = "print only the results path and errors" },
	{ .name = "store", .type = OPT_FLAG,
	  .offset = offsetof(struct runner_settings, store),
	  .help = "load the results into the results database when the run "
	  "ends (see regionbench store)" },
	{ .name = "db", .type = OPT_STRING,
	  .offset = offsetof(struct runner_settings, db), .arg = "URL",
	  .def = STORE_DEFAULT_URL,
	  .help = "the database --store loads into: sqlite:PATH or "
	  "postgresql://..." },
	{ .name = "user", .type = OPT_STRING,
	  .offset = offsetof(struct runner_settings, user), .arg = "NAME",
	  .help = "run the workloads as this user (as root; the sampler "
	  "keeps root for /proc/kpageflags)" },
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct runner_settings, format),
	  .arg = "FORMAT", .def = "text", .choices = run_formats,
	  .help = "at the end, the summary table and the results path, or "
	  "one JSON object with both (docs/json.md)" },
	{ .name = NULL }
};

/* regionbench run. */
static int
cmd_run_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_run_entry;
	struct runner_settings set = { 0 };
	struct source_cli cli = { 0 };
	struct suite suite;
	char *path, *cause = NULL;
	int first_arg, rc;

	command_parse_source(&cmd_run_entry, &set, &cli, argc, argv,
	    &first_arg);
	if (argc - first_arg > 1)
		die(RB_EXIT_INPUT, "run: one suite at a time ('%s' is extra)",
		    argv[first_arg + 1]);
	log_set_quiet(set.quiet);
	if (set.user != NULL && *set.user != '\0') {
		if (getpwnam(set.user) == NULL)
			die(RB_EXIT_INPUT, "run: --user %s: no such user",
			    set.user);
		if (geteuid() != 0)
			die(RB_EXIT_ENV, "run: --user %s: only root can run "
			    "workloads as another user", set.user);
	}
	path = suite_find(first_arg < argc ? argv[first_arg] : "quick",
	    &cause);
	if (path == NULL)
		die(RB_EXIT_INPUT, "run: %s", cause);
	rc = suite_load(&suite, path, suite_check_workload,
	    suite_check_option, &cause);
	free(path);
	if (rc != 0)
		die(-rc, "%s", cause);
	/* The suite's source settings apply unless given on the command line. */
	if (suite.source != NULL && strcmp(cli.source, "auto") == 0) {
		free(cli.source);
		cli.source = xstrdup(suite.source);
	}
	if (suite.region_size != NULL && (rc = source_cli_suite_value(&cli,
	    "region-size", suite.region_size, &cause)) != 0)
		die(-rc, "run: suite region-size: %s", cause);
	session_catch_signals(SESSION_NO_SIGPIPE);
	rc = runner_main(&suite, &set, &cli);
	suite_free(&suite);
	source_cli_free(&cli);
	opt_free(run_options, &set);
	return (rc);
}


const struct command_entry cmd_run_entry = {
	.name = "run",
	.usage = "[SUITE|FILE]",
	.summary = "run a benchmark suite while sampling region occupancy",
	.description =
	    "Runs each phase's workload in a child process while the sampler\n"
	    "records every region; takes an extra sample and the workload's\n"
	    "page placement at each checkpoint.  SUITE is a built-in suite\n"
	    "(quick, seed, standard, soak; default quick) or a suite file.\n"
	    "Exit 0 when every phase ran, 1 when a phase failed (the run\n"
	    "goes on), 130 when interrupted.  With the kpageflags source\n"
	    "every count is exact: where a full scan at every sample would\n"
	    "cost more than the observer budget, each sample counts a part\n"
	    "of memory in turn and the other regions keep their last exact\n"
	    "count (--scan-rotation); --scan-fraction F asks for estimates.",
	.options = run_options,
	.source_options = source_cli_options,
	.shared_options = references_options,
	.shared_offset = offsetof(struct runner_settings, refs),
	.exec = cmd_run_exec,
};
