/*
 * Where regionbench's data files are: the suites and the gate's rules,
 * next to the program in an uninstalled build, in $REGIONBENCH_DATADIR or
 * installed.  One lookup, used by suite_find and by the gate.
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data-find.h"
#include "log.h"

/* Set by lib/local.mk; builds without it (the fuzzers) use PKGDATADIR. */
#ifndef RB_SOURCE_DATADIR
#define RB_SOURCE_DATADIR PKGDATADIR
#endif

/*
 * Find one of regionbench's data files (a suite "quick.ini", the default
 * gate rules "gate-rules.ini") in the data directories, in order: next to
 * the program (an uninstalled build: bench/suites), $REGIONBENCH_DATADIR,
 * the installed $(pkgdatadir).  In each, DIR/suites/FILE and DIR/FILE are
 * tried, so the build tree's layout and the installed one both work.
 * Returns a new path, or NULL with a cause naming every place tried.
 */
char *
data_find(const char *file, char **cause)
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
