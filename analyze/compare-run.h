/*
 * One run reduced to what comparisons need: its identity, the facts that
 * must match for runs to be compared, and its summary (compare-run.c).
 * The groups and statistics are compare.h's; the results database
 * (store.h) reads and writes these runs without them.
 */
#ifndef RB_COMPARE_RUN_H
#define RB_COMPARE_RUN_H

#include <stdint.h>

#include "metrics.h"

struct results;

/* One run, reduced to what comparisons need. */
struct compare_run {
	char		*dir;
	char		*run_id;	/* meta.json's, the stored key; or NULL */
	char		*real;		/* the directory's real path, or NULL */
	char		*label;
	char		*host;
	char		*kernel_release;
	char		*boot_id;	/* NULL: unknown, its own boot */
	char		*source;
	char		*scan;		/* results.scan */
	char		*suite;		/* "(none)" when not a suite run */
	char		*shape;		/* phases and their workloads */
	uint64_t	 page_size;
	uint64_t	 region_size_bytes;
	int		 nregions;
	double		 interval_s;	/* sampling interval; 0: unknown */
	char		**phases;	/* summary row phase -> name */
	int		 nphases;
	struct summary	 sum;
	int		 guest;		/* made in a regionbench vm boot */
	char		*guest_kernel_report;	/* its kernel's, NULL: none */
};

int	 compare_load_run(const char *dir, const struct metrics_options *opt,
	     struct compare_run **out, char **cause);
char	*compare_run_shape(const struct results *res);
char	*compare_run_id(const struct results *res);
void	 compare_run_release(struct compare_run *run);
int	 compare_run_dirs(const char *path, char ***dirs, int *ndirs,
	     char **cause);

#endif
