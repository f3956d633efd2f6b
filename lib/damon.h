/*
 * DAMON physical-address monitoring through the sysfs admin tree
 * (/sys/kernel/mm/damon/admin): whether the kernel has it, whose kdamond
 * is there, one kdamond with a `stat` scheme over the memory regions, and
 * its tried regions once per aggregation interval (docs/damon.md).
 * Everything is read through the --sys root, so a synthetic tree drives
 * the tests.  The admin tree is shared and has no owner: only a kdamond
 * this program started (by pid, remembered in a record file) is ever
 * turned off.
 */
#ifndef RB_DAMON_H
#define RB_DAMON_H

#include <limits.h>
#include <stdint.h>

/* Where the record of our kdamond lives unless told otherwise. */
#define DAMON_RECORD_DEFAULT	"/run/regionbench/damon-kdamond"

/* What a kernel needs, for messages. */
#define DAMON_NEEDS	"CONFIG_DAMON, CONFIG_DAMON_PADDR and "		\
			"CONFIG_DAMON_SYSFS, and kernel >= 6.2 for "	\
			"tried_regions"

/* A physical address range in bytes, [start, end). */
struct damon_range {
	uint64_t	 start;
	uint64_t	 end;
};

/* One region the stat scheme tried, as the kernel reported it. */
struct damon_tried {
	uint64_t	 start;
	uint64_t	 end;
	uint64_t	 nr_accesses;
	uint64_t	 age;		/* aggregation intervals */
};

/*
 * The memory regions as DAMON watches them: each region's System RAM
 * ranges (page aligned, a page apart where two touch, so DAMON never
 * merges across a boundary), and per region the sums of one interval.
 */
struct damon_region {
	int		 node;
	int		 region;
	uint64_t	 monitored;	/* bytes DAMON reported */
	uint64_t	 referenced;	/* of those, with nr_accesses > 0 */
	uint64_t	 idle_age;	/* shortest age of an idle part */
	int		 has_idle;
};

struct damon_map {
	struct damon_region *regions;
	int		 nregions;
	struct damon_range *ranges;	/* sorted by start, disjoint */
	int		*range_region;	/* index into regions */
	int		 nranges;
};

struct damon_attrs {
	uint64_t	 sample_us;
	uint64_t	 aggr_us;
	uint64_t	 min_regions;
	uint64_t	 max_regions;
};

struct damon {
	char		 admin[PATH_MAX];	/* SYS/kernel/mm/damon/admin */
	char		 kd[PATH_MAX];		/* admin/kdamonds/0 */
	char		 record[PATH_MAX];	/* our kdamond's record */
	char		 boot_id[64];		/* of this boot, or "" */
	int		 configured;	/* we wrote nr_kdamonds = 1 */
	long		 pid;		/* our kdamond's pid; 0 when off */
	long		 owner;		/* the process that started it */
	struct damon_tried *tried;
	int		 ntried;
	int		 tried_cap;
	uint64_t	 empty_updates;	/* updates that came back empty */
};

int	 damon_open(struct damon *d, const char *sys_root,
	     const char *proc_root, const char *record, char **cause);
int	 damon_claim(struct damon *d, char **cause);
int	 damon_setup(struct damon *d, char **cause);
int	 damon_start(struct damon *d, const struct damon_range *ranges,
	     int nranges, const struct damon_attrs *attrs, char **cause);
int	 damon_update(struct damon *d, char **cause);
int	 damon_stop(struct damon *d, char **cause);
void	 damon_close(struct damon *d);
struct snapshot;
int	 damon_map_build(struct damon_map *m, const struct snapshot *snap,
	     const struct damon_range *ram, int nram, uint64_t page_size);
void	 damon_map_account(struct damon_map *m,
	     const struct damon_tried *tried, int ntried);
void	 damon_map_free(struct damon_map *m);
int	 damon_system_ram(const char *proc_root, struct damon_range **ranges,
	     int *nranges, char **cause);

#endif
