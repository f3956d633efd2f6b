/*
 * Help made from the option tables: the options list of --help, the usage
 * line and the manual page's option lists all come from the same
 * struct opt_def entries, so none of them can name an option the program
 * lacks or leave one out.  Text is wrapped by one rule (wrap_words) at the
 * width the caller gives: the terminal's, or 80 columns into a file.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opt.h"

#define HELP_OPTION_COLUMN	29	/* where an option's text starts */
#define HELP_MIN_WIDTH		60	/* narrower would fold every word */
#define HELP_MAX_WIDTH		100	/* wider lines are hard to read */

/* The width help is wrapped at, from the terminal's (0: unknown). */
int
opt_help_width(int terminal_width)
{
	if (terminal_width <= 0)
		return (80);
	if (terminal_width < HELP_MIN_WIDTH)
		return (HELP_MIN_WIDTH);
	if (terminal_width > HELP_MAX_WIDTH)
		return (HELP_MAX_WIDTH);
	return (terminal_width);
}

/* Length of the word at s: up to a blank outside [brackets]. */
static size_t
word_length(const char *s)
{
	size_t n;
	int depth = 0;

	for (n = 0; s[n] != '\0'; n++) {
		if (s[n] == '[')
			depth++;
		else if (s[n] == ']' && depth > 0)
			depth--;
		else if (depth == 0 && (s[n] == ' ' || s[n] == '\n'))
			break;
	}
	return (n);
}

/*
 * Print text starting at column col and wrap it at width; continuation
 * lines start at column indent.  A single newline in text is a blank, an
 * empty line ends a paragraph.  A [bracketed group] is never broken, so a
 * usage line keeps "[--out DIR]" whole.  Ends the last line.
 */
void
opt_print_wrapped(FILE *f, const char *text, int col, int indent, int width)
{
	const char *p = text;
	size_t len;
	int newlines, first = 1;

	for (;;) {
		for (newlines = 0; *p == ' ' || *p == '\n'; p++)
			newlines += *p == '\n';
		if (*p == '\0')
			break;
		if (newlines >= 2 && !first) {
			fprintf(f, "\n\n%*s", indent, "");
			col = indent;
			first = 1;
		}
		len = word_length(p);
		if (!first && col + 1 + (int)len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		/*
		 * A path too long for a whole line (an install prefix, say)
		 * breaks after a slash rather than running past the width.
		 */
		while (col + (int)len > width && col == indent) {
			size_t cut = (size_t)(width - col);

			while (cut > 0 && p[cut - 1] != '/')
				cut--;
			if (cut == 0)
				break;
			fwrite(p, 1, cut, f);
			fprintf(f, "\n%*s", indent, "");
			p += cut;
			len -= cut;
		}
		fwrite(p, 1, len, f);
		col += (int)len;
		p += len;
		first = 0;
	}
	fputc('\n', f);
}

/* The text after an option: its help, choices and default. */
static char *
option_text(const struct opt_def *def)
{
	char *text, *choices = xstrdup(""), *next;
	int i;

	if (def->type == OPT_ENUM) {
		for (i = 0; def->choices[i] != NULL; i++) {
			next = xasprintf("%s%s%s", choices, i > 0 ? "|" : "",
			    def->choices[i]);
			free(choices);
			choices = next;
		}
		next = xasprintf(" (%s)", choices);
		free(choices);
		choices = next;
	}
	if (def->type != OPT_FLAG && def->def != NULL && def->def[0] != '\0')
		text = xasprintf("%s%s [default: %s]", def->help, choices,
		    def->def);
	else
		text = xasprintf("%s%s", def->help, choices);
	free(choices);
	return (text);
}

/* "--name ARG", or "--name" for a flag. */
static char *
option_name(const struct opt_def *def)
{
	if (def->type == OPT_FLAG)
		return (xasprintf("--%s", def->name));
	return (xasprintf("--%s %s", def->name,
	    def->arg != NULL ? def->arg : "VALUE"));
}

/* One line per option (more when its text wraps) at width. */
void
opt_print_help(FILE *f, const struct opt_def *defs, int width)
{
	const struct opt_def *def;
	char *name, *text;
	int col;

	for (def = defs; def->name != NULL; def++) {
		name = option_name(def);
		text = option_text(def);
		col = fprintf(f, "  %s", name);
		if (col + 1 >= HELP_OPTION_COLUMN) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%*s", HELP_OPTION_COLUMN - col, "");
		opt_print_wrapped(f, text, HELP_OPTION_COLUMN,
		    HELP_OPTION_COLUMN, width);
		free(name);
		free(text);
	}
}

/*
 * The options part of a usage line: required options as "--name ARG",
 * the others as "[--name ARG]"; an option with choices shows them.
 */
char *
opt_synopsis(const struct opt_def *defs)
{
	const struct opt_def *def;
	char *out = xstrdup(""), *one, *next;
	int i;

	for (def = defs; def->name != NULL; def++) {
		if (def->type == OPT_ENUM) {
			one = xasprintf("--%s ", def->name);
			for (i = 0; def->choices[i] != NULL; i++) {
				next = xasprintf("%s%s%s", one, i > 0 ? "|" :
				    "", def->choices[i]);
				free(one);
				one = next;
			}
		} else
			one = option_name(def);
		next = xasprintf("%s%s%s%s%s", out, out[0] != '\0' ? " " : "",
		    def->required ? "" : "[", one, def->required ? "" : "]");
		free(one);
		free(out);
		out = next;
	}
	return (out);
}

/*
 * Text for troff: backslashes and hyphens escaped, and a control
 * character at the start of the line made harmless.
 */
void
opt_troff_escape(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

/* The options as a manual page's tagged paragraphs (.TP). */
void
opt_print_troff(FILE *f, const struct opt_def *defs)
{
	const struct opt_def *def;
	char *text;

	for (def = defs; def->name != NULL; def++) {
		fputs(".TP\n", f);
		if (def->type == OPT_FLAG) {
			fputs(".B \\-\\-", f);
			opt_troff_escape(f, def->name);
		} else {
			fputs(".BI \\-\\-", f);
			opt_troff_escape(f, def->name);
			fputs(" \" ", f);
			opt_troff_escape(f, def->arg != NULL ? def->arg :
			    "VALUE");
			fputc('"', f);
		}
		fputc('\n', f);
		text = option_text(def);
		opt_troff_escape(f, text);
		fputs(".\n", f);
		free(text);
	}
}
