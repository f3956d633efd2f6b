/*
 * The summary of a run (summary.csv): every reduction of every series per
 * phase, the phase's samples and duration, the workloads' figures and
 * the data-quality figures, each row named as METRIC_LIST names it.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "metrics.h"
#include "quality.h"

/* Append one summary row. */
void
summary_add(struct summary *sum, int phase, const char *unit, int headline,
    double value, const char *fmt, ...)
{
	struct summary_row *row;
	va_list ap;

	sum->rows = xreallocarray(sum->rows, sum->n + 1, sizeof *sum->rows);
	row = &sum->rows[sum->n++];
	row->phase = phase;
	va_start(ap, fmt);
	row->metric = xvasprintf(fmt, ap);
	va_end(ap);
	row->value = value;
	row->unit = xstrdup(unit);
	row->headline = headline;
}

/* Append the summary row of a metric of METRIC_LIST without parts. */
void
summary_add_metric(struct summary *sum, int phase, enum metric_id id,
    double value)
{
	summary_add(sum, phase, metric_defs[id].unit,
	    metric_defs[id].headline, value, "%s", metric_defs[id].name);
}

/* Workload figures of one phase: "total" rows, else the sum of threads. */
static void
summarize_workloads(const struct results *res, int phase, struct summary *sum)
{
	const struct results_workload_row *w, *x;
	double total;
	char *name;
	int i, j, seen, has_total;

	for (i = 0; i < res->nwl_rows; i++) {
		w = &res->wl_rows[i];
		if (w->phase != phase)
			continue;
		/* Only the first row of each (workload, metric) reports. */
		seen = 0;
		for (j = 0; j < i && !seen; j++) {
			x = &res->wl_rows[j];
			seen = x->phase == phase &&
			    strcmp(x->workload, w->workload) == 0 &&
			    strcmp(x->metric, w->metric) == 0;
		}
		if (seen)
			continue;
		has_total = 0;
		total = 0;
		for (j = i; j < res->nwl_rows; j++) {
			x = &res->wl_rows[j];
			if (x->phase != phase ||
			    strcmp(x->workload, w->workload) != 0 ||
			    strcmp(x->metric, w->metric) != 0)
				continue;
			if (strcmp(x->thread, "total") == 0) {
				total = x->value;
				has_total = 1;
			} else if (!has_total)
				total += x->value;
		}
		name = metric_name(METRIC_WORKLOAD, w->workload, w->metric);
		summary_add(sum, phase, w->unit,
		    metric_defs[METRIC_WORKLOAD].headline, total, "%s", name);
		free(name);
	}
}

/*
 * The data-quality figures of a phase (quality.h).  They are not headline
 * rows: tables print them as one line, and only when they are not clean.
 */
static void
summarize_quality(const struct results *res, int phase, struct summary *sum)
{
	struct quality q;

	quality_phase(res, phase, &q);
	summary_add_metric(sum, phase, METRIC_QUALITY_OVERRUNS, q.overruns);
	summary_add_metric(sum, phase, METRIC_QUALITY_MAX_GAP, q.max_gap_s);
	summary_add_metric(sum, phase, METRIC_QUALITY_KPF_ERROR, q.kpf_error);
	summary_add_metric(sum, phase, METRIC_QUALITY_MAX_COUNT_AGE,
	    q.max_count_age_s);
}

/* Every reduction of every series, phase by phase, as summary rows. */
void
metrics_summarize(const struct metrics *m, struct summary *sum)
{
	const struct results *res = m->res;
	const struct results_times *tm = &res->samples;
	struct metric_reduction red;
	const struct metric_series *s;
	double first, last, end;
	int p, i, n;

	memset(sum, 0, sizeof *sum);
	for (p = 0; p < res->nphases; p++) {
		n = 0;
		first = last = 0;
		for (i = 0; i < tm->n; i++) {
			if (tm->phase[i] != p)
				continue;
			if (n++ == 0)
				first = tm->t[i];
			last = tm->t[i];
		}
		if (n > 0) {
			end = results_phase_end(res, p);
			if (!isnan(end) && end > last)
				last = end;
			summary_add_metric(sum, p, METRIC_SAMPLES, n);
			summary_add_metric(sum, p, METRIC_DURATION_S,
			    last - first);
			summarize_quality(res, p, sum);
		}
		for (i = 0; i < m->nseries; i++) {
			s = &m->series[i];
			if (metrics_reduce(m, s, p, &red) == 0)
				continue;
			summary_add(sum, p, s->unit, s->headline, red.min,
			    "%s.min", s->name);
			summary_add(sum, p, s->unit, s->headline, red.mean,
			    "%s.mean", s->name);
			summary_add(sum, p, s->unit, s->headline, red.max,
			    "%s.max", s->name);
			summary_add(sum, p, s->unit, s->headline, red.final,
			    "%s.final", s->name);
			summary_add(sum, p, s->unit, s->headline, red.twmean,
			    "%s.twmean", s->name);
		}
		summarize_workloads(res, p, sum);
	}
}

/* Free summary rows. */
void
summary_free(struct summary *sum)
{
	int i;

	for (i = 0; i < sum->n; i++) {
		free(sum->rows[i].metric);
		free(sum->rows[i].unit);
	}
	free(sum->rows);
	sum->rows = NULL;
	sum->n = 0;
}
