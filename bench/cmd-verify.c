/*
 * regionbench verify: is a results directory whole?  Every CSV parses with
 * its header, rows are well formed, times never go backwards, keys agree
 * with regions.csv and meta.json is valid.  Exit 0 when whole (and say
 * whether the run completed), 1 naming what is damaged.
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

/* Verify one results directory; returns 0 when whole, 1 when damaged. */
static int
verify_dir(const char *dir)
{
	struct results *res = NULL;
	char path[4096], *why = NULL;
	json_error_t err;
	json_t *meta;
	const char *status;
	int damaged = 0;

	snprintf(path, sizeof path, "%s/meta.json", dir);
	if ((meta = json_load_file(path, 0, &err)) == NULL) {
		printf("%s: damaged: meta.json: line %d: %s\n", dir, err.line,
		    err.text);
		return (1);
	}
	status = json_string_value(json_object_get(meta, "status"));
	if (status == NULL) {
		printf("%s: damaged: meta.json has no status\n", dir);
		json_decref(meta);
		return (1);
	}
	if (results_load(dir, &res, &why) != 0) {
		printf("%s: damaged: %s\n", dir, why);
		free(why);
		json_decref(meta);
		return (1);
	}
	if (verify_times(&res->samples, "samples.csv", &why) != 0 ||
	    verify_times(&res->buddy, "buddy.csv", &why) != 0 ||
	    verify_times(&res->pagetype, "pagetype.csv", &why) != 0 ||
	    verify_times(&res->pageblocks, "pageblocks.csv", &why) != 0 ||
	    verify_times(&res->placement, "placement.csv", &why) != 0) {
		printf("%s: damaged: %s\n", dir, why);
		free(why);
		damaged = 1;
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
	return (damaged);
}

/* regionbench verify. */
static int
cmd_verify_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_verify_entry;
	char path[4096];
	struct dirent *de;
	struct stat st;
	int first_arg, i, rc = 0, n;
	DIR *d;

	command_parse(&cmd_verify_entry, NULL, argc, argv, &first_arg);
	if (first_arg == argc)
		die(RB_EXIT_INPUT, "verify: name a results directory");
	for (i = first_arg; i < argc; i++) {
		if (stat(argv[i], &st) == -1 || !S_ISDIR(st.st_mode))
			die(RB_EXIT_INPUT, "verify: %s is not a directory",
			    argv[i]);
		snprintf(path, sizeof path, "%s/meta.json", argv[i]);
		if (stat(path, &st) == 0) {
			rc |= verify_dir(argv[i]);
			continue;
		}
		/* A parent of repetitions: verify each child. */
		if ((d = opendir(argv[i])) == NULL)
			die_errno(RB_EXIT_INPUT, "verify: %s", argv[i]);
		n = 0;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "%s/%s/meta.json", argv[i],
			    de->d_name);
			if (stat(path, &st) == -1)
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[i],
			    de->d_name);
			rc |= verify_dir(path);
			n++;
		}
		closedir(d);
		if (n == 0) {
			printf("%s: damaged: no meta.json (not a results "
			    "directory)\n", argv[i]);
			rc = 1;
		}
	}
	return (rc ? RB_EXIT_FAIL : RB_EXIT_OK);
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
	    "1 naming what is damaged.",
	.exec = cmd_verify_exec,
};
