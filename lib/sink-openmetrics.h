/*
 * The Prometheus sink: each sample as a page of the Prometheus text
 * exposition format 0.0.4, the format node_exporter's textfile collector
 * reads and a /metrics endpoint serves (docs/csv-schema.md lists the
 * metrics).  It knows snapshots, never /proc; region figures come from the
 * rules of region-metrics.c, the same analyze applies.
 */
#ifndef RB_SINK_OPENMETRICS_H
#define RB_SINK_OPENMETRICS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

/* The sampler's health at a sample. */
struct sink_openmetrics_health {
	double		 duration_s;	/* how long the sample took */
	uint64_t	 overruns;	/* deadlines missed so far */
	uint64_t	 samples;	/* samples taken so far */
};

/* A region (zones summed) while a page is built. */
struct sink_openmetrics_region {
	int		 node;
	int		 region;
};

struct sink_openmetrics {
	char		*source;	/* the source label */
	uint64_t	 page_size;
	uint64_t	 tolerance;	/* pages; empty when used <= */

	/* The page being built; swapped out whole by whoever serves it. */
	char		*buf;
	size_t		 len;
	size_t		 cap;

	/* Per-region scratch, grown to the largest sample seen. */
	struct sink_openmetrics_region *regions;
	uint64_t	*present;
	uint64_t	*used;
	uint64_t	*uninit;	/* pages not initialised yet */
	uint64_t	*used_lo;	/* fewest used, sampled scans */
	uint64_t	*partial;	/* 1: a sampled scan's estimate */
	uint64_t	*sorted;
	int		 nregions;
	int		 region_cap;

	/* The .prom file replaced after each sample; dirfd -1: none. */
	int		 dirfd;
	char		 dir[PATH_MAX];
	char		 name[NAME_MAX + 1];
};

int	 sink_openmetrics_check_path(const char *path, char **cause);
int	 sink_openmetrics_open(struct sink_openmetrics *om, const char *path,
	     const char *source, uint64_t page_size, char **cause);
void	 sink_openmetrics_render(struct sink_openmetrics *om,
	     const struct snapshot *snap,
	     const struct sink_openmetrics_health *health);
int	 sink_openmetrics_write(struct sink_openmetrics *om, char **cause);
void	 sink_openmetrics_close(struct sink_openmetrics *om);

#endif
