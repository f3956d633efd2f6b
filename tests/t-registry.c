/*
 * Every registry lists what is built.  The sources are read for the
 * definitions each kind of extension makes (a command_entry in bench/, a
 * workload_desc in workloads/, a source_ops in lib/, a chart_def in
 * analyze/), and each one must be in its table (workload_find,
 * source_lookup, chart_table) and shown by the program ("regionbench
 * --help", "regionbench list", the region sources of "regionbench sample
 * --help").  A file whose registry line was forgotten fails here, and so
 * does a table entry no file defines.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart-run.h"
#include "log.h"
#include "source.h"
#include "tap.h"
#include "workload.h"

#define REG_MAX	64

/* The names one kind of definition has in the sources. */
struct reg_names {
	char	*name[REG_MAX];
	char	*file[REG_MAX];
	int	 n;
};

/* The whole of a small file, or NULL. */
static char *
slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0, got;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return (NULL);
	for (;;) {
		buf = xreallocarray(buf, len + 4097, 1);
		if ((got = fread(buf + len, 1, 4096, f)) == 0)
			break;
		len += got;
	}
	fclose(f);
	buf[len] = '\0';
	return (buf);
}

/*
 * Add the .name of every "const struct TYPE IDENT = {" at the start of a
 * line of text (file FILE) to names.
 */
static void
find_defs(const char *text, const char *file, const char *type,
    struct reg_names *names)
{
	char decl[128];
	const char *start, *p = text, *q, *end;

	snprintf(decl, sizeof decl, "const struct %s ", type);
	while ((start = strstr(p, decl)) != NULL) {
		q = p = start + strlen(decl);
		if (start != text && start[-1] != '\n')
			continue;
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		if (strncmp(q, " = {", 4) != 0)
			continue;
		if ((q = strstr(q, ".name = \"")) == NULL ||
		    (end = strchr(q + 9, '"')) == NULL || names->n == REG_MAX)
			continue;
		names->name[names->n] = xstrndup(q + 9, end - (q + 9));
		names->file[names->n] = xstrdup(file);
		names->n++;
	}
}

/* The definitions of TYPE in the .c files of DIR starting with PREFIX. */
static void
scan(const char *dir, const char *prefix, const char *type,
    struct reg_names *names)
{
	struct dirent **list;
	char *path, *text;
	size_t len;
	int n, i;

	memset(names, 0, sizeof *names);
	path = xasprintf("%s/%s", TOP_SRCDIR, dir);
	n = scandir(path, &list, NULL, alphasort);
	free(path);
	for (i = 0; i < n; i++) {
		len = strlen(list[i]->d_name);
		if (strncmp(list[i]->d_name, prefix, strlen(prefix)) == 0 &&
		    len > 2 && strcmp(list[i]->d_name + len - 2, ".c") == 0) {
			path = xasprintf("%s/%s/%s", TOP_SRCDIR, dir,
			    list[i]->d_name);
			if ((text = slurp(path)) != NULL)
				find_defs(text, list[i]->d_name, type, names);
			free(text);
			free(path);
		}
		free(list[i]);
	}
	if (n > 0)
		free(list);
	tap_ok(names->n > 0, "%s/%s*.c define %d %s", dir, prefix, names->n,
	    type);
}

/* Free what scan found. */
static void
names_free(struct reg_names *names)
{
	int i;

	for (i = 0; i < names->n; i++) {
		free(names->name[i]);
		free(names->file[i]);
	}
}

/* The standard output of "regionbench ARGS". */
static char *
run_program(const char *args)
{
	const char *rb = getenv("REGIONBENCH");
	char *cmd, *out = NULL;
	size_t len = 0, got;
	FILE *p;

	cmd = xasprintf("'%s' %s 2>/dev/null", rb != NULL ? rb :
	    "bench/regionbench", args);
	if ((p = popen(cmd, "r")) != NULL) {
		for (;;) {
			out = xreallocarray(out, len + 4097, 1);
			if ((got = fread(out + len, 1, 4096, p)) == 0)
				break;
			len += got;
		}
		pclose(p);
		out[len] = '\0';
	}
	free(cmd);
	return (out != NULL ? out : xstrdup(""));
}

/* Does a line of text, after its indent, start with the word name? */
static int
listed(const char *text, const char *name)
{
	const char *line = text, *p;
	size_t len = strlen(name);

	while (line != NULL && *line != '\0') {
		for (p = line; *p == ' '; p++)
			;
		if (strncmp(p, name, len) == 0 && (p[len] == ' ' ||
		    p[len] == '\n'))
			return (1);
		if ((line = strchr(line, '\n')) != NULL)
			line++;
	}
	return (0);
}

/* Each command file's command in "regionbench --help". */
static void
check_commands(void)
{
	struct reg_names names;
	char *help = run_program("--help");
	int i;

	scan("bench", "cmd-", "command_entry", &names);
	for (i = 0; i < names.n; i++)
		tap_ok(listed(help, names.name[i]), "command %s (%s) is in "
		    "regionbench --help", names.name[i], names.file[i]);
	names_free(&names);
	free(help);
}

/* Each workload file's workload in the registry and "regionbench list". */
static void
check_workloads(void)
{
	const struct workload_desc *const *d;
	struct reg_names names;
	char *list = run_program("list");
	int i, n = 0;

	scan("workloads", "", "workload_desc", &names);
	for (i = 0; i < names.n; i++) {
		tap_ok(workload_find(names.name[i]) != NULL, "workload %s "
		    "(%s) is in the registry", names.name[i], names.file[i]);
		tap_ok(listed(list, names.name[i]), "workload %s is in "
		    "regionbench list", names.name[i]);
	}
	for (d = workload_all(); *d != NULL; d++)
		n++;
	tap_eq_u64(n, names.n, "the registry has no workload no file "
	    "defines");
	names_free(&names);
	free(list);
}

/* Each source file's source in source_table and the source help. */
static void
check_sources(void)
{
	struct reg_names names;
	char *help = run_program("sample --help"), *part;
	int i, n;

	part = strstr(help, "region sources");
	scan("lib", "src-", "source_ops", &names);
	for (i = 0; i < names.n; i++) {
		tap_ok(source_lookup(names.name[i]) != NULL, "source %s (%s) "
		    "is in source_table", names.name[i], names.file[i]);
		tap_ok(part != NULL && listed(part, names.name[i]), "source "
		    "%s is in the region sources of regionbench sample "
		    "--help", names.name[i]);
	}
	for (n = 0; source_table[n] != NULL; n++)
		;
	tap_eq_u64(n, SOURCE_COUNT, "source_table has SOURCE_COUNT entries");
	tap_eq_u64(n, names.n, "source_table has no source no file defines");
	names_free(&names);
	free(help);
}

/* Each chart file's chart in chart_table. */
static void
check_charts(void)
{
	const struct chart_def *const *def;
	struct reg_names names;
	int i, n, found;

	scan("analyze", "chart-", "chart_def", &names);
	for (i = 0; i < names.n; i++) {
		found = 0;
		for (def = chart_table; *def != NULL; def++)
			found |= strcmp((*def)->name, names.name[i]) == 0;
		tap_ok(found, "chart %s (%s) is in chart_table", names.name[i],
		    names.file[i]);
	}
	for (n = 0; chart_table[n] != NULL; n++)
		;
	tap_eq_u64(n, names.n, "chart_table has no chart no file defines");
	names_free(&names);
}

int
main(void)
{
	check_commands();
	check_workloads();
	check_sources();
	check_charts();
	return (tap_done());
}
