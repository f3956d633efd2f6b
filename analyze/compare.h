/*
 * Groups of runs and the statistics between them: what `compare` prints and
 * what `gate` judges.  A run is reduced to its summary (metrics_summarize),
 * so a group is a set of one value per (phase, metric) per run.
 */
#ifndef RB_COMPARE_H
#define RB_COMPARE_H

#include "compare-run.h"
#include "metrics.h"
#include "stats.h"

enum compare_group_by {
	COMPARE_BY_DIR,
	COMPARE_BY_LABEL,
	COMPARE_BY_KERNEL
};
/* Their names, in that order, for the commands' --group-by. */
extern const char *const compare_group_by_names[];

/* What one value of a group is: a boot (its runs averaged) or a run. */
enum compare_unit {
	COMPARE_UNIT_RUN,
	COMPARE_UNIT_BOOT
};

enum compare_test {
	COMPARE_WELCH,
	COMPARE_MANN_WHITNEY
};

struct compare_group {
	char		*name;
	struct compare_run **runs;
	int		 nruns;
};

/* What is compared: a (phase, metric) that some run has. */
struct compare_key {
	const char	*phase;
	const char	*metric;
	const char	*unit;
	int		 headline;
};

struct compare_set {
	struct compare_run **runs;
	int		 nruns;
	struct compare_group *groups;
	int		 ngroups;
	struct compare_key *keys;
	int		 nkeys;
	enum compare_unit unit;		/* what compare_cell compares */
};

/* One group against the baseline for one key. */
struct compare_cell {
	struct stats_desc desc;
	double		 change_pct;	/* NAN: baseline mean 0 */
	int		 unchanged;	/* means equal within STATS_SAME_REL */
	int		 tested;	/* both groups >= 2 runs, changed */
	double		 p;		/* NAN unless tested */
	int		 significant;
};

int	 compare_add_path(struct compare_set *set, const char *path,
	     const struct metrics_options *opt, const char *db,
	     struct compare_run ***runs, int *nruns, char **cause);
const struct compare_run *compare_group_guests(const struct compare_group *g,
	     int *guests, int *reports);
int	 compare_load(char **paths, int npaths, enum compare_group_by by,
	     const struct metrics_options *opt, const char *db,
	     struct compare_set **out, char **cause);
int	 compare_load_two(char **base, int nbase, char **cand, int ncand,
	     const struct metrics_options *opt, const char *db,
	     struct compare_set **out, char **cause);
char	*compare_differences(const struct compare_set *set);
char	*compare_suite_differences(const struct compare_set *set);
char	*compare_scan_differences(const struct compare_set *set);
int	 compare_find_group(const struct compare_set *set, const char *name);
int	 compare_values(const struct compare_group *g,
	     const struct compare_key *key, double *out);
int	 compare_unit_values(const struct compare_group *g,
	     const struct compare_key *key, enum compare_unit unit,
	     int reciprocal, double *out);
int	 compare_boots(const struct compare_group *g, int *unknown);
char	*compare_unit_note(const struct compare_set *set);
void	 compare_cell(const struct compare_set *set, int base, int group,
	     const struct compare_key *key, enum compare_test test,
	     double alpha, struct compare_cell *cell);
int	 compare_cell_harmonic(const struct compare_set *set, int base,
	     int group, const struct compare_key *key, enum compare_test test,
	     double alpha, struct compare_cell *cell);
void	 compare_cell_values(const double *vb, int nb, const double *vg,
	     int ng, int self, enum compare_test test, double alpha,
	     struct compare_cell *cell);
void	 compare_free(struct compare_set *set);

#endif
