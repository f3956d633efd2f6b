/*
 * Reading cgroup v2 text files (see cgroup.h).  The formats are the
 * kernel's Documentation/admin-guide/cgroup-v2.rst: /proc/PID/cgroup has
 * one "hierarchy-ID:controllers:path" line per hierarchy, the unified one
 * being "0::path"; controller lists are space-separated words; cgroup.procs
 * is one pid per line.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "log.h"

/*
 * The path of the unified (v2) hierarchy's "0::" line, without its
 * newline, or NULL when there is none (a v1-only machine).  The caller
 * frees it.
 */
char *
cgroup_unified_path(const char *proc_cgroup)
{
	const char *line = proc_cgroup, *end;

	while (line != NULL && *line != '\0') {
		end = strchr(line, '\n');
		if (strncmp(line, "0::/", 4) == 0) {
			line += 3;
			return (end != NULL ? xstrndup(line, (size_t)(end -
			    line)) : xstrdup(line));
		}
		line = end != NULL ? end + 1 : NULL;
	}
	return (NULL);
}

/* Does a space-separated list (cgroup.controllers) contain word? */
int
cgroup_list_has(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ' ' || p[-1] == '\n') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return (1);
		p += n;
	}
	return (0);
}

/* Is pid the only process a cgroup.procs text lists? */
int
cgroup_procs_only(const char *procs, pid_t pid)
{
	const char *p = procs;
	char *end;
	long v;
	int seen = 0;

	while (*p != '\0') {
		v = strtol(p, &end, 10);
		if (end == p || v != (long)pid)
			return (0);
		seen = 1;
		p = end;
		while (*p == '\n' || *p == ' ')
			p++;
	}
	return (seen);
}

/*
 * A memory.max text: 1 with the limit in bytes, 0 for "max" (no limit),
 * -1 for anything else.
 */
int
cgroup_memory_max(const char *text, uint64_t *bytes)
{
	unsigned long long v;
	char *end;

	if (strcmp(text, "max\n") == 0 || strcmp(text, "max") == 0)
		return (0);
	if (*text < '0' || *text > '9')
		return (-1);
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno != 0 || (*end != '\0' && strcmp(end, "\n") != 0))
		return (-1);
	*bytes = v;
	return (1);
}
