/*
 * regionbench store DIR... [--db URL] [--partial]: load results directories
 * (runs, or directories with runs at any depth) into the results database,
 * SQLite by default.  Idempotent and all-or-nothing: analyze/store.c.
 */
#include "config.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis-cli.h"
#include "command.h"
#include "compare.h"
#include "log.h"
#include "meta.h"
#include "store.h"

#define STORE_JSON_VERSION	1	/* docs/json.md */

static const char *const store_formats[] = { "text", "json", NULL };

struct store_settings {
	int		 strict;
	int		 format;	/* 0 text, 1 json */
	int		 partial;
	struct analysis_cli an;
};

static const struct opt_def store_options[] = {
	{ .name = "partial", .type = OPT_FLAG,
	  .offset = offsetof(struct store_settings, partial),
	  .help = "store runs that did not complete (interrupted, failed, "
	  "still running) too" },
	{ .name = "strict", .type = OPT_FLAG,
	  .offset = offsetof(struct store_settings, strict),
	  .help = "store nothing when a run did not complete, instead of "
	  "storing the others" },
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct store_settings, format),
	  .arg = "FORMAT", .def = "text", .choices = store_formats,
	  .help = "a line, or one JSON object (docs/json.md)" },
	{ .name = NULL }
};

/*
 * Into *dirs, the runs below paths; a run that did not complete is left
 * out with a warning (and named in skipped) unless all is set (--partial
 * or --strict: store_load then stores it or refuses it).  Returns the
 * number left out, or a negative exit code with a cause.
 */
static int
store_complete_runs(char **paths, int npaths, int all, char ***dirs,
    int *ndirs, json_t *skipped, char **cause)
{
	char **found, *why = NULL;
	const char *status;
	json_t *meta;
	int nfound, i, j, rc, nskipped = 0;

	*dirs = NULL;
	*ndirs = 0;
	for (i = 0; i < npaths; i++) {
		if ((rc = compare_run_dirs(paths[i], &found, &nfound,
		    cause)) != 0)
			return (rc);
		for (j = 0; j < nfound; j++) {
			status = NULL;
			if (!all && (meta = meta_read(found[j], &why)) != NULL)
				status = meta_get_string(meta, "status");
			else
				meta = NULL;
			free(why);
			why = NULL;
			if (!all && status != NULL &&
			    strcmp(status, "complete") != 0) {
				log_warnx("store: skipped %s: status %s, not "
				    "complete (--partial stores it)", found[j],
				    status);
				json_array_append_new(skipped, json_pack(
				    "{s:s, s:s}", "dir", found[j], "status",
				    status));
				nskipped++;
				free(found[j]);
			} else {
				*dirs = xreallocarray(*dirs, *ndirs + 1,
				    sizeof **dirs);
				(*dirs)[(*ndirs)++] = found[j];
			}
			json_decref(meta);
		}
		free(found);
	}
	return (nskipped);
}

/*
 * store: the complete runs below the paths stored, the others skipped
 * with a warning each; exit 2 when nothing was left to store.
 */
static int
store_main(const struct store_settings *set, char **paths, int npaths)
{
	struct metrics_options mo;
	struct store_loaded done;
	struct store *st;
	json_t *skipped = json_array(), *stored = json_array(), *root;
	char **dirs, *cause = NULL, *where;
	int ndirs, nskipped, i, rc;

	metrics_options_default(&mo);
	mo.empty_tolerance = set->an.empty_tolerance;
	if ((nskipped = store_complete_runs(paths, npaths, set->partial ||
	    set->strict, &dirs, &ndirs, skipped, &cause)) < 0)
		die(-nskipped, "store: %s", cause);
	if (ndirs == 0)
		die(RB_EXIT_INPUT, "store: nothing stored: %d run%s found, "
		    "none complete (--partial stores %s)", nskipped,
		    nskipped == 1 ? "" : "s", nskipped == 1 ? "it" : "them");
	if ((rc = store_check_new(set->an.db, dirs, ndirs, set->partial,
	    &mo, &cause)) != 0 || (rc = store_open(set->an.db, 1, &st,
	    &cause)) != 0 ||
	    (rc = store_load(st, dirs, ndirs, set->partial, &mo, &done,
	    &cause)) != 0)
		die(-rc, "store: %s", cause);
	where = xstrdup(store_describe(st));
	store_close(st);
	for (i = 0; i < ndirs; i++) {
		json_array_append_new(stored, json_string(dirs[i]));
		free(dirs[i]);
	}
	free(dirs);
	if (set->format == 1) {
		root = json_pack("{s:s, s:i, s:s, s:i, s:i, s:o, s:o}",
		    "command", "store", "schema_version", STORE_JSON_VERSION,
		    "database", where, "stored_runs", done.runs,
		    "replaced_runs", done.replaced, "stored", stored,
		    "skipped", skipped);
		if (json_dumpf(root, stdout, JSON_INDENT(2) |
		    JSON_PRESERVE_ORDER) != 0 || putchar('\n') == EOF)
			die_errno(RB_EXIT_ENV, "store: stdout");
		json_decref(root);
	} else {
		printf("stored %d run%s in %s (%d already there, replaced)",
		    done.runs, done.runs == 1 ? "" : "s", where, done.replaced);
		if (nskipped > 0)
			printf("; skipped %d that did not complete", nskipped);
		putchar('\n');
		json_decref(stored);
		json_decref(skipped);
	}
	free(where);
	return (RB_EXIT_OK);
}

/* regionbench store. */
static int
cmd_store_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_store_entry;
	struct store_settings set = { 0 };
	int first, rc;

	command_parse(&cmd_store_entry, &set, argc, argv, &first);
	if (first == argc)
		command_usage_error(&cmd_store_entry,
		    "name a results directory");
	rc = store_main(&set, argv + first, argc - first);
	opt_free(store_options, &set);
	opt_free(analysis_cli_store_options, &set.an);
	return (rc);
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
	    "complete are skipped with a warning each, the others stored, "
	    "unless --partial (store them too) or --strict (store nothing).  compare and gate select "
	    "stored runs with db:key=value,... arguments (see "
	    "docs/database.md).",
	.options = store_options,
	.shared_options = analysis_cli_store_options,
	.shared_offset = offsetof(struct store_settings, an),
	.exec = cmd_store_exec,
};
