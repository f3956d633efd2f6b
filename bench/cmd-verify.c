/*
 * regionbench verify: is a results directory whole?  Every CSV parses with
 * its header, rows are well formed, times never go backwards, keys agree
 * with regions.csv and meta.json is valid.  Exit 0 when whole (and say
 * whether the run completed), 1 naming what is damaged, 4 when the run
 * stopped before its first sample (no regions.csv, no rows: no data, which
 * a signal can cause at any moment, unlike damage).  analyze/verify.c
 * does the checks.
 */
#include "config.h"

#include <sys/stat.h>

#include "command.h"
#include "log.h"
#include "verify.h"

/* regionbench verify. */
static int
cmd_verify_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_verify_entry;
	struct stat st;
	char *cause = NULL;
	int first_arg, i, v, rc = RB_EXIT_OK;

	command_parse(&cmd_verify_entry, NULL, argc, argv, &first_arg);
	if (first_arg == argc)
		command_usage_error(&cmd_verify_entry,
		    "name a results directory");
	for (i = first_arg; i < argc; i++) {
		if (stat(argv[i], &st) == -1 || !S_ISDIR(st.st_mode))
			die(RB_EXIT_INPUT, "verify: %s is not a directory",
			    argv[i]);
		if ((v = verify_path(stdout, argv[i], &cause)) < 0)
			die(-v, "verify: %s", cause);
		rc = verify_worse(rc, v);
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
