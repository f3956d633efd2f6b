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

#include "command.h"
#include "compare.h"
#include "log.h"
#include "store.h"

struct store_settings {
	char		*db;
	int		 partial;
	uint64_t	 empty_tolerance;
};

static const struct opt_def store_options[] = {
	{ .name = "db", .type = OPT_STRING,
	  .offset = offsetof(struct store_settings, db), .arg = "URL",
	  .def = STORE_DEFAULT_URL,
	  .help = "the database: sqlite:PATH or postgresql://... (a libpq "
	  "URI)" },
	{ .name = "partial", .type = OPT_FLAG,
	  .offset = offsetof(struct store_settings, partial),
	  .help = "store runs that did not complete (interrupted, failed, "
	  "still running) too" },
	{ .name = "empty-tolerance", .type = OPT_U64,
	  .offset = offsetof(struct store_settings, empty_tolerance),
	  .arg = "PAGES", .def = "0",
	  .help = "a region with at most PAGES used pages is empty, in the "
	  "stored summary" },
	{ .name = NULL }
};

/*
 * Store the runs below dirs into url; on failure nothing is stored and
 * the cause says why.  Used by `store` and by `run --store`.
 */
int
store_dirs(const char *url, char **paths, int npaths, int partial,
    uint64_t empty_tolerance, int quiet, char **cause)
{
	struct metrics_options mo;
	struct store_loaded done;
	struct store *st;
	char **dirs = NULL, **found;
	int ndirs = 0, nfound, i, j, rc = 0;

	metrics_options_default(&mo);
	mo.empty_tolerance = empty_tolerance;
	for (i = 0; i < npaths && rc == 0; i++) {
		if ((rc = compare_run_dirs(paths[i], &found, &nfound,
		    cause)) != 0)
			break;
		for (j = 0; j < nfound; j++) {
			dirs = xreallocarray(dirs, ndirs + 1, sizeof *dirs);
			dirs[ndirs++] = found[j];
		}
		free(found);
	}
	if (rc == 0 && (rc = store_open(url, &st, cause)) == 0) {
		rc = store_load(st, dirs, ndirs, partial, &mo, &done, cause);
		if (rc == 0 && !quiet)
			printf("stored %d run%s in %s (%d already there, "
			    "replaced)\n", done.runs, done.runs == 1 ? "" :
			    "s", store_describe(st), done.replaced);
		store_close(st);
	}
	for (i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	return (rc);
}

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
		command_usage_error(&cmd_store_entry,
		    "name a results directory");
	if ((rc = store_dirs(set.db, argv + first, argc - first, set.partial,
	    set.empty_tolerance, 0, &cause)) != 0)
		die(-rc, "store: %s", cause);
	opt_free(store_options, &set);
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
	.exec = cmd_store_exec,
};
