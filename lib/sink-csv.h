/*
 * The CSV sink writes a results directory (docs/csv-schema.md): one file
 * per table, header first, whole rows per write, flushed every sample;
 * regions.csv is replaced whole, never appended to.  It knows snapshots
 * and rows, never /proc.
 */
#ifndef RB_SINK_CSV_H
#define RB_SINK_CSV_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "csv-schema.h"
#include "snapshot.h"

struct sink_file {
	int		 fd;
	char		*buf;		/* rows not yet written */
	size_t		 len;
	size_t		 cap;
};

struct sink_csv {
	char		 dir[PATH_MAX];
	int		 dirfd;
	struct sink_file files[CSV_NTABLES];
	/* files[CSV_REGIONS] has no fd: its buffer keeps every row, and the
	 * file is replaced whole when a sample brings a new key. */
	int		 nregions;	/* region keys already in regions.csv */
	int		 region_cap;
	struct {
		int	 node, region;
		char	 zone[SNAP_NAME_LEN];
	}		*regions;
	unsigned	 omit;		/* 1 << table: left out of this run */
	char		*error;		/* first write error, kept */
	double		 last_event_t;	/* events.csv stays in time order */
};

int	 sink_csv_open(struct sink_csv *sink, const char *dir, unsigned omit,
	     char **cause);
int	 sink_csv_sample(struct sink_csv *sink, const struct snapshot *snap,
	     double t_s, const char *phase, int with_buddy, char **cause);
int	 sink_csv_write_samples(int fd, const struct snapshot *snap,
	     double t_s, const char *phase, int header, char **cause);
int	 sink_csv_event(struct sink_csv *sink, double t_s, const char *event,
	     const char *detail, const char *phase, char **cause);
int	 sink_csv_placement(struct sink_csv *sink, double t_s,
	     const char *phase, const char *workload, long pid, int node,
	     int region, uint64_t pages);
int	 sink_csv_workload(struct sink_csv *sink, const char *phase,
	     const char *workload, const char *thread, const char *metric,
	     double value, const char *unit);
int	 sink_csv_references(struct sink_csv *sink, double t_s,
	     const char *phase, int node, int region, uint64_t monitored,
	     uint64_t referenced, double idle_age_s);
int	 sink_csv_flush(struct sink_csv *sink, char **cause);
int	 sink_csv_close(struct sink_csv *sink, char **cause);
int	 sink_make_dir(const char *dir, char **cause);

#endif
