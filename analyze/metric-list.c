/*
 * The metric table built from METRIC_LIST, and finding the row of a
 * series or summary name.
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
