/*
 * Storing results directories: every run below the paths given, loaded
 * into the database at once (all or nothing), for `store` and for
 * `run --store`.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "compare-run.h"
#include "log.h"
#include "store.h"

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
	if (rc == 0)
		rc = store_check_new(url, dirs, ndirs, partial, &mo, cause);
	if (rc == 0 && (rc = store_open(url, 1, &st, cause)) == 0) {
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
