/*
 * Reading /proc/vmstat and /proc/meminfo by key.  Both are flat lists of
 * counters; a line that does not parse is skipped, as newer kernels may
 * print lines we have never seen.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "vmstat.h"

/*
 * Fill values[] for keys[] from the text of /proc/vmstat (meminfo 0) or
 * /proc/meminfo (meminfo 1, values converted from kB to bytes).  Returns
 * how many keys were found.
 */
static int
vmstat_parse(const char *text, int meminfo, const char *const *keys,
    size_t nkeys, uint64_t *values)
{
	const char *line, *end, *p;
	unsigned long long v;
	size_t i, namelen;
	char *after;
	int found = 0;

	for (i = 0; i < nkeys; i++)
		values[i] = VMSTAT_MISSING;
	for (line = text; *line != '\0'; line = *end != '\0' ? end + 1 : end) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		namelen = strcspn(line, meminfo ? ":\n" : " \n");
		p = line + namelen;
		if (p >= end || namelen == 0)
			continue;
		if (meminfo)
			p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			continue;
		v = strtoull(p, &after, 10);
		if (meminfo && strncmp(after, " kB", 3) == 0)
			v *= 1024;
		for (i = 0; i < nkeys; i++) {
			if (values[i] == VMSTAT_MISSING &&
			    strlen(keys[i]) == namelen &&
			    strncmp(keys[i], line, namelen) == 0) {
				values[i] = v;
				found++;
				break;
			}
		}
	}
	return (found);
}

/* Read the named counters of root/vmstat. */
int
vmstat_read(struct procfile *pf, const char *root, const char *const *keys,
    size_t nkeys, uint64_t *values, char **cause)
{
	int rc;

	if ((rc = procfile_read(pf, root, "vmstat", cause)) != 0)
		return (rc);
	vmstat_parse(pf->buf, 0, keys, nkeys, values);
	return (0);
}

/* Read the named fields of root/meminfo, in bytes. */
int
vmstat_read_meminfo(struct procfile *pf, const char *root,
    const char *const *keys, size_t nkeys, uint64_t *bytes, char **cause)
{
	int rc;

	if ((rc = procfile_read(pf, root, "meminfo", cause)) != 0)
		return (rc);
	vmstat_parse(pf->buf, 1, keys, nkeys, bytes);
	return (0);
}
