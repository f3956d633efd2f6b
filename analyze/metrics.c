/*
 * Region metrics per sample (DESIGN.md section 6) and their reductions per
 * phase.  Everything here is computed from struct results alone, so analyze,
 * compare, gate and the charts read the same numbers.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "metrics.h"

/* The defaults the CLI documents. */
void
metrics_options_default(struct metrics_options *opt)
{
	opt->empty_tolerance = 0;
	opt->placement_min_share = 0.01;
}

/* Add a series of n points and return its value array (NAN-filled). */
static double *
series_add(struct metrics *m, const struct results_times *times,
    const char *unit, int headline, const char *fmt, ...) RB_PRINTF(5, 6);

static double *
series_add(struct metrics *m, const struct results_times *times,
    const char *unit, int headline, const char *fmt, ...)
{
	struct metric_series *s;
	va_list ap;
	int i;

	m->series = xreallocarray(m->series, m->nseries + 1,
	    sizeof *m->series);
	s = &m->series[m->nseries++];
	va_start(ap, fmt);
	s->name = xvasprintf(fmt, ap);
	va_end(ap);
	s->unit = unit;
	s->headline = headline;
	s->times = times;
	s->v = xmalloc((times->n > 0 ? times->n : 1) * sizeof *s->v);
	for (i = 0; i < times->n; i++)
		s->v[i] = NAN;
	return (s->v);
}

/* Sort helper: larger present first. */
static int
u64_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y ? -1 : x < y ? 1 : 0);
}

/*
 * The fewest regions whose present pages, largest first, hold used_total
 * pages.  scratch holds n values.  0 when nothing is used; all n when even
 * every region together is too small (free > present rounding).
 */
int
metrics_ideal_regions(const uint64_t *present, int n, uint64_t used_total,
    uint64_t *scratch)
{
	uint64_t held = 0;
	int i;

	if (used_total == 0)
		return (0);
	memcpy(scratch, present, n * sizeof *scratch);
	qsort(scratch, n, sizeof *scratch, u64_desc);
	for (i = 0; i < n; i++) {
		held += scratch[i];
		if (held >= used_total)
			return (i + 1);
	}
	return (n);
}

/* Per-sample series from samples.csv. */
static void
metrics_samples(struct metrics *m)
{
	const struct results *res = m->res;
	const struct results_times *tm = &res->samples;
	double *used_v, *active_v, *empty_v, *bytes_v, *ideal_v, *spread_v;
	double *unmov_v = NULL, **occ_v;
	uint64_t *sorted, *last_present, used_total, used_active, held, tol;
	uint64_t unmov;
	size_t at;
	int s, r, i, ideal = 0, active, nempty, same;

	tol = m->opt.empty_tolerance;
	used_v = series_add(m, tm, "pages", 1, "used_pages");
	active_v = series_add(m, tm, "regions", 1, "active_regions");
	empty_v = series_add(m, tm, "regions", 1, "empty_regions");
	bytes_v = series_add(m, tm, "bytes", 1, "empty_bytes");
	ideal_v = series_add(m, tm, "regions", 1, "ideal_regions");
	spread_v = series_add(m, tm, "ratio", 1, "spread_index");
	if (res->cls[RESULTS_SLAB] != NULL)
		unmov_v = series_add(m, tm, "regions", 1,
		    "unmovable_used_regions");
	occ_v = xcalloc(res->nregions, sizeof *occ_v);
	for (r = 0; r < res->nregions; r++)
		occ_v[r] = series_add(m, tm, "ratio", 0, "occupancy.%s",
		    res->regions[r].name);

	m->occupancy = xcalloc((size_t)tm->n * res->nregions + 1,
	    sizeof *m->occupancy);
	m->empty = xcalloc((size_t)tm->n * res->nregions + 1, 1);
	sorted = xcalloc(res->nregions, sizeof *sorted);
	last_present = NULL;
	for (s = 0; s < tm->n; s++) {
		const uint64_t *present = res->present +
		    (size_t)s * res->nregions;

		used_total = used_active = 0;
		active = nempty = 0;
		held = 0;
		unmov = 0;
		for (r = 0; r < res->nregions; r++) {
			at = (size_t)s * res->nregions + r;
			used_total += res->used[at];
			m->occupancy[at] = present[r] > 0 ?
			    (double)res->used[at] / present[r] : 0.0;
			occ_v[r][s] = m->occupancy[at];
			if (present[r] == 0 && res->used[at] == 0) {
				/* A hole (no memory there): neither. */
			} else if (res->used[at] <= tol) {
				m->empty[at] = 1;
				nempty++;
				held += present[r];
			} else {
				active++;
				used_active += res->used[at];
			}
			if (unmov_v != NULL && res->cls[RESULTS_SLAB][at] +
			    res->cls[RESULTS_PGTABLE][at] +
			    res->cls[RESULTS_OTHER][at] > tol)
				unmov++;
		}
		/* Present pages rarely change: sort them only when they do. */
		same = last_present != NULL && memcmp(last_present, present,
		    res->nregions * sizeof *present) == 0;
		if (!same) {
			memcpy(sorted, present, res->nregions * sizeof *sorted);
			qsort(sorted, res->nregions, sizeof *sorted,
			    u64_desc);
			last_present = (uint64_t *)present;
		}
		/*
		 * Pages the tolerance lets an empty region keep are left out
		 * here too, so that ideal <= active and spread >= 1.
		 */
		if (used_active == 0)
			ideal = 0;
		else {
			uint64_t sum = 0;

			ideal = res->nregions;
			for (i = 0; i < res->nregions; i++) {
				sum += sorted[i];
				if (sum >= used_active) {
					ideal = i + 1;
					break;
				}
			}
		}
		used_v[s] = (double)used_total;
		active_v[s] = active;
		empty_v[s] = nempty;
		bytes_v[s] = (double)held * res->page_size;
		ideal_v[s] = ideal;
		spread_v[s] = ideal == 0 ? 1.0 : (double)active / ideal;
		if (unmov_v != NULL)
			unmov_v[s] = unmov;
	}
	free(sorted);
	free(occ_v);
}

/* Usable free share from buddy.csv: free in blocks >= pageblock order. */
static void
metrics_buddy(struct metrics *m)
{
	const struct results *res = m->res;
	const struct results_times *tm = &res->buddy;
	double *all_v, **reg_v;
	uint64_t free_all, high_all, f, h, blocks;
	const uint64_t *b;
	int s, r, o;

	if (tm->n == 0)
		return;
	all_v = series_add(m, tm, "ratio", 1, "usable_free_share");
	reg_v = xcalloc(res->nregions, sizeof *reg_v);
	for (r = 0; r < res->nregions; r++)
		reg_v[r] = series_add(m, tm, "ratio", 0,
		    "usable_free_share.%s", res->regions[r].name);
	for (s = 0; s < tm->n; s++) {
		free_all = high_all = 0;
		for (r = 0; r < res->nregions; r++) {
			b = res->buddy_blocks + ((size_t)s * res->nregions +
			    r) * RESULTS_MAX_ORDER;
			f = h = 0;
			for (o = 0; o < res->buddy_orders; o++) {
				blocks = b[o] << o;
				f += blocks;
				if (o >= res->pageblock_order)
					h += blocks;
			}
			if (f > 0)
				reg_v[r][s] = (double)h / f;
			free_all += f;
			high_all += h;
		}
		if (free_all > 0)
			all_v[s] = (double)high_all / free_all;
	}
	free(reg_v);
}

/* Regions holding Unmovable or Reclaimable pageblocks. */
static void
metrics_pageblocks(struct metrics *m)
{
	const struct results *res = m->res;
	const struct results_times *tm = &res->pageblocks;
	double *v;
	int s, r, n;

	if (tm->n == 0)
		return;
	v = series_add(m, tm, "regions", 1, "unmovable_regions");
	for (s = 0; s < tm->n; s++) {
		for (n = 0, r = 0; r < res->nregions; r++)
			n += res->pb_unmovable[(size_t)s * res->nregions + r] >
			    0;
		v[s] = n;
	}
}

/* Per workload: regions holding >= 1% of its pages, and its shares. */
static void
metrics_placement(struct metrics *m)
{
	const struct results *res = m->res;
	const struct results_times *tm = &res->placement;
	double *regions_v, *pages_v, **share_v;
	const uint64_t *p;
	uint64_t total;
	int s, w, r, n;

	if (tm->n == 0)
		return;
	share_v = xcalloc(res->nregions, sizeof *share_v);
	for (w = 0; w < res->nworkloads; w++) {
		regions_v = series_add(m, tm, "regions", 1,
		    "placement.%s.regions", res->workloads[w]);
		pages_v = series_add(m, tm, "pages", 0, "placement.%s.pages",
		    res->workloads[w]);
		for (r = 0; r < res->nregions; r++)
			share_v[r] = series_add(m, tm, "ratio", 0,
			    "placement.%s.share.%s", res->workloads[w],
			    res->regions[r].name);
		for (s = 0; s < tm->n; s++) {
			p = res->placement_pages + ((size_t)s *
			    res->nworkloads + w) * res->nregions;
			total = 0;
			for (r = 0; r < res->nregions; r++)
				total += p[r];
			pages_v[s] = (double)total;
			if (total == 0) {
				regions_v[s] = 0;
				continue;
			}
			for (n = 0, r = 0; r < res->nregions; r++) {
				share_v[r][s] = (double)p[r] / total;
				if (share_v[r][s] >=
				    m->opt.placement_min_share)
					n++;
			}
			regions_v[s] = n;
		}
	}
	free(share_v);
}

/* Compute every series of a results directory. */
int
metrics_compute(const struct results *res, const struct metrics_options *opt,
    struct metrics **out, char **cause)
{
	struct metrics *m;

	if (res->samples.n == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s/samples.csv:2: "
		    "expected at least one sample (did the run stop before "
		    "its first sample?)", res->dir));
	m = xcalloc(1, sizeof *m);
	m->res = res;
	if (opt != NULL)
		m->opt = *opt;
	else
		metrics_options_default(&m->opt);
	metrics_samples(m);
	metrics_buddy(m);
	metrics_pageblocks(m);
	metrics_placement(m);
	*out = m;
	return (0);
}

/* Free computed metrics (not the results they point into). */
void
metrics_free(struct metrics *m)
{
	int i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nseries; i++) {
		free(m->series[i].name);
		free(m->series[i].v);
	}
	free(m->series);
	free(m->occupancy);
	free(m->empty);
	free(m);
}

/* A series by name, or NULL. */
const struct metric_series *
metrics_find(const struct metrics *m, const char *name)
{
	int i;

	for (i = 0; i < m->nseries; i++) {
		if (strcmp(m->series[i].name, name) == 0)
			return (&m->series[i]);
	}
	return (NULL);
}

/*
 * Reduce a series over one phase.  The time-weighted mean holds each value
 * until the next point of the phase; the last point holds until the phase's
 * phase_end event when there is one.  NAN points (undefined, e.g. a usable
 * share with no free memory) are skipped.  Returns the number of points.
 */
int
metrics_reduce(const struct metrics *m, const struct metric_series *s,
    int phase, struct metric_reduction *r)
{
	const struct results_times *tm = s->times;
	double sum = 0, wsum = 0, wtotal = 0, end, dt;
	int i, last = -1;

	memset(r, 0, sizeof *r);
	for (i = 0; i < tm->n; i++) {
		if (tm->phase[i] != phase || isnan(s->v[i]))
			continue;
		if (last >= 0) {
			dt = tm->t[i] - tm->t[last];
			wsum += s->v[last] * dt;
			wtotal += dt;
		}
		if (r->n == 0 || s->v[i] < r->min)
			r->min = s->v[i];
		if (r->n == 0 || s->v[i] > r->max)
			r->max = s->v[i];
		sum += s->v[i];
		r->n++;
		last = i;
	}
	if (r->n == 0)
		return (0);
	end = results_phase_end(m->res, phase);
	if (!isnan(end) && end > tm->t[last]) {
		dt = end - tm->t[last];
		wsum += s->v[last] * dt;
		wtotal += dt;
	}
	r->mean = sum / r->n;
	r->final = s->v[last];
	r->twmean = wtotal > 0 ? wsum / wtotal : r->mean;
	return (r->n);
}

/* Append one summary row. */
static void
summary_add(struct summary *sum, int phase, const char *unit, int headline,
    double value, const char *fmt, ...) RB_PRINTF(6, 7);

static void
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

/* Workload figures of one phase: "total" rows, else the sum of threads. */
static void
summarize_workloads(const struct results *res, int phase, struct summary *sum)
{
	const struct results_workload_row *w, *x;
	double total;
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
		summary_add(sum, phase, w->unit, 1, total, "workload.%s.%s",
		    w->workload, w->metric);
	}
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
			summary_add(sum, p, "samples", 1, n, "samples");
			summary_add(sum, p, "s", 1, last - first,
			    "duration_s");
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

/*
 * The point of a time base at or soonest after time t in a phase (phase -1:
 * any); the phase's last point when none comes after; -1 when the phase
 * has none.  Checkpoints map to samples, buddy or placement rows this way.
 */
int
metrics_point_at(const struct results_times *tm, int phase, double t)
{
	int i, last = -1;

	for (i = 0; i < tm->n; i++) {
		if (phase >= 0 && tm->phase[i] != phase)
			continue;
		if (tm->t[i] >= t - 0.0005)
			return (i);
		last = i;
	}
	return (last);
}

/* The sample at or soonest after time t in a phase (see above). */
int
metrics_sample_at(const struct results *res, int phase, double t)
{
	return (metrics_point_at(&res->samples, phase, t));
}
