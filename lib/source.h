/*
 * Region sources: where region figures come from (DESIGN.md section 4).
 * Every source fills the same snapshot; the sampler, info and the runner
 * only talk to this interface.  Sources know nothing of CSV.
 */
#ifndef RB_SOURCE_H
#define RB_SOURCE_H

#include <jansson.h>
#include <limits.h>
#include <stdint.h>

#include "procfile.h"
#include "snapshot.h"

/* Flags for source_ops.read. */
#define SOURCE_READ_PAGETYPE	0x1	/* also read pagetypeinfo (costly) */

/* Which raw files the last read used, for --record. */
#define SOURCE_FILE_ZONEINFO	0x1
#define SOURCE_FILE_BUDDYINFO	0x2
#define SOURCE_FILE_PAGETYPEINFO 0x4

struct source_config {
	char		 proc_root[PATH_MAX];	/* --proc, default /proc */
	char		 sys_root[PATH_MAX];	/* --sys, default /sys */
	uint64_t	 region_size;		/* kpageflags: bytes per region */
	int		 region_block;		/* kpageflags: one per mem block */
	char		*region_map;		/* kpageflags: --region-map FILE */
	int		 scan_threads;		/* kpageflags: --scan-threads */
};

struct source;

struct source_ops {
	const char	*name;
	const char	*summary;
	/* 1 when the source applies here, 0 with *reason when not, <0 error. */
	int		(*probe)(struct source *src, char **reason);
	int		(*open)(struct source *src, char **cause);
	int		(*read)(struct source *src, struct snapshot *snap,
			    int flags, char **cause);
	/* Add the source's settings and findings to meta.json. */
	void		(*describe)(struct source *src, json_t *obj);
	void		(*close)(struct source *src);
};

struct source {
	const struct source_ops	*ops;
	struct source_config	 cfg;
	char			*why;		/* why auto chose this source */
	struct procfile		 zoneinfo;
	struct procfile		 buddyinfo;
	struct procfile		 pagetypeinfo;
	int			 files_read;	/* SOURCE_FILE_* of last read */
	void			*priv;
};

extern const struct source_ops *const source_table[];

void	 source_config_init(struct source_config *cfg);
const struct source_ops *source_lookup(const char *name);
int	 source_open(struct source *src, const char *name,
	     const struct source_config *cfg, char **cause);
int	 source_read(struct source *src, struct snapshot *snap, int flags,
	     char **cause);
void	 source_close(struct source *src);

#endif
