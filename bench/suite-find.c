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

#include "input-file.h"
#include "log.h"
#include "suite.h"

/* Set by bench/local.mk; builds without it (the fuzzers) use PKGDATADIR. */
#ifndef RB_SOURCE_DATADIR
#define RB_SOURCE_DATADIR PKGDATADIR
#endif

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
 * Find one of regionbench's data files (a suite "quick.ini", the default
 * gate rules "gate-rules.ini") in the data directories, in order: next to
 * the program (an uninstalled build: bench/suites), $REGIONBENCH_DATADIR,
 * the installed $(pkgdatadir).  In each, DIR/suites/FILE and DIR/FILE are
 * tried, so the build tree's layout and the installed one both work.
 * Returns a new path, or NULL with a cause naming every place tried.
 */
char *
suite_data_find(const char *file, char **cause)
{
	char exe[PATH_MAX], *slash, *path, *tried = NULL, *old;
	const char *dirs[4], *env = getenv("REGIONBENCH_DATADIR");
	static const char *const subdirs[] = { "/suites", "" };
	ssize_t n;
	int i, j, k, ndirs = 0;

	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			dirs[ndirs++] = exe;
		}
	}
	if (env != NULL && env[0] != '\0')
		dirs[ndirs++] = env;
	dirs[ndirs++] = PKGDATADIR;
	/* Not installed (an out-of-tree build): the source tree's copy. */
	dirs[ndirs++] = RB_SOURCE_DATADIR;
	for (i = 0; i < ndirs; i++) {
		/* In-tree, the program's directory is the source's: try it
		 * (and name it) once. */
		for (k = 0; k < i && strcmp(dirs[k], dirs[i]) != 0; k++)
			;
		if (k < i)
			continue;
		for (j = 0; j < 2; j++) {
			path = xasprintf("%s%s/%s", dirs[i], subdirs[j], file);
			if (access(path, R_OK) == 0) {
				free(tried);
				return (path);
			}
			old = tried;
			tried = xasprintf("%s%s%s", old != NULL ? old : "",
			    old != NULL ? ", " : "", path);
			free(old);
			free(path);
		}
	}
	*cause = xasprintf("no %s (looked in %s)", file, tried);
	free(tried);
	return (NULL);
}

/*
 * Find a suite by path, or by name in $REGIONBENCH_SUITES and then where
 * suite_data_find looks.  Returns a new path or NULL with a cause.
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
	path = suite_data_find(file, &why);
	free(file);
	if (path != NULL)
		return (path);
	*cause = xasprintf("no suite named '%s' (%s): give a file path or one "
	    "of the built-in suites: quick, seed, standard, soak",
	    name_or_path, why);
	free(why);
	return (NULL);
}
