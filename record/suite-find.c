/*
 * Where suite files are and reading one: a path, or a name looked up in
 * $REGIONBENCH_SUITES, next to the program and in the installed suites.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data-find.h"
#include "input-file.h"
#include "log.h"
#include "suite.h"

/* Read a whole file into memory (suites are small). */
char *
suite_read_file(const char *path, char **cause)
{
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f;

	if ((f = input_fopen(path, cause)) == NULL)
		return (NULL);
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap == 0 ? 8192 : cap * 2;
			if (cap > (1 << 20)) {
				fclose(f);
				free(text);
				*cause = xasprintf("%s: larger than 1 MiB, not "
				    "a suite file", path);
				return (NULL);
			}
			text = xreallocarray(text, cap, 1);
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	text[len] = '\0';
	if (strlen(text) != len) {
		free(text);
		*cause = xasprintf("%s: contains NUL bytes, not a suite file",
		    path);
		return (NULL);
	}
	return (text);
}

/*
 * Find a suite by path, or by name in $REGIONBENCH_SUITES and then where
 * data_find looks.  Returns a new path or NULL with a cause.
 */
char *
suite_find(const char *name_or_path, char **cause)
{
	char *path, *file, *why = NULL;
	const char *env = getenv("REGIONBENCH_SUITES");

	if (strchr(name_or_path, '/') != NULL ||
	    access(name_or_path, F_OK) == 0 ||
	    strstr(name_or_path, ".ini") != NULL) {
		if (access(name_or_path, R_OK) == -1) {
			*cause = xasprintf("%s: %s", name_or_path,
			    strerror(errno));
			return (NULL);
		}
		return (xstrdup(name_or_path));
	}
	if (env != NULL && env[0] != '\0') {
		path = xasprintf("%s/%s.ini", env, name_or_path);
		if (access(path, R_OK) == 0)
			return (path);
		free(path);
	}
	file = xasprintf("%s.ini", name_or_path);
	path = data_find(file, &why);
	free(file);
	if (path != NULL)
		return (path);
	*cause = xasprintf("no suite named '%s' (%s): give a file path or one "
	    "of the built-in suites: quick, seed, standard, soak",
	    name_or_path, why);
	free(why);
	return (NULL);
}
