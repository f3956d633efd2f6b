/*
 * Suite files: INI, one [suite] section and one [phase NAME] section per
 * phase (docs/suites.md).  Parsing is strict: unknown sections, keys,
 * workloads and bad values are errors with file:line.
 */
#ifndef RB_SUITE_H
#define RB_SUITE_H

#include <stdint.h>

#define SUITE_MAX_PHASES	64
#define SUITE_MAX_CHECKPOINTS	16
#define SUITE_NAME_LEN		64
#define SUITE_MAX_VACATE	8

struct suite_option {
	char		*key;
	char		*value;
	int		 line;
};

struct suite_phase {
	char		 name[SUITE_NAME_LEN];
	int		 line;
	char		*workload;
	int		 nopts;
	struct suite_option *opts;
	uint64_t	 duration_ns;	/* 0: the workload's fixed work */
	int		 ncheckpoints;
	double		 checkpoints[SUITE_MAX_CHECKPOINTS];	/* 0..1 */
	char		 checkpoint_labels[SUITE_MAX_CHECKPOINTS][16];
	uint64_t	 settle_ns;	/* idle sampling after the workload */
	int		 drop_caches;	/* 0, or 1..3 for vm.drop_caches */
	int		 compact;	/* write vm.compact_memory first */
	int		 freeze;	/* stop the workload at checkpoints */
	/* Regions to vacate at each checkpoint (docs/vacate.md). */
	int		 nvacate;
	int		 vacate_node[SUITE_MAX_VACATE];
	int		 vacate_region[SUITE_MAX_VACATE];
	int		 vacate_line;
	uint64_t	 vacate_timeout_ns;	/* per block; 0: the default */
};

struct suite {
	char		*path;
	char		*text;		/* the whole file, for meta.json */
	char		 name[SUITE_NAME_LEN];
	char		*description;
	uint64_t	 interval_ns;
	long		 repeat;
	char		*source;	/* NULL: auto */
	char		*region_size;	/* NULL: default */
	int		 seed_table;	/* print the seed table at the end */
	int		 nphases;
	struct suite_phase phases[SUITE_MAX_PHASES];
};

/* Checks one workload option of a phase; returns 0 or -exit with cause. */
typedef int (*suite_option_check)(const char *workload, const char *key,
    const char *value, char **cause);
/* Checks that a workload exists; returns 0 or -exit with cause. */
typedef int (*suite_workload_check)(const char *workload, char **cause);

char	*suite_find(const char *name_or_path, char **cause);
int	 suite_check_workload(const char *workload, char **cause);
int	 suite_check_option(const char *workload, const char *key,
	     const char *value, char **cause);
int	 suite_load(struct suite *suite, const char *path,
	     suite_workload_check check_workload,
	     suite_option_check check_option, char **cause);
void	 suite_free(struct suite *suite);
char	*suite_read_file(const char *path, char **cause);

#endif
