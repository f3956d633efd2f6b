/*
 * The manual page, made at build time from docs/regionbench.1.in: the prose
 * is written by hand, while every command heading and option list comes
 * from the same tables that parse the command line and print --help, so
 * the page cannot name an option the program lacks or leave one out.
 *
 * Lines of the template that are exactly a marker are replaced:
 *   @COMMAND name@            .SS heading: name, operands, required options
 *   @OPTIONS name@            the command's option table
 *   @SOURCES@                 the region sources, in the order auto tries
 *   @SOURCE_OPTIONS@          the shared and per-source region options
 *   @WORKLOAD_OPTIONS name@   a workload's table ("common": every workload's)
 * and @VERSION@, @PKGDATADIR@ and @DOCDIR@ anywhere.  Anything else between @ signs
 * that looks like a marker is an error, so a typo never ships.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "help-man.h"
#include "log.h"
#include "source.h"
#include "source-cli.h"
#include "workload.h"

/* The .SS heading: "name OPERANDS --required ARG [options]". */
static void
man_heading(FILE *out, const struct command_entry *entry)
{
	const struct opt_def *def;
	int optional = 0;
	char *text;

	text = xasprintf("%s%s%s", entry->name, entry->operands_last ||
	    entry->usage[0] == '\0' ? "" : " ", entry->operands_last ? "" :
	    entry->usage);
	fputs(".SS \"", out);
	opt_troff_escape(out, text);
	free(text);
	if (entry->shared_options != NULL)
		optional = 1;
	for (def = entry->options; def != NULL && def->name != NULL; def++) {
		if (!def->required) {
			optional = 1;
			continue;
		}
		fputs(" \\-\\-", out);
		opt_troff_escape(out, def->name);
		if (def->type != OPT_FLAG) {
			fputc(' ', out);
			opt_troff_escape(out, def->arg != NULL ? def->arg :
			    "VALUE");
		}
	}
	if (optional)
		fputs(" [options]", out);
	if (entry->source_options != NULL)
		fputs(" [source options]", out);
	if (entry->operands_last && entry->usage[0] != '\0') {
		fputc(' ', out);
		opt_troff_escape(out, entry->usage);
	}
	fputs("\"\n", out);
}

/* The region sources as tagged paragraphs. */
static void
man_sources(FILE *out)
{
	const struct source_ops *ops;
	int i;

	for (i = 0; (ops = source_table[i]) != NULL; i++) {
		fputs(".TP\n.B ", out);
		opt_troff_escape(out, ops->name);
		fputc('\n', out);
		opt_troff_escape(out, ops->summary);
		fputs(".\n", out);
	}
}

/* The shared region options, then each source's own. */
static void
man_source_options(FILE *out)
{
	const struct source_ops *ops;
	int i;

	fputs("Options of every source:\n", out);
	opt_print_troff(out, source_cli_options);
	for (i = 0; (ops = source_table[i]) != NULL; i++) {
		if (ops->options == NULL || ops->options[0].name == NULL)
			continue;
		fputs(".PP\nOptions of the\n.B ", out);
		opt_troff_escape(out, ops->name);
		fputs("\nsource:\n", out);
		opt_print_troff(out, ops->options);
	}
}

/* A workload's option table, or every workload's for "common". */
static int
man_workload_options(FILE *out, const char *name)
{
	const struct workload_desc *desc;

	if (strcmp(name, "common") == 0) {
		opt_print_troff(out, workload_common_options);
		return (0);
	}
	if ((desc = workload_find(name)) == NULL)
		return (-1);
	if (desc->options != NULL)
		opt_print_troff(out, desc->options);
	return (0);
}

/* Write line with @VERSION@, @PKGDATADIR@ and @DOCDIR@ replaced. */
static int
man_text_line(FILE *out, const char *line)
{
	const char *p = line, *at;

	while ((at = strchr(p, '@')) != NULL) {
		fwrite(p, 1, (size_t)(at - p), out);
		if (strncmp(at, "@VERSION@", 9) == 0) {
			fputs(PACKAGE_VERSION, out);
			p = at + 9;
		} else if (strncmp(at, "@PKGDATADIR@", 12) == 0) {
			opt_troff_escape(out, PKGDATADIR);
			p = at + 12;
		} else if (strncmp(at, "@DOCDIR@", 8) == 0) {
			opt_troff_escape(out, DOCDIR);
			p = at + 8;
		} else if (at[1] >= 'A' && at[1] <= 'Z')
			return (-1);
		else {
			fputc('@', out);
			p = at + 1;
		}
	}
	fputs(p, out);
	return (0);
}

/* Expand one marker line (without its newline); -1 if unknown. */
static int
man_marker(FILE *out, const char *line)
{
	const struct command_entry *entry;
	char word[32], name[64];

	if (strcmp(line, "@SOURCES@") == 0) {
		man_sources(out);
		return (0);
	}
	if (strcmp(line, "@SOURCE_OPTIONS@") == 0) {
		man_source_options(out);
		return (0);
	}
	if (sscanf(line, "@%31[A-Z_] %63[a-z-]@", word, name) != 2 ||
	    line[strlen(line) - 1] != '@')
		return (-1);
	if (strcmp(word, "WORKLOAD_OPTIONS") == 0)
		return (man_workload_options(out, name));
	if ((entry = command_lookup(name)) == NULL)
		return (-1);
	if (strcmp(word, "COMMAND") == 0)
		man_heading(out, entry);
	else if (strcmp(word, "OPTIONS") == 0 && (entry->options != NULL ||
	    entry->shared_options != NULL)) {
		if (entry->options != NULL)
			opt_print_troff(out, entry->options);
		if (entry->shared_options != NULL)
			opt_print_troff(out, entry->shared_options);
	} else
		return (-1);
	return (0);
}

int
help_man(FILE *out, const char *template_path, char **cause)
{
	FILE *in;
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	long lineno = 0;
	int rc = 0;

	if ((in = fopen(template_path, "r")) == NULL)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s",
		    template_path, strerror(errno)));
	while ((len = getline(&line, &size, in)) != -1) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (line[0] == '@')
			rc = man_marker(out, line);
		else if ((rc = man_text_line(out, line)) == 0)
			fputc('\n', out);
		if (rc != 0) {
			rc = fail_with(cause, RB_EXIT_INPUT, "%s:%ld: unknown "
			    "marker '%s' (expected @COMMAND name@, @OPTIONS "
			    "name@, @SOURCES@, @SOURCE_OPTIONS@, "
			    "@WORKLOAD_OPTIONS name@, @VERSION@, "
			    "@PKGDATADIR@ or @DOCDIR@)", template_path, lineno, line);
			break;
		}
	}
	if (rc == 0 && ferror(in))
		rc = fail_with(cause, RB_EXIT_INPUT, "%s: %s", template_path,
		    strerror(errno));
	free(line);
	fclose(in);
	return (rc);
}
