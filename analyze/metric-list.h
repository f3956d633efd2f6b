/*
 * Every metric analysis knows, once: its name, unit, whether it is a
 * headline figure, which way is better and which tables show it.  The
 * series of analyze/metrics.c, the summary rows, compare's arrows and
 * headline set, the analyze tables, the charts, the report and the gate's
 * default `better =` all read this list, so a metric is one row here plus
 * its computation (docs/architecture.md section 9).
 *
 * X(ID, NAME, UNIT, HEADLINE, BETTER, SHOWN):
 * - NAME: the series or summary row; each `*` is a part the computation
 *   fills in (a region, a workload, a workload's own metric).  A series
 *   NAME is reduced per phase to NAME.min, .mean, .max, .final, .twmean.
 * - UNIT: NULL when the row brings its own (workload figures).
 * - BETTER: LOWER, HIGHER, NONE (context, not a score) or BY_UNIT (rates
 *   higher, times and OOM kills lower: workload figures).
 * - SHOWN: which human-readable tables show it (enum metric_shown).
 */
#ifndef RB_METRIC_LIST_H
#define RB_METRIC_LIST_H

#define METRIC_LIST(X)							\
	X(USED_PAGES, "used_pages", "pages", 1, NONE, REDUCED)		\
	X(ACTIVE_REGIONS, "active_regions", "regions", 1, LOWER, REDUCED) \
	X(EMPTY_REGIONS, "empty_regions", "regions", 1, HIGHER, REDUCED) \
	X(EMPTY_BYTES, "empty_bytes", "bytes", 1, HIGHER, REDUCED)	\
	X(IDEAL_REGIONS, "ideal_regions", "regions", 1, NONE, REDUCED)	\
	X(SPREAD_INDEX, "spread_index", "ratio", 1, LOWER, REDUCED)	\
	X(UNPROVEN_REGIONS, "unproven_regions", "regions", 1, NONE,	\
	    REDUCED)							\
	X(UNMOVABLE_USED_REGIONS, "unmovable_used_regions", "regions", 1, \
	    LOWER, REDUCED)						\
	X(OCCUPANCY, "occupancy.*", "ratio", 0, NONE, REDUCED)		\
	X(REFERENCED_REGIONS, "referenced_regions", "regions", 1, LOWER, \
	    REDUCED)							\
	X(IDLE_ALLOCATED_REGIONS, "idle_allocated_regions", "regions", 1, \
	    NONE, REDUCED)						\
	X(STATE_OFF_SHARE, "state_off_share", "ratio", 1, HIGHER, REDUCED) \
	X(STATE_SELF_REFRESH_SHARE, "state_self_refresh_share", "ratio", 1, \
	    NONE, REDUCED)						\
	X(STATE_ON_SHARE, "state_on_share", "ratio", 1, LOWER, REDUCED)	\
	X(STATE_OFF_BYTES, "state_off_bytes", "bytes", 0, HIGHER, REDUCED) \
	X(STATE_SELF_REFRESH_BYTES, "state_self_refresh_bytes", "bytes", 0, \
	    NONE, REDUCED)						\
	X(STATE_ON_BYTES, "state_on_bytes", "bytes", 0, LOWER, REDUCED)	\
	X(USABLE_FREE_SHARE, "usable_free_share", "ratio", 1, HIGHER,	\
	    REDUCED)							\
	X(USABLE_FREE_SHARE_REGION, "usable_free_share.*", "ratio", 0,	\
	    HIGHER, REDUCED)						\
	X(UNMOVABLE_REGIONS, "unmovable_regions", "regions", 1, LOWER,	\
	    REDUCED)							\
	X(PLACEMENT_REGIONS, "placement.*.regions", "regions", 1, LOWER, \
	    REDUCED)							\
	X(PLACEMENT_PAGES, "placement.*.pages", "pages", 0, NONE, REDUCED) \
	X(PLACEMENT_SHARE, "placement.*.share.*", "ratio", 0, NONE,	\
	    REDUCED)							\
	X(SAMPLES, "samples", "samples", 1, NONE, NEVER)		\
	X(DURATION_S, "duration_s", "s", 1, NONE, WHOLE)		\
	X(WORKLOAD, "workload.*.*", NULL, 1, BY_UNIT, RATES)		\
	X(POWER_POWERED_DOWN_SHARE, "power_model.powered_down_share",	\
	    "ratio", 1, HIGHER, WHOLE)					\
	X(POWER_SAVING_MW, "power_model.saving_mw", "mW", 1, HIGHER, WHOLE) \
	X(POWER_SELF_REFRESH_SHARE, "power_model.self_refresh_share",	\
	    "ratio", 1, HIGHER, WHOLE)					\
	X(POWER_THREE_STATE_SAVING_MW, "power_model.three_state_saving_mw", \
	    "mW", 1, HIGHER, WHOLE)					\
	X(QUALITY_OVERRUNS, "data_quality.sampler_overruns", "overruns", 0, \
	    NONE, NEVER)						\
	X(QUALITY_MAX_GAP, "data_quality.max_gap_s", "s", 0, NONE, NEVER) \
	X(QUALITY_KPF_ERROR, "data_quality.kpageflags_error_pages", "pages", \
	    0, NONE, NEVER)						\
	X(QUALITY_MAX_COUNT_AGE, "data_quality.max_count_age_s", "s", 0, \
	    NONE, NEVER)

enum metric_id {
#define METRIC_ENUM(id, name, unit, headline, better, shown) METRIC_##id,
	METRIC_LIST(METRIC_ENUM)
#undef METRIC_ENUM
	METRIC_COUNT
};

/* Which way a metric is better. */
enum metrics_better {
	METRICS_BETTER_NONE,	/* neither: context, not a score */
	METRICS_BETTER_LOWER,
	METRICS_BETTER_HIGHER,
	METRICS_BETTER_BY_UNIT,	/* workload figures: by their unit */
};

/*
 * Which human-readable tables show a metric (every one is in summary.csv
 * and the JSON outputs): REDUCED, a headline series's time-weighted mean
 * (and in the analyze tables its final value); WHOLE, the row itself when
 * headline; RATES, workload figures, of which brief tables and compare
 * show only the rates; NEVER, only with every metric asked for.
 */
enum metric_shown {
	METRIC_SHOWN_REDUCED,
	METRIC_SHOWN_WHOLE,
	METRIC_SHOWN_RATES,
	METRIC_SHOWN_NEVER,
};

struct metric_def {
	enum metric_id		 id;
	const char		*name;
	const char		*unit;
	int			 headline;
	enum metrics_better	 better;
	enum metric_shown	 shown;
};

/* How much of a summary a human-readable table shows. */
enum metrics_detail {
	METRICS_BRIEF,		/* headline figures, workload rates only */
	METRICS_HEADLINE,	/* the figures people read first */
	METRICS_ALL,		/* every metric */
};

extern const struct metric_def metric_defs[METRIC_COUNT];

/* The name of a metric without parts ("spread_index"). */
#define METRIC_NAME(id)	(metric_defs[METRIC_##id].name)

char	*metric_name(enum metric_id id, const char *part1,
	     const char *part2);
const struct metric_def *metric_lookup(const char *name);
int	 metrics_shown(const char *metric, int headline,
	     enum metrics_detail detail);
int	 metrics_is_reduction(const char *metric);
int	 metrics_compare_shown(const char *metric, const char *unit,
	     int headline);
int	 metrics_is_rate(const char *metric, const char *unit);
enum metrics_better metrics_better(const char *metric, const char *unit);

#endif
