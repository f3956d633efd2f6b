/*
 * The data-quality figures of a phase (docs/metrics.md), all from the
 * results directory: overrun events (the sampler missed a deadline and
 * skipped samples), the largest interval between two samples of the
 * phase, and the largest difference between the free pages the kpageflags
 * scan counted and zoneinfo's window around it (the source's warning
 * events).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quality.h"

/*
 * The pages outside zoneinfo's window that a kpageflags accuracy warning
 * reports ("kpageflags: node 0 zone Normal: counted ... : -18389 pages
 * outside"), as a positive number; NAN for any other warning.
 */
double
quality_kpf_error(const char *detail)
{
	const char *end, *p;

	if (strncmp(detail, "kpageflags:", 11) != 0 ||
	    (end = strstr(detail, " pages outside")) == NULL)
		return (NAN);
	for (p = end; p > detail && strchr("0123456789", p[-1]) != NULL; p--)
		/* nothing */;
	if (p == end)
		return (NAN);
	return (strtod(p, NULL));
}

/* The figures of one phase. */
void
quality_phase(const struct results *res, int phase, struct quality *q)
{
	const struct results_event *e;
	double prev = NAN, err, age;
	int i, r;

	q->overruns = 0;
	q->max_gap_s = NAN;
	q->kpf_error = res->counts_checked ? 0 : NAN;
	q->max_count_age_s = 0;
	for (i = 0; i < res->samples.n; i++) {
		if (res->samples.phase[i] != phase)
			continue;
		for (r = 0; res->count_age_ms != NULL && r < res->nregions;
		    r++) {
			age = res->count_age_ms[(size_t)i * res->nregions + r] /
			    1000.0;
			if (age > q->max_count_age_s)
				q->max_count_age_s = age;
		}
		if (!isnan(prev) && (isnan(q->max_gap_s) ||
		    res->samples.t[i] - prev > q->max_gap_s))
			q->max_gap_s = res->samples.t[i] - prev;
		prev = res->samples.t[i];
	}
	for (i = 0; i < res->nevents; i++) {
		e = &res->events[i];
		if (e->phase != phase)
			continue;
		if (strcmp(e->event, "overrun") == 0)
			q->overruns++;
		else if (strcmp(e->event, "warning") == 0 &&
		    !isnan(err = quality_kpf_error(e->detail))) {
			if (isnan(q->kpf_error) || err > q->kpf_error)
				q->kpf_error = err;
		}
	}
}

/*
 * Is a phase's data clean: no overrun, no kpageflags count outside
 * zoneinfo's window, and no interval longer than twice the sampling
 * interval (when meta.json says what it was)?
 */
int
quality_clean(const struct quality *q, double interval_s)
{
	if (q->overruns > 0)
		return (0);
	if (!isnan(q->kpf_error) && q->kpf_error > 0)
		return (0);
	if (!isnan(q->max_gap_s) && !isnan(interval_s) &&
	    q->max_gap_s > 2 * interval_s + 0.0005)
		return (0);
	return (1);
}

/*
 * One line for people: "3 sampler overruns, largest gap 1.6 s, kpageflags
 * off by up to 18389 pages, exact counts up to 12 s old" (the parts that
 * are known; no kpageflags part when every scan agreed, no age when
 * every count was taken at its sample).
 */
void
quality_text(char *buf, size_t len, const struct quality *q)
{
	size_t at = 0;

	buf[0] = '\0';
	at += snprintf(buf + at, len - at, "%.0f sampler overrun%s",
	    q->overruns, q->overruns == 1 ? "" : "s");
	if (at < len && !isnan(q->max_gap_s))
		at += snprintf(buf + at, len - at, ", largest gap %.3g s",
		    q->max_gap_s);
	if (at < len && !isnan(q->kpf_error) && q->kpf_error > 0)
		at += snprintf(buf + at, len - at, ", kpageflags off by up to "
		    "%.0f page%s", q->kpf_error, q->kpf_error == 1 ? "" : "s");
	if (at < len && q->max_count_age_s > 0)
		snprintf(buf + at, len - at, ", exact counts up to %.3g s old "
		    "(scans in rotation)", q->max_count_age_s);
}
