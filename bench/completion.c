/*
 * The bash and zsh completion scripts `make install` puts in place,
 * written by `regionbench help --completion bash|zsh` from the command
 * table and every option table: commands, each command's options, the
 * choices of an option that has them, suites for run, workloads for
 * workload, and directories (where results are) or files elsewhere.
 * zsh gets the same function through its bashcompinit.
 */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "completion.h"
#include "log.h"
#include "source-cli.h"
#include "workload.h"

#ifndef RB_SOURCE_DATADIR
#define RB_SOURCE_DATADIR PKGDATADIR
#endif

/* " --name" for every option of a table. */
static void
completion_options(FILE *f, const struct opt_def *defs)
{
	const struct opt_def *def;

	for (def = defs; def != NULL && def->name != NULL; def++)
		fprintf(f, " --%s", def->name);
}

/* The case lines giving the choices of a table's enum options. */
static void
completion_choices(FILE *f, const char *cmd, const struct opt_def *defs)
{
	const struct opt_def *def;
	int i;

	for (def = defs; def != NULL && def->name != NULL; def++) {
		if (def->choices == NULL)
			continue;
		fprintf(f, "\t\"%s --%s\") words=\"", cmd, def->name);
		for (i = 0; def->choices[i] != NULL; i++)
			fprintf(f, "%s%s", i > 0 ? " " : "", def->choices[i]);
		fputs("\" ;;\n", f);
	}
}

/* Every option table of a command: its own, shared, the sources'. */
static int
completion_tables(const struct command_entry *e, const struct opt_def **t)
{
	struct opt_set sets[16];
	struct source_cli cli;
	int n = 0, i, ns;

	t[n++] = e->options;
	t[n++] = e->shared_options;
	if (e->source_options != NULL) {
		memset(&cli, 0, sizeof cli);
		ns = source_cli_sets(&cli, sets);
		for (i = 0; i < ns && n < 15; i++)
			t[n++] = sets[i].defs;
		source_cli_free(&cli);
	}
	return (n);
}

/* The suites shipped with this build, by name. */
static void
completion_suites(FILE *f)
{
	struct dirent *de;
	size_t len;
	DIR *d;

	if ((d = opendir(RB_SOURCE_DATADIR "/suites")) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len > 4 && strcmp(de->d_name + len - 4, ".ini") == 0 &&
		    strncmp(de->d_name, "gate-rules", 10) != 0)
			fprintf(f, " %.*s", (int)(len - 4), de->d_name);
	}
	closedir(d);
}

/* The bash function and its registration. */
static void
completion_bash(FILE *f, const struct command_entry *const *commands)
{
	const struct command_entry *const *e;
	const struct opt_def *t[16];
	const struct workload_desc *const *w;
	int i, n;

	fputs("_regionbench()\n{\n"
	    "\tlocal cur prev cmd opts words\n"
	    "\tCOMPREPLY=()\n"
	    "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	    "\tprev=${COMP_WORDS[COMP_CWORD-1]}\n"
	    "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	    "\t\tCOMPREPLY=($(compgen -W \"", f);
	for (e = commands; *e != NULL; e++)
		fprintf(f, "%s%s", e == commands ? "" : " ", (*e)->name);
	fputs(" --help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	    "\tcmd=${COMP_WORDS[1]}\n\tcase $cmd in\n", f);
	for (e = commands; *e != NULL; e++) {
		fprintf(f, "\t%s) opts=\"--help", (*e)->name);
		n = completion_tables(*e, t);
		for (i = 0; i < n; i++)
			completion_options(f, t[i]);
		fputs("\" ;;\n", f);
	}
	fputs("\t*) opts=\"--help\" ;;\n\tesac\n"
	    "\twords=\n\tcase \"$cmd $prev\" in\n", f);
	for (e = commands; *e != NULL; e++) {
		n = completion_tables(*e, t);
		for (i = 0; i < n; i++)
			completion_choices(f, (*e)->name, t[i]);
	}
	fputs("\tesac\n"
	    "\tif [ -n \"$words\" ]; then\n"
	    "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
	    "\t\treturn\n\tfi\n"
	    "\tcase $cur in\n"
	    "\t-*) COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")); return ;;\n"
	    "\tesac\n"
	    "\tcase $prev in\n"
	    "\t--*) case \" $opts \" in *\" $prev \"*)\n"
	    "\t\tCOMPREPLY=($(compgen -f -- \"$cur\")); return ;; esac ;;\n"
	    "\tesac\n"
	    "\tcase $cmd in\n"
	    "\thelp) COMPREPLY=($(compgen -W \"", f);
	for (e = commands; *e != NULL; e++)
		fprintf(f, "%s%s", e == commands ? "" : " ", (*e)->name);
	fputs("\" -- \"$cur\")) ;;\n"
	    "\trun) COMPREPLY=($(compgen -W \"", f);
	completion_suites(f);
	fputs("\" -- \"$cur\") $(compgen -f -X '!*.ini' -- \"$cur\")"
	    " $(compgen -d -- \"$cur\")) ;;\n"
	    "\tworkload) [ \"$COMP_CWORD\" -eq 2 ] &&\n"
	    "\t\tCOMPREPLY=($(compgen -W \"", f);
	for (w = workload_all(); *w != NULL; w++)
		fprintf(f, "%s%s", w == workload_all() ? "" : " ", (*w)->name);
	fputs("\" -- \"$cur\")) ;;\n"
	    "\tvm|ab|placement|vacate|sample|info|list)\n"
	    "\t\tCOMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
	    "\t*) COMPREPLY=($(compgen -d -- \"$cur\")) ;;\n"
	    "\tesac\n}\n"
	    "complete -o filenames -F _regionbench regionbench\n", f);
}

/*
 * Write the completion script for shell (bash or zsh); -RB_EXIT_INPUT
 * with a cause for another shell.
 */
int
completion_print(FILE *f, const char *shell,
    const struct command_entry *const *commands, char **cause)
{
	if (strcmp(shell, "bash") == 0) {
		fputs("# bash completion for regionbench, written by "
		    "'regionbench help --completion bash'\n", f);
		completion_bash(f, commands);
		return (0);
	}
	if (strcmp(shell, "zsh") == 0) {
		fputs("#compdef regionbench\n# zsh completion for regionbench, "
		    "written by 'regionbench help --completion zsh':\n# the "
		    "bash function, through zsh's bashcompinit\n"
		    "autoload -U +X bashcompinit && bashcompinit\n", f);
		completion_bash(f, commands);
		return (0);
	}
	return (fail_with(cause, RB_EXIT_INPUT, "--completion: expected bash "
	    "or zsh, not '%s'", shell));
}
