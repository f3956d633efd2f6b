/*
 * regionbench: one program, subcommands from one table (docs/architecture.md
 * section 7).  This file finds the command by name or unique prefix and
 * runs it; everything else lives in the bench/cmd-*.c files.
 */
#include "config.h"

#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "completion.h"
#include "help-man.h"
#include "log.h"
#include "source-cli.h"
#include "suggest.h"
#include "term.h"

#define COMMAND_ELEM(name) &cmd_##name##_entry,
static const struct command_entry *const command_table[] = {
	COMMAND_LIST(COMMAND_ELEM)
	NULL
};
#undef COMMAND_ELEM

/* The width help is wrapped at on f: its terminal's, or 80 columns. */
int
command_help_width(FILE *f)
{
	return (opt_help_width(term_size(fileno(f), NULL)));
}

/*
 * "usage: regionbench NAME OPERANDS [--option ARG]... [source options]",
 * the options taken from the command's table so that none is left out;
 * wrapped under the first operand.
 */
void
command_usage_line(FILE *f, const struct command_entry *entry, int width)
{
	char *options, *shared, *line, *lead;

	options = entry->options != NULL ? opt_synopsis(entry->options) :
	    xstrdup("");
	if (entry->shared_options != NULL) {
		shared = opt_synopsis(entry->shared_options);
		line = xasprintf("%s%s%s", options, options[0] != '\0' ?
		    " " : "", shared);
		free(options);
		free(shared);
		options = line;
	}
	lead = xasprintf("usage: regionbench %s ", entry->name);
	if (entry->operands_last)
		line = xasprintf("%s%s%s%s", options, entry->source_options !=
		    NULL ? " [source options]" : "", options[0] != '\0' &&
		    entry->usage[0] != '\0' ? " " : "", entry->usage);
	else
		line = xasprintf("%s%s%s%s", entry->usage, entry->usage[0] !=
		    '\0' && options[0] != '\0' ? " " : "", options,
		    entry->source_options != NULL ? " [source options]" : "");
	fputs(lead, f);
	opt_print_wrapped(f, line, (int)strlen(lead), (int)strlen(lead),
	    width);
	free(lead);
	free(line);
	free(options);
}

/* Print the usage line, description and options of one command. */
void
command_usage(FILE *f, const struct command_entry *entry)
{
	int width = command_help_width(f);

	command_usage_line(f, entry, width);
	fputc('\n', f);
	opt_print_wrapped(f, entry->summary, 0, 0, width);
	if (entry->description != NULL) {
		fputc('\n', f);
		opt_print_wrapped(f, entry->description, 0, 0, width);
	}
	if (entry->options != NULL || entry->shared_options != NULL)
		fprintf(f, "\noptions:\n");
	if (entry->options != NULL)
		opt_print_help(f, entry->options, width);
	if (entry->shared_options != NULL)
		opt_print_help(f, entry->shared_options, width);
	if (entry->source_options != NULL)
		source_cli_print_help(f, width, entry->source_defaults);
}

/*
 * Apply a command's defaults and parse its command line against its own
 * table and, when it has one, the shared region-source table.  --help
 * prints the usage and exits 0; errors print a message and exit 2.
 */
int
command_parse_source(const struct command_entry *entry, void *settings,
    void *source_settings, int argc, char **argv, int *first_arg)
{
	struct opt_set sets[3 + SOURCE_COUNT];
	char *cause = NULL;
	int rc, nsets = 0;

	if (entry->options != NULL) {
		sets[nsets].defs = entry->options;
		sets[nsets++].settings = settings;
	}
	if (entry->shared_options != NULL) {
		sets[nsets].defs = entry->shared_options;
		sets[nsets++].settings = (char *)settings +
		    entry->shared_offset;
	}
	if (entry->source_options != NULL && source_settings != NULL)
		nsets += source_cli_sets(source_settings, sets + nsets);
	for (rc = 0; rc < nsets; rc++) {
		if (opt_defaults(sets[rc].defs, sets[rc].settings, &cause) != 0)
			die(RB_EXIT_INPUT, "%s: bad default: %s", entry->name,
			    cause);
	}
	if (entry->source_defaults != NULL && source_settings != NULL &&
	    source_cli_defaults(source_settings, entry->source_defaults,
	    &cause) != 0)
		die(RB_EXIT_INPUT, "%s: bad default: %s", entry->name, cause);
	rc = opt_parse(sets, nsets, argc, argv, first_arg, &cause);
	if (rc == OPT_HELP_REQUESTED) {
		command_usage(stdout, entry);
		exit(RB_EXIT_OK);
	}
	if (rc != 0)
		command_usage_error(entry, "%s", cause);
	for (; entry->operand_option != NULL && *first_arg < argc;
	    (*first_arg)++) {
		if (opt_set_value(opt_find(entry->options,
		    entry->operand_option), settings, argv[*first_arg],
		    &cause) != 0)
			die(RB_EXIT_INPUT, "%s: %s", entry->name, cause);
	}
	return (0);
}

/* Parse a command line against the command's own option table. */
int
command_parse(const struct command_entry *entry, void *settings, int argc,
    char **argv, int *first_arg)
{
	return (command_parse_source(entry, settings, NULL, argc, argv,
	    first_arg));
}

/*
 * A command line a command cannot run: one line saying what is wrong and
 * where the options are ("see 'regionbench CMD --help'"), exit 2.  The
 * help itself would push the error off a small terminal.
 */
void
command_usage_error(const struct command_entry *entry, const char *fmt, ...)
{
	va_list ap;
	char *what;

	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		die(RB_EXIT_ENV, "out of memory");
	va_end(ap);
	log_errorx("%s: %s; see 'regionbench %s --help'", entry->name, what,
	    entry->name);
	free(what);
	exit(RB_EXIT_INPUT);
}

/* Print the list of commands. */
static void
usage_all(FILE *f)
{
	const struct command_entry *const *entry;

	fprintf(f, "usage: regionbench COMMAND [options]\n\n"
	    "Measure how a workload's pages spread over physical memory "
	    "regions.\n\ncommands:\n");
	for (entry = command_table; *entry != NULL; entry++) {
		fprintf(f, "  %-10s ", (*entry)->name);
		opt_print_wrapped(f, (*entry)->summary, 13, 13,
		    command_help_width(f));
	}
	fprintf(f, "\nRun 'regionbench COMMAND --help' for the options of "
	    "one command.\n");
}

/* Find a command by its exact name, or NULL. */
const struct command_entry *
command_lookup(const char *name)
{
	const struct command_entry *const *entry;

	for (entry = command_table; *entry != NULL; entry++) {
		if (strcmp((*entry)->name, name) == 0)
			return (*entry);
	}
	return (NULL);
}

/* The command closest to a mistyped name, or NULL when none is close. */
static const char *
command_suggest(const char *name)
{
	const struct command_entry *const *entry;
	struct suggest sg;

	suggest_init(&sg, name);
	for (entry = command_table; *entry != NULL; entry++)
		suggest_offer(&sg, (*entry)->name);
	return (sg.best);
}

/* Find a command by exact name or unique prefix. */
static const struct command_entry *
command_find(const char *name)
{
	const struct command_entry *const *entry, *found = NULL;
	const char *near;
	char candidates[256] = "";
	size_t len = strlen(name);
	int nfound = 0;

	for (entry = command_table; *entry != NULL; entry++) {
		if (strcmp((*entry)->name, name) == 0)
			return (*entry);
		if (strncmp((*entry)->name, name, len) == 0) {
			if (nfound++ > 0)
				strncat(candidates, ", ", sizeof candidates -
				    strlen(candidates) - 1);
			strncat(candidates, (*entry)->name, sizeof candidates -
			    strlen(candidates) - 1);
			found = *entry;
		}
	}
	if (nfound == 1)
		return (found);
	if (nfound > 1)
		die(RB_EXIT_INPUT, "ambiguous command '%s': could be %s", name,
		    candidates);
	if ((near = command_suggest(name)) != NULL)
		die(RB_EXIT_INPUT, "unknown command '%s' (did you mean %s?); "
		    "see 'regionbench --help'", name, near);
	die(RB_EXIT_INPUT, "unknown command '%s'; see 'regionbench --help' "
	    "for the commands", name);
}

extern const struct command_entry cmd_help_entry;

/* "regionbench help [COMMAND]". */
static int
cmd_help_exec(int argc, char **argv)
{
	char *cause = NULL;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0)) {
		command_usage(stdout, &cmd_help_entry);
		return (RB_EXIT_OK);
	}
	/* The build makes the shell completion with it too. */
	if (argc == 3 && strcmp(argv[1], "--completion") == 0) {
		if (completion_print(stdout, argv[2], command_table,
		    &cause) != 0)
			die(RB_EXIT_INPUT, "help %s", cause);
		if (fflush(stdout) != 0 || ferror(stdout))
			die_errno(RB_EXIT_ENV, "help --completion: stdout");
		return (RB_EXIT_OK);
	}
	/* The build makes the manual page with it (bench/help-man.c). */
	if (argc == 3 && strcmp(argv[1], "--man") == 0) {
		if (help_man(stdout, argv[2], &cause) != 0)
			die(RB_EXIT_INPUT, "help --man: %s", cause);
		if (fflush(stdout) != 0 || ferror(stdout))
			die_errno(RB_EXIT_ENV, "help --man: stdout");
		return (RB_EXIT_OK);
	}
	if (argc > 1) {
		command_usage(stdout, command_find(argv[1]));
		return (RB_EXIT_OK);
	}
	usage_all(stdout);
	return (RB_EXIT_OK);
}

const struct command_entry cmd_help_entry = {
	.name = "help",
	.usage = "[COMMAND]",
	.summary = "list the commands, or show the options of one",
	.exec = cmd_help_exec,
};

int
main(int argc, char **argv)
{
	const struct command_entry *entry;

	/* Numbers in CSV and JSON must not depend on the user's locale. */
	setlocale(LC_ALL, "C");
	log_set_program("regionbench");
	if (argc < 2) {
		usage_all(stderr);
		return (RB_EXIT_INPUT);
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("regionbench %s\n", PACKAGE_VERSION);
		return (RB_EXIT_OK);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage_all(stdout);
		return (RB_EXIT_OK);
	}
	entry = command_find(argv[1]);
	return (entry->exec(argc - 1, argv + 1));
}
