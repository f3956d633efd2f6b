/*
 * regionbench verify: is a results directory whole?  Every CSV parses with
 * its header, rows are well formed, times never go backwards, keys agree
 * with regions.csv and meta.json is valid.  Exit 0 when whole (and say
 * whether the run completed), 1 naming what is damaged, 4 when the run
 * stopped before its first sample (no regions.csv, no rows: no data, which
 * a signal can cause at any moment, unlike damage).
 */
#include "config.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "command.h"
#include "log.h"
#include "meta.h"
#include "results.h"

/* Check that a time base never goes backwards. */
static int
verify_times(const struct results_times *tm, const char *file, char **why)
{
	int i;

	for (i = 1; i < tm->n; i++) {
		if (tm->t[i] < tm->t[i - 1]) {
			*why = xasprintf("%s: t_s goes backwards (%.3f after "
			    "%.3f)", file, tm->t[i], tm->t[i - 1]);
			return (-1);
		}
	}
	return (0);
}

/*
 * The worse of two verify outcomes: damage over no data over whole, so
 * one damaged repetition fails the whole parent.
 */
static int
verify_worse(int a, int b)
{
	if (a == RB_EXIT_FAIL || b == RB_EXIT_FAIL)
		return (RB_EXIT_FAIL);
	if (a == RB_EXIT_NODATA || b == RB_EXIT_NODATA)
		return (RB_EXIT_NODATA);
	return (RB_EXIT_OK);
}

/*
 * A run stopped before its first sample (killed, interrupted or failed
 * before it): no data, which is not damage.  A run that says it completed
 * cannot have no data.  Returns -1 when the directory has data.
 */
static int
verify_no_data(const char *dir, const char *status)
{
	if (!results_no_data(dir))
		return (-1);
	if (status != NULL && strcmp(status, "complete") == 0) {
		printf("%s: damaged: meta.json says complete, but no sample "
		    "was written\n", dir);
		return (RB_EXIT_FAIL);
	}
	printf("%s: %s\n", dir, RESULTS_NO_DATA);
	return (RB_EXIT_NODATA);
}

/* Verify one results directory: RB_EXIT_OK, _FAIL (damaged) or _NODATA. */
static int
verify_dir(const char *dir)
{
	struct results *res = NULL;
	char *why = NULL;
	json_t *meta;
	const char *status;
	int rc = RB_EXIT_OK;

	if ((meta = meta_read(dir, &why)) == NULL) {
		printf("%s: damaged: %s\n", dir, why);
		free(why);
		return (RB_EXIT_FAIL);
	}
	if ((status = meta_get_string(meta, "status")) == NULL) {
		printf("%s: damaged: meta.json has no status\n", dir);
		json_decref(meta);
		return (RB_EXIT_FAIL);
	}
	if ((rc = verify_no_data(dir, status)) >= 0) {
		json_decref(meta);
		return (rc);
	}
	rc = RB_EXIT_OK;
	if (results_load(dir, &res, &why) != 0) {
		printf("%s: damaged: %s\n", dir, why);
		free(why);
		json_decref(meta);
		return (RB_EXIT_FAIL);
	}
	if (verify_times(&res->samples, "samples.csv", &why) != 0 ||
	    verify_times(&res->buddy, "buddy.csv", &why) != 0 ||
	    verify_times(&res->pagetype, "pagetype.csv", &why) != 0 ||
	    verify_times(&res->pageblocks, "pageblocks.csv", &why) != 0 ||
	    verify_times(&res->placement, "placement.csv", &why) != 0) {
		printf("%s: damaged: %s\n", dir, why);
		free(why);
		rc = RB_EXIT_FAIL;
	} else if (strcmp(status, "complete") == 0) {
		printf("%s: whole and complete: %d samples of %d regions\n",
		    dir, res->samples.n, res->nregions);
	} else {
		printf("%s: whole, but not complete: status '%s'%s; %d samples "
		    "of %d regions\n", dir, status, strcmp(status, "running") ==
		    0 ? " (the run was killed, or is still going)" : "",
		    res->samples.n, res->nregions);
	}
	results_free(res);
	json_decref(meta);
	return (rc);
}

/*
 * Verify a directory without meta.json: a parent of repetitions (each
 * child checked), or a run killed before it wrote meta.json (no data).
 */
static int
verify_parent(const char *dir)
{
	char path[4096];
	struct dirent *de;
	struct stat st;
	int rc = RB_EXIT_OK, n = 0;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		die_errno(RB_EXIT_INPUT, "verify: %s", dir);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s/meta.json", dir,
		    de->d_name);
		if (stat(path, &st) == -1)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		rc = verify_worse(rc, verify_dir(path));
		n++;
	}
	closedir(d);
	if (n > 0)
		return (rc);
	if ((rc = verify_no_data(dir, NULL)) >= 0)
		return (rc);
	printf("%s: damaged: no meta.json (not a results directory)\n", dir);
	return (RB_EXIT_FAIL);
}

/* regionbench verify. */
static int
cmd_verify_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_verify_entry;
	struct stat st;
	int first_arg, i, rc = RB_EXIT_OK;

	command_parse(&cmd_verify_entry, NULL, argc, argv, &first_arg);
	if (first_arg == argc)
		die(RB_EXIT_INPUT, "verify: name a results directory");
	for (i = first_arg; i < argc; i++) {
		if (stat(argv[i], &st) == -1 || !S_ISDIR(st.st_mode))
			die(RB_EXIT_INPUT, "verify: %s is not a directory",
			    argv[i]);
		if (results_is_run_dir(argv[i]))
			rc = verify_worse(rc, verify_dir(argv[i]));
		else
			rc = verify_worse(rc, verify_parent(argv[i]));
	}
	return (rc);
}

const struct command_entry cmd_verify_entry = {
	.name = "verify",
	.usage = "DIR...",
	.summary = "check that a results directory is whole",
	.description =
	    "Checks meta.json and every CSV file: each parses with its header,\n"
	    "rows are well formed, t_s never goes backwards and every key is\n"
	    "in regions.csv.  A directory of repetitions is checked child by\n"
	    "child.  Exit 0 when whole (saying whether the run completed),\n"
	    "1 naming what is damaged, 4 when the run stopped before its\n"
	    "first sample (no data, not damage).",
	.exec = cmd_verify_exec,
};
