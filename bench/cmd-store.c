/*
 * regionbench store DIR... [--db URL] [--partial]: load results directories
 * (runs, or directories with runs at any depth) into the results database,
 * SQLite by default.  Idempotent and all-or-nothing: analyze/store.c.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "analysis-cli.h"
#include "command.h"
#include "compare.h"
#include "log.h"
#include "store.h"

struct store_settings {
	int		 partial;
	struct analysis_cli an;
};

static const struct opt_def store_options[] = {
	{ .name = "partial", .type = OPT_FLAG,
	  .offset = offsetof(struct store_settings, partial),
	  .help = "store runs that did not complete (interrupted, failed, "
	  "still running) too" },
	{ .name = NULL }
};

/* regionbench store. */
static int
cmd_store_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_store_entry;
	struct store_settings set = { 0 };
	char *cause = NULL;
	int first, rc;

	command_parse(&cmd_store_entry, &set, argc, argv, &first);
	if (first == argc)
		die(RB_EXIT_INPUT, "store: name a results directory");
	if ((rc = store_dirs(set.an.db, argv + first, argc - first,
	    set.partial, set.an.empty_tolerance, 0, &cause)) != 0)
		die(-rc, "store: %s", cause);
	opt_free(store_options, &set);
	opt_free(analysis_cli_store_options, &set.an);
	return (RB_EXIT_OK);
}

const struct command_entry cmd_store_entry = {
	.name = "store",
	.usage = "DIR...",
	.summary = "load results directories into a database (SQLite, "
	    "PostgreSQL)",
	.description = "Loads each run (a results directory, or every run "
	    "below a directory at any depth) into the results database: the "
	    "run's identity from meta.json, its phases, its summary "
	    "metrics, every region sample, the workloads' metrics and the "
	    "events.  Runs are keyed by the run_id of meta.json, so storing a "
	    "run again replaces it; all the runs of one call are stored in "
	    "one transaction, so a failure stores none.  Runs that did not "
	    "complete are refused unless --partial.  compare and gate select "
	    "stored runs with db:key=value,... arguments (see "
	    "docs/database.md).",
	.options = store_options,
	.shared_options = analysis_cli_store_options,
	.shared_offset = offsetof(struct store_settings, an),
	.exec = cmd_store_exec,
};
