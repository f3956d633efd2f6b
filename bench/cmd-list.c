/*
 * "regionbench list": every workload in the registry with its summary and
 * whether it can run on this machine, and if not, why.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "command.h"
#include "log.h"
#include "workload.h"

/* Print the registry. */
static int
cmd_list_exec(int argc, char **argv)
{
	const struct workload_desc *const *d;
	char *reason;
	int first, ok;

	command_parse(&cmd_list_entry, NULL, argc, argv, &first);
	if (first < argc)
		die(RB_EXIT_INPUT, "list: unexpected argument '%s'",
		    argv[first]);
	printf("%-18s %-5s %s\n", "WORKLOAD", "HERE", "SUMMARY");
	for (d = workload_all(); *d != NULL; d++) {
		reason = NULL;
		ok = (*d)->supported == NULL || (*d)->supported(&reason);
		printf("%-18s %-5s %s\n", (*d)->name, ok ? "yes" : "no",
		    (*d)->summary);
		if (!ok)
			printf("%-18s %-5s can't run here: %s\n", "", "",
			    reason != NULL ? reason : "unsupported");
		free(reason);
	}
	printf("\nRun 'regionbench workload NAME --help' for the options of "
	    "one.\n");
	return (RB_EXIT_OK);
}

const struct command_entry cmd_list_entry = {
	.name = "list",
	.usage = "",
	.summary = "list the workloads and whether they can run here",
	.description = "Every workload regionbench has, with a one-line "
	    "summary.  A workload that can't run on\nthis machine says why "
	    "(HERE is \"no\").",
	.exec = cmd_list_exec,
};
