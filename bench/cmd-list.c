/*
 * "regionbench list": every workload in the registry with its summary and
 * whether it can run on this machine, and if not, why.
 */
#include "config.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "command.h"
#include "log.h"
#include "opt.h"
#include "term.h"
#include "workload.h"

#define LIST_TEXT_COLUMN	25	/* after the name and HERE columns */
#define LIST_JSON_VERSION	1	/* docs/json.md */

struct list_settings {
	int	 format;	/* 0 text, 1 json */
};

static const char *const list_formats[] = { "text", "json", NULL };

static const struct opt_def list_options[] = {
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct list_settings, format),
	  .arg = "FORMAT", .def = "text", .choices = list_formats,
	  .help = "a table, or one JSON object (docs/json.md)" },
	{ .name = NULL }
};

/* The registry as one JSON object. */
static void
list_json(void)
{
	const struct workload_desc *const *d;
	json_t *all = json_array(), *root;
	char *reason;
	int ok;

	for (d = workload_all(); *d != NULL; d++) {
		reason = NULL;
		ok = (*d)->supported == NULL || (*d)->supported(&reason);
		json_array_append_new(all, json_pack("{s:s, s:s, s:b, s:o}",
		    "name", (*d)->name, "summary", (*d)->summary, "supported",
		    ok, "reason", ok ? json_null() : json_string(reason !=
		    NULL ? reason : "unsupported")));
		free(reason);
	}
	root = json_pack("{s:s, s:i, s:o}", "command", "list",
	    "schema_version", LIST_JSON_VERSION, "workloads", all);
	if (json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) !=
	    0 || putchar('\n') == EOF)
		die_errno(RB_EXIT_ENV, "list: stdout");
	json_decref(root);
}

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
	struct list_settings set;
	char *reason, *why;
	int first, ok, width;

	command_parse(&cmd_list_entry, &set, argc, argv, &first);
	if (first < argc)
		command_usage_error(&cmd_list_entry, "unexpected argument '%s'",
		    argv[first]);
	if (set.format == 1) {
		list_json();
		return (RB_EXIT_OK);
	}
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
	.options = list_options,
	.description = "Every workload regionbench has, with a one-line "
	    "summary.  A workload that can't run on\nthis machine says why "
	    "(HERE is \"no\").",
	.exec = cmd_list_exec,
};
