/*
 * The region metrics of docs/metrics.md, computed once per sample from a
 * loaded results directory, and their reductions per phase.  analyze prints
 * them, compare and gate test them, chart draws them: all through this file,
 * so the numbers agree everywhere.
 */
#ifndef RB_METRICS_H
#define RB_METRICS_H

#include <stdint.h>

#include "log.h"
#include "metric-list.h"
#include "region-metrics.h"
#include "results.h"

/* How to compute. */
struct metrics_options {
	uint64_t	 empty_tolerance;	/* pages; empty when used <= */
	double		 placement_min_share;	/* 0.01 */
	/*
	 * references.csv: a region is referenced when DAMON saw more than
	 * this share of its watched bytes and more than this many bytes
	 * referenced (docs/metrics.md, "Power states").
	 */
	double		 referenced_min_share;	/* 0.01 */
	uint64_t	 referenced_min_bytes;	/* 4 MiB */
};

/*
 * The power state a region could be in at one sample, from its
 * allocation and what DAMON saw (docs/metrics.md, "Power states").
 */
enum metrics_power {
	METRICS_POWER_NONE,	/* no memory, or no DAMON reading to join */
	METRICS_POWER_OFF,	/* empty by allocation: could be powered down */
	METRICS_POWER_SELF_REFRESH, /* allocated, not referenced */
	METRICS_POWER_ON,	/* referenced */
	METRICS_POWER_NSTATES
};

/*
 * One time series: a value per point of a time base (samples, buddy,
 * pageblocks or placement rows).  Headline series are the ones people read;
 * the others are per-region or per-workload detail.
 */
struct metric_series {
	char		*name;
	const char	*unit;
	int		 headline;
	const struct results_times *times;	/* borrowed from results */
	double		*v;
};

struct metrics {
	const struct results	*res;
	struct metrics_options	 opt;
	/* per sample, per region: [sample * nregions + region] */
	double			*occupancy;	/* used / present */
	unsigned char		*empty;
	unsigned char		*state;		/* enum region_state */
	/* enum metrics_power, like state; NULL without references.csv */
	unsigned char		*power;
	struct metric_series	*series;
	int			 nseries;
};

/* A series reduced over one phase. */
struct metric_reduction {
	int		 n;
	double		 min;
	double		 mean;
	double		 max;
	double		 final;
	double		 twmean;	/* time-weighted mean */
};

/* One line of summary.csv. */
struct summary_row {
	int		 phase;
	char		*metric;
	double		 value;
	char		*unit;
	int		 headline;
};

struct summary {
	struct summary_row *rows;
	int		 n;
};


void	 metrics_options_default(struct metrics_options *opt);
int	 metrics_compute(const struct results *res,
	     const struct metrics_options *opt, struct metrics **out,
	     char **cause);
void	 metrics_free(struct metrics *m);
const struct metric_series *metrics_find(const struct metrics *m,
	     const char *name);
int	 metrics_reduce(const struct metrics *m,
	     const struct metric_series *s, int phase,
	     struct metric_reduction *r);
void	 metrics_summarize(const struct metrics *m, struct summary *sum);
void	 summary_add(struct summary *sum, int phase, const char *unit,
	     int headline, double value, const char *fmt, ...)
	     RB_PRINTF(6, 7);
void	 summary_add_metric(struct summary *sum, int phase,
	     enum metric_id id, double value);
void	 summary_free(struct summary *sum);
int	 metrics_point_at(const struct results_times *tm, int phase,
	     double t);
int	 metrics_sample_at(const struct results *res, int phase, double t);
int	 metrics_point_nearest(const struct results_times *tm, int phase,
	     double t);
double	 metrics_references_window(const struct results *res);
int	 metrics_references_at(const struct results *res, int s,
	     double window);

#endif
