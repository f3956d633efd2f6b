/*
 * The CSV sink writes a results directory (DESIGN.md section 5): one file
 * per table, header first, whole rows per write, flushed every sample.  It
 * knows snapshots and rows, never /proc.
 */
#ifndef RB_SINK_CSV_H
#define RB_SINK_CSV_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

enum sink_table {
	SINK_REGIONS,
	SINK_SAMPLES,
	SINK_BUDDY,
	SINK_PAGETYPE,
	SINK_PAGEBLOCKS,
	SINK_PLACEMENT,
	SINK_WORKLOADS,
	SINK_EVENTS,
	SINK_NTABLES
};

struct sink_file {
	int		 fd;
	char		*buf;		/* rows not yet written */
	size_t		 len;
	size_t		 cap;
};

struct sink_csv {
	char		 dir[PATH_MAX];
	int		 dirfd;
	struct sink_file files[SINK_NTABLES];
	int		 nregions;	/* region keys already in regions.csv */
	int		 region_cap;
	struct {
		int	 node, region;
		char	 zone[SNAP_NAME_LEN];
	}		*regions;
	char		*error;		/* first write error, kept */
};

const char *sink_csv_file_name(enum sink_table table);
const char *sink_csv_header(enum sink_table table);
int	 sink_csv_open(struct sink_csv *sink, const char *dir, char **cause);
int	 sink_csv_sample(struct sink_csv *sink, const struct snapshot *snap,
	     double t_s, const char *phase, int with_buddy, char **cause);
int	 sink_csv_event(struct sink_csv *sink, double t_s, const char *event,
	     const char *detail, const char *phase, char **cause);
int	 sink_csv_placement(struct sink_csv *sink, double t_s,
	     const char *phase, const char *workload, long pid, int node,
	     int region, uint64_t pages);
int	 sink_csv_workload(struct sink_csv *sink, const char *phase,
	     const char *workload, const char *thread, const char *metric,
	     double value, const char *unit);
int	 sink_csv_flush(struct sink_csv *sink, char **cause);
int	 sink_csv_close(struct sink_csv *sink, char **cause);
int	 sink_write_atomic(int dirfd, const char *dir, const char *name,
	     const char *data, size_t len, char **cause);
int	 sink_write_file(const char *dir, const char *name, const char *data,
	     size_t len, char **cause);
int	 sink_make_dir(const char *dir, char **cause);

#endif
