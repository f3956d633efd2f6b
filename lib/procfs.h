/*
 * Parsers for /proc/zoneinfo, /proc/buddyinfo and /proc/pagetypeinfo of
 * every kernel from 2.6.39 to 6.18 and of the memory-region patched kernels
 * (2011 RFC and 2012-13 sorted-buddy).  They take text already in memory,
 * so tests feed them fixtures and the sampler feeds them its buffers.
 *
 * zoneinfo creates the entries of a snapshot (one per zone, or per region
 * key on patched kernels) and detects snap->format; buddyinfo and
 * pagetypeinfo fill entries that zoneinfo created.  On a mainline kernel
 * entries have region -1 and a source decides the regions.
 *
 * Each returns 0, or -RB_EXIT_INPUT with *cause naming the file (path),
 * the line number and what was expected.  Cross-file drift that leaves the
 * figures right is a warning (snapshot_warn), not an error.
 */
#ifndef RB_PROCFS_H
#define RB_PROCFS_H

#include <stddef.h>

#include "snapshot.h"

int	 procfs_parse_zoneinfo(struct snapshot *snap, const char *path,
	     const char *buf, size_t len, char **cause);
int	 procfs_parse_buddyinfo(struct snapshot *snap, const char *path,
	     const char *buf, size_t len, char **cause);
int	 procfs_parse_pagetypeinfo(struct snapshot *snap, const char *path,
	     const char *buf, size_t len, char **cause);

#endif
