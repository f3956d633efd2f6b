/*
 * What the patched, sorted-buddy and zone sources share (internal): they
 * all read zoneinfo, buddyinfo and, when asked, pagetypeinfo, and differ
 * only in the layout they accept and in how regions are numbered.
 */
#ifndef RB_SRC_PROCFS_H
#define RB_SRC_PROCFS_H

#include "source.h"

int	 src_procfs_probe(struct source *src, enum snap_format want,
	     char **reason);
int	 src_procfs_open(struct source *src, char **cause);
int	 src_procfs_read(struct source *src, struct snapshot *snap, int flags,
	     enum snap_format want, char **cause);
void	 src_procfs_describe(struct source *src, json_t *obj);
void	 src_procfs_close(struct source *src);
const char *src_procfs_format_name(enum snap_format format);

#endif
