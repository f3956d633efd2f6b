/*
 * The metric table built from METRIC_LIST, finding the row of a series or
 * summary name, and the rules that read it: which tables show a metric,
 * which way it is better, whether it is a rate.
 */
#include "config.h"

#include <string.h>

#include "log.h"
#include "metric-list.h"

const struct metric_def metric_defs[METRIC_COUNT] = {
#define METRIC_DEF(i, n, u, h, b, s) [METRIC_##i] = { .id = METRIC_##i, \
	.name = n, .unit = u, .headline = h, .better = METRICS_BETTER_##b, \
	.shown = METRIC_SHOWN_##s },
	METRIC_LIST(METRIC_DEF)
#undef METRIC_DEF
};

/*
 * The name of a metric with its parts put in for its `*`s, in order
 * ("placement.*.regions", "pagetest": "placement.pagetest.regions").
 */
char *
metric_name(enum metric_id id, const char *part1, const char *part2)
{
	const char *pat = metric_defs[id].name, *parts[2] = { part1, part2 };
	size_t len = strlen(pat) + 1, n = 0;
	char *out, *o;
	int k;

	for (k = 0; k < 2; k++)
		len += parts[k] != NULL ? strlen(parts[k]) : 0;
	o = out = xmalloc(len);
	for (k = 0; *pat != '\0'; pat++) {
		if (*pat == '*' && k < 2 && parts[k] != NULL) {
			n = strlen(parts[k]);
			memcpy(o, parts[k++], n);
			o += n;
		} else
			*o++ = *pat;
	}
	*o = '\0';
	return (out);
}

/* Is what follows a metric's name nothing or one of its reductions? */
static int
metric_rest(const char *s)
{
	static const char *const reductions[] = {
		"", ".min", ".mean", ".max", ".final", ".twmean"
	};
	size_t i;

	for (i = 0; i < sizeof reductions / sizeof reductions[0]; i++) {
		if (strcmp(s, reductions[i]) == 0)
			return (1);
	}
	return (0);
}

/* Does name match pattern (each `*` one or more characters)? */
static int
metric_match(const char *pat, const char *s)
{
	if (*pat == '\0')
		return (metric_rest(s));
	if (*pat == '*') {
		if (*s == '\0')
			return (0);
		for (s++; *s != '\0'; s++) {
			if (metric_match(pat + 1, s))
				return (1);
		}
		return (metric_match(pat + 1, s));
	}
	return (*pat == *s && metric_match(pat + 1, s + 1));
}

/*
 * The row of a series or summary name (itself or reduced: "spread_index",
 * "spread_index.twmean"), or NULL for a name the list does not hold.
 */
const struct metric_def *
metric_lookup(const char *name)
{
	int i;

	for (i = 0; i < METRIC_COUNT; i++) {
		if (metric_match(metric_defs[i].name, name))
			return (&metric_defs[i]);
	}
	return (NULL);
}

/* Does a metric name end with suffix? */
static int
metrics_ends_with(const char *metric, const char *suffix)
{
	size_t len = strlen(metric), slen = strlen(suffix);

	return (len > slen && strcmp(metric + len - slen, suffix) == 0);
}

/*
 * How a metric is shown: its row of METRIC_LIST, or a series reduced
 * like the list's for a name the list does not hold.
 */
static enum metric_shown
metrics_shown_as(const char *metric)
{
	const struct metric_def *d = metric_lookup(metric);

	return (d != NULL ? d->shown : METRIC_SHOWN_REDUCED);
}

/*
 * The one rule for which summary metrics the human-readable outputs
 * (analyze tables, compare tables, the report) show, from each metric's
 * visibility in METRIC_LIST.  Every metric is in summary.csv and the JSON
 * outputs whatever this says.  Headline figures are the time-weighted
 * mean and final value of headline series, whole rows (the phase
 * duration, power-model estimates) and workload figures; brief keeps only
 * the rates of workload figures.
 */
int
metrics_shown(const char *metric, int headline, enum metrics_detail detail)
{
	if (detail == METRICS_ALL)
		return (1);
	if (!headline)
		return (0);
	switch (metrics_shown_as(metric)) {
	case METRIC_SHOWN_RATES:
		return (detail != METRICS_BRIEF ||
		    metrics_ends_with(metric, "_per_s"));
	case METRIC_SHOWN_WHOLE:
		return (1);
	case METRIC_SHOWN_NEVER:
		return (0);
	case METRIC_SHOWN_REDUCED:
		break;
	}
	return (metrics_ends_with(metric, ".twmean") ||
	    metrics_ends_with(metric, ".final"));
}

/*
 * Is a summary metric a reduction of a series (NAME.min ... NAME.twmean)?
 * Tables that print a series as one row of its reductions skip these.
 */
int
metrics_is_reduction(const char *metric)
{
	static const char *const names[] = {
		".min", ".mean", ".max", ".final", ".twmean"
	};
	size_t i;

	if (metrics_shown_as(metric) == METRIC_SHOWN_RATES ||
	    metrics_shown_as(metric) == METRIC_SHOWN_WHOLE)
		return (0);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (metrics_ends_with(metric, names[i]))
			return (1);
	}
	return (0);
}

/*
 * compare's headline set, what its text and markdown tables show without
 * --all: the time-weighted mean of headline series, the whole rows (the
 * phase duration, the power-model estimates) and the workload rates,
 * about 15 rows a phase.
 */
int
metrics_compare_shown(const char *metric, const char *unit, int headline)
{
	if (!headline)
		return (0);
	switch (metrics_shown_as(metric)) {
	case METRIC_SHOWN_RATES:
		return (metrics_is_rate(metric, unit));
	case METRIC_SHOWN_WHOLE:
		return (1);
	case METRIC_SHOWN_NEVER:
		return (0);
	case METRIC_SHOWN_REDUCED:
		break;
	}
	return (metrics_ends_with(metric, ".twmean"));
}

/* Is a metric a rate (per second), whose mean is the harmonic one? */
int
metrics_is_rate(const char *metric, const char *unit)
{
	size_t len = strlen(unit);

	return (metrics_ends_with(metric, "_per_s") ||
	    (len > 2 && strcmp(unit + len - 2, "/s") == 0));
}

/*
 * Which way a summary metric is better (docs/metrics.md), as METRIC_LIST
 * says; workload figures by their unit: rates higher, times and OOM kills
 * lower.  A name the list does not hold is context: neither.
 */
enum metrics_better
metrics_better(const char *metric, const char *unit)
{
	const struct metric_def *d = metric_lookup(metric);

	if (d == NULL)
		return (METRICS_BETTER_NONE);
	if (d->better != METRICS_BETTER_BY_UNIT)
		return (d->better);
	if (metrics_is_rate(metric, unit))
		return (METRICS_BETTER_HIGHER);
	if (strcmp(unit, "s") == 0 || metrics_ends_with(metric, ".oom_kills"))
		return (METRICS_BETTER_LOWER);
	return (METRICS_BETTER_NONE);
}
