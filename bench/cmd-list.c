/*
 * "regionbench list": every workload in the registry with its summary and
 * whether it can run on this machine, and if not, why.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "command.h"
#include "log.h"
#include "opt.h"
#include "term.h"
#include "workload.h"

#define LIST_TEXT_COLUMN	25	/* after the name and HERE columns */

/*
 * The text of the summary column, wrapped under itself on a terminal of
 * width columns (0: one line).
 */
static void
list_text(int width, const char *text)
{
	if (width > 0)
		opt_print_wrapped(stdout, text, LIST_TEXT_COLUMN,
		    LIST_TEXT_COLUMN, width);
	else
		printf("%s\n", text);
}

/* Print the registry. */
static int
cmd_list_exec(int argc, char **argv)
{
	const struct workload_desc *const *d;
	char *reason, *why;
	int first, ok, width;

	command_parse(&cmd_list_entry, NULL, argc, argv, &first);
	if (first < argc)
		die(RB_EXIT_INPUT, "list: unexpected argument '%s'",
		    argv[first]);
	width = term_fit_width(STDOUT_FILENO);
	printf("%-18s %-5s %s\n", "WORKLOAD", "HERE", "SUMMARY");
	for (d = workload_all(); *d != NULL; d++) {
		reason = NULL;
		ok = (*d)->supported == NULL || (*d)->supported(&reason);
		printf("%-18s %-5s ", (*d)->name, ok ? "yes" : "no");
		list_text(width, (*d)->summary);
		if (!ok) {
			why = xasprintf("can't run here: %s", reason != NULL ?
			    reason : "unsupported");
			printf("%-18s %-5s ", "", "");
			list_text(width, why);
			free(why);
		}
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
