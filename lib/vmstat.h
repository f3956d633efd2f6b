/*
 * Named counters from /proc/vmstat ("name value" lines) and /proc/meminfo
 * ("Name:   value kB" lines).  The caller names the keys it wants; keys the
 * running kernel does not have come back as VMSTAT_MISSING, because the
 * set of counters changes from one kernel version to the next.
 */
#ifndef RB_VMSTAT_H
#define RB_VMSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "procfile.h"

#define VMSTAT_MISSING UINT64_MAX

int	 vmstat_read(struct procfile *pf, const char *root,
	     const char *const *keys, size_t nkeys, uint64_t *values,
	     char **cause);
int	 vmstat_read_meminfo(struct procfile *pf, const char *root,
	     const char *const *keys, size_t nkeys, uint64_t *bytes,
	     char **cause);

#endif
