/*
 * Region sources: where figures come from (docs/architecture.md section 4).
 * Every source fills the same snapshot; the sampler, info and the runner
 * only talk to this interface.  Sources know nothing of CSV.
 */
#ifndef RB_SOURCE_H
#define RB_SOURCE_H

#include <jansson.h>
#include <limits.h>
#include <stdint.h>

#include "opt.h"
#include "procfile.h"
#include "snapshot.h"

struct region_map;

/* Flags for source_ops.read. */
#define SOURCE_READ_PAGETYPE	0x1	/* also read pagetypeinfo (costly) */

/* Which raw files the last read used, for --record. */
#define SOURCE_FILE_ZONEINFO	0x1
#define SOURCE_FILE_BUDDYINFO	0x2
#define SOURCE_FILE_PAGETYPEINFO 0x4

/*
 * The sources, most specific first: "auto" probes them in this order.
 * Adding a source: a new lib/src-NAME.c defining src_NAME_ops, one line
 * here and one in lib/local.mk.
 */
#define SOURCE_LIST(X) \
	X(patched) \
	X(sorted_buddy) \
	X(kpageflags) \
	X(zone)

#define SOURCE_COUNT_ONE(name) + 1
enum { SOURCE_COUNT = 0 SOURCE_LIST(SOURCE_COUNT_ONE) };
#undef SOURCE_COUNT_ONE

/*
 * Settings every source shares, and each source's own settings (parsed
 * from its option table) by position in source_table.  A NULL entry means
 * that source's defaults.  The settings are borrowed, not owned.
 */
struct source_config {
	char		 proc_root[PATH_MAX];	/* --proc, default /proc */
	char		 sys_root[PATH_MAX];	/* --sys, default /sys */
	const char	*replay;	/* a recording read instead of /proc */
	int		 busy_cores;	/* cores workloads are bound to */
	double		 interval_s;	/* between samples; 0: unknown */
	void		*settings[SOURCE_COUNT];
};

struct source;

struct source_ops {
	const char	*name;
	const char	*summary;
	/* The source's own options (NULL: none) and the struct they fill. */
	const struct opt_def *options;
	size_t		 settings_size;
	/* Check parsed settings and derive what they imply; may be NULL. */
	int		(*check)(void *settings, char **cause);
	/* 1 when the source applies here, 0 with *reason when not, <0 error. */
	int		(*probe)(struct source *src, char **reason);
	int		(*open)(struct source *src, char **cause);
	int		(*read)(struct source *src, struct snapshot *snap,
			    int flags, char **cause);
	/* Add the source's settings and findings to meta.json. */
	void		(*describe)(struct source *src, json_t *obj);
	void		(*close)(struct source *src);
	/* The emulated region map of an open source; NULL: it has none. */
	const struct region_map *(*region_map)(const struct source *src);
	/*
	 * Seconds one sample is expected to take, measured at open (< 0:
	 * unknown); *basis says what it rests on, and when interval_s > 0
	 * is shorter, *advice says which settings would fit.  May be NULL.
	 */
	double		(*estimate)(const struct source *src, double interval_s,
			    char **basis, char **advice);
	/*
	 * One line saying how exact the counts are and why (the run's
	 * header prints it); NULL: exact at every sample.  May be NULL.
	 */
	char		*(*counting)(const struct source *src);
	/*
	 * Why the source never gives migratetype figures (free blocks and
	 * pageblocks per migratetype), or NULL when it reads them.
	 */
	const char	*no_migratetypes;
};

struct source {
	const struct source_ops	*ops;
	struct source_config	 cfg;
	char			*why;		/* why auto chose this source */
	/* The sources auto tried first, one "name: reason" per line. */
	char			*passed_over;
	struct procfile		 zoneinfo;
	struct procfile		 buddyinfo;
	struct procfile		 pagetypeinfo;
	int			 files_read;	/* SOURCE_FILE_* of last read */
	void			*settings;	/* ops->options settings */
	void			*own_settings;	/* defaults source_open made */
	void			*priv;
};

#define SOURCE_EXTERN(name) extern const struct source_ops src_##name##_ops;
SOURCE_LIST(SOURCE_EXTERN)
#undef SOURCE_EXTERN

extern const struct source_ops *const source_table[];

void	 source_config_init(struct source_config *cfg);
const struct source_ops *source_lookup(const char *name);
int	 source_open(struct source *src, const char *name,
	     const struct source_config *cfg, char **cause);
int	 source_read(struct source *src, struct snapshot *snap, int flags,
	     char **cause);
void	 source_close(struct source *src);
int	 source_index(const struct source_ops *ops);
void	*source_settings_new(const struct source_ops *ops);
void	 source_settings_free(const struct source_ops *ops, void *settings);
const struct region_map *source_region_map(const struct source *src);
uint64_t source_region_bytes(const struct source *src);
char	*source_counting(const struct source *src);
double	 source_estimate(const struct source *src, double interval_s,
	     char **basis, char **advice);

#endif
