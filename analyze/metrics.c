/*
 * Region metrics per sample (docs/metrics.md) and their reductions per
 * phase.  Everything here is computed from struct results alone, so analyze,
 * compare, gate and the charts read the same numbers.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "log.h"
#include "metrics.h"
#include "quality.h"
#include "region-metrics.h"

/* The defaults the CLI documents. */
void
metrics_options_default(struct metrics_options *opt)
{
	opt->empty_tolerance = 0;
	opt->placement_min_share = 0.01;
	opt->referenced_min_share = 0.01;
	opt->referenced_min_bytes = 4 << 20;
}

/*
 * Add a series of metric id (its parts, when its name has any) with a
 * point per time of times and return its value array (NAN-filled).
 */
static double *
series_add(struct metrics *m, const struct results_times *times,
    enum metric_id id, const char *part1, const char *part2)
{
	struct metric_series *s;
	int i;

	m->series = xreallocarray(m->series, m->nseries + 1,
	    sizeof *m->series);
	s = &m->series[m->nseries++];
	s->name = metric_name(id, part1, part2);
	s->unit = metric_defs[id].unit;
	s->headline = metric_defs[id].headline;
	s->times = times;
	s->v = xmalloc((times->n > 0 ? times->n : 1) * sizeof *s->v);
	for (i = 0; i < times->n; i++)
		s->v[i] = NAN;
	return (s->v);
}

/* The state of region value at (sample * nregions + region). */
static enum region_state
metrics_state(const struct metrics *m, size_t at)
{
	const struct results *res = m->res;
	uint64_t un = res->uninit != NULL ? res->uninit[at] : 0;

	if (res->partial != NULL && res->partial[at])
		return (region_metrics_state_sampled(res->present[at],
		    res->used[at], res->used_lo[at], un,
		    m->opt.empty_tolerance));
	return (region_metrics_state(res->present[at], res->used[at], un,
	    m->opt.empty_tolerance));
}

/* used_pages: used pages of every region together. */
static void
metrics_used_pages(struct metrics *m)
{
	const struct results *res = m->res;
	double *v = series_add(m, &res->samples, METRIC_USED_PAGES, NULL,
	    NULL);
	uint64_t used;
	size_t at;
	int s, r;

	for (s = 0; s < res->samples.n; s++) {
		used = 0;
		at = (size_t)s * res->nregions;
		for (r = 0; r < res->nregions; r++)
			used += res->used[at + r];
		v[s] = (double)used;
	}
}

/*
 * active_regions, empty_regions, empty_bytes (present bytes of empty
 * regions: what could be powered down), ideal_regions and spread_index,
 * by the rules of region-metrics.c.
 */
static void
metrics_regions(struct metrics *m)
{
	const struct results *res = m->res;
	const struct results_times *tm = &res->samples;
	const uint64_t *present, *last_present = NULL;
	double *active_v, *empty_v, *bytes_v, *ideal_v, *spread_v;
	double *unproven_v = NULL;
	struct region_sample rs;
	uint64_t *sorted;
	int s;

	active_v = series_add(m, tm, METRIC_ACTIVE_REGIONS, NULL, NULL);
	empty_v = series_add(m, tm, METRIC_EMPTY_REGIONS, NULL, NULL);
	bytes_v = series_add(m, tm, METRIC_EMPTY_BYTES, NULL, NULL);
	ideal_v = series_add(m, tm, METRIC_IDEAL_REGIONS, NULL, NULL);
	spread_v = series_add(m, tm, METRIC_SPREAD_INDEX, NULL, NULL);
	/* Only runs with sampled scans have regions neither proven. */
	if (res->partial != NULL)
		unproven_v = series_add(m, tm, METRIC_UNPROVEN_REGIONS,
		    NULL, NULL);
	sorted = xcalloc(res->nregions + 1, sizeof *sorted);
	for (s = 0; s < tm->n; s++) {
		present = res->present + (size_t)s * res->nregions;
		/* Present pages rarely change: sort them only when they do. */
		if (last_present == NULL || memcmp(last_present, present,
		    res->nregions * sizeof *present) != 0) {
			region_metrics_sort_present(present, res->nregions,
			    sorted);
			last_present = present;
		}
		region_metrics_sample(present, res->used + (size_t)s *
		    res->nregions, res->uninit != NULL ? res->uninit +
		    (size_t)s * res->nregions : NULL, res->used_lo != NULL ?
		    res->used_lo + (size_t)s * res->nregions : NULL,
		    res->partial != NULL ? res->partial + (size_t)s *
		    res->nregions : NULL, sorted, res->nregions,
		    m->opt.empty_tolerance, &rs);
		active_v[s] = rs.active;
		empty_v[s] = rs.empty;
		bytes_v[s] = (double)rs.empty_pages * res->page_size;
		ideal_v[s] = rs.ideal;
		spread_v[s] = rs.spread_index;
		if (unproven_v != NULL)
			unproven_v[s] = rs.unproven;
	}
	free(sorted);
}

/*
 * unmovable_used_regions: regions holding more unmovable used pages (slab,
 * page tables, other kernel) than the tolerance; kpageflags runs only.
 */
static void
metrics_unmovable_used(struct metrics *m)
{
	const struct results *res = m->res;
	uint64_t unmov;
	double *v;
	size_t at;
	int s, r;

	if (res->cls[RESULTS_SLAB] == NULL)
		return;
	v = series_add(m, &res->samples, METRIC_UNMOVABLE_USED_REGIONS,
	    NULL, NULL);
	for (s = 0; s < res->samples.n; s++) {
		unmov = 0;
		for (r = 0; r < res->nregions; r++) {
			at = (size_t)s * res->nregions + r;
			if (res->cls[RESULTS_SLAB][at] +
			    res->cls[RESULTS_PGTABLE][at] +
			    res->cls[RESULTS_OTHER][at] > m->opt.empty_tolerance)
				unmov++;
		}
		v[s] = unmov;
	}
}

/*
 * occupancy.<region> (used / present) and the per-sample occupancy and
 * empty arrays charts read.
 */
static void
metrics_occupancy(struct metrics *m)
{
	const struct results *res = m->res;
	const struct results_times *tm = &res->samples;
	double **occ_v;
	size_t at;
	int s, r;

	m->occupancy = xcalloc((size_t)tm->n * res->nregions + 1,
	    sizeof *m->occupancy);
	m->empty = xcalloc((size_t)tm->n * res->nregions + 1, 1);
	m->state = xcalloc((size_t)tm->n * res->nregions + 1, 1);
	occ_v = xcalloc(res->nregions + 1, sizeof *occ_v);
	for (r = 0; r < res->nregions; r++)
		occ_v[r] = series_add(m, tm, METRIC_OCCUPANCY,
		    res->regions[r].name, NULL);
	for (s = 0; s < tm->n; s++) {
		for (r = 0; r < res->nregions; r++) {
			at = (size_t)s * res->nregions + r;
			m->occupancy[at] = res->present[at] > 0 ?
			    (double)res->used[at] / res->present[at] : 0.0;
			m->state[at] = metrics_state(m, at);
			m->empty[at] = m->state[at] == REGION_EMPTY;
			occ_v[r][s] = m->occupancy[at];
		}
	}
	free(occ_v);
}

/*
 * The aggregation interval of a run's references.csv: the median gap
 * between consecutive intervals of one phase (DAMON's interval, whatever
 * reading it late added to a few), or 1 s, the interval the recorder
 * asks DAMON for, when no phase has two intervals.
 */
double
metrics_references_window(const struct results *res)
{
	const struct results_times *tm = &res->references;
	double *gap, w = 1.0;
	size_t n = 0;
	int i;

	gap = xcalloc(tm->n + 1, sizeof *gap);
	for (i = 1; i < tm->n; i++) {
		if (tm->phase[i] == tm->phase[i - 1] && tm->t[i] > tm->t[i - 1])
			gap[n++] = tm->t[i] - tm->t[i - 1];
	}
	if (n > 0) {
		gsl_sort(gap, 1, n);
		w = gsl_stats_median_from_sorted_data(gap, 1, n);
	}
	free(gap);
	return (w);
}

/*
 * The references interval allocation sample s is joined to
 * (docs/metrics.md, "Power states"): the latest interval of its phase
 * that ended at or before it, at most window seconds (one aggregation
 * interval) earlier; else the first interval of its phase that ends
 * within window after it, the one the sample lies in; else -1, no
 * reading.  Both time bases are sorted, so a binary search finds where
 * to look and the window bounds the walk.
 */
int
metrics_references_at(const struct results *res, int s, double window)
{
	const struct results_times *tm = &res->references;
	double t = res->samples.t[s], eps = 0.0005;	/* t_s has 1 ms */
	int phase = res->samples.phase[s], lo = 0, hi = tm->n, mid, i;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tm->t[mid] <= t + eps)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo - 1; i >= 0 && tm->t[i] >= t - window - eps; i--) {
		if (tm->phase[i] == phase)
			return (i);
	}
	for (i = lo; i < tm->n && tm->t[i] <= t + window + eps; i++) {
		if (tm->phase[i] == phase)
			return (i);
	}
	return (-1);
}

/*
 * Did DAMON see region value at (slot * nregions + region) referenced:
 * more than the tolerance of its watched bytes?  -1 when DAMON watched
 * none of it (no System RAM there, or no row), which says nothing.
 */
static int
metrics_referenced(const struct metrics *m, size_t at)
{
	const struct results *res = m->res;
	uint64_t mon = res->ref_monitored[at];
	double floor;

	if (mon == 0)
		return (-1);
	floor = fmax(m->opt.referenced_min_share * (double)mon,
	    (double)m->opt.referenced_min_bytes);
	return ((double)res->ref_referenced[at] > floor);
}

/*
 * The power state of a region from its allocation state and whether it
 * was referenced.  Only evidence lowers a state: off needs a region
 * proven empty (an unproven one may hold pages the scan did not read),
 * self-refresh needs DAMON to have watched the region and seen it idle;
 * a region in use that DAMON did not watch stays on.
 */
static enum metrics_power
metrics_power_state(enum region_state st, int referenced)
{
	switch (st) {
	case REGION_EMPTY:
		return (METRICS_POWER_OFF);
	case REGION_ACTIVE:
	case REGION_UNPROVEN:
		return (referenced == 0 ? METRICS_POWER_SELF_REFRESH :
		    METRICS_POWER_ON);
	case REGION_HOLE:
	case REGION_UNINIT:
		break;
	}
	return (METRICS_POWER_NONE);
}

/*
 * From references.csv (DAMON), per allocation sample joined to one
 * interval: referenced_regions, idle_allocated_regions (active by
 * allocation, watched and not referenced: the self-refresh candidates),
 * the share of regions in each power state and their present bytes.
 * Samples without an interval to join are NAN; runs without the file
 * have none of these series.
 */
static void
metrics_references(struct metrics *m)
{
	static const enum metric_id shares[METRICS_POWER_NSTATES] = {
		[METRICS_POWER_OFF] = METRIC_STATE_OFF_SHARE,
		[METRICS_POWER_SELF_REFRESH] = METRIC_STATE_SELF_REFRESH_SHARE,
		[METRICS_POWER_ON] = METRIC_STATE_ON_SHARE,
	};
	static const enum metric_id bytes_ids[METRICS_POWER_NSTATES] = {
		[METRICS_POWER_OFF] = METRIC_STATE_OFF_BYTES,
		[METRICS_POWER_SELF_REFRESH] = METRIC_STATE_SELF_REFRESH_BYTES,
		[METRICS_POWER_ON] = METRIC_STATE_ON_BYTES,
	};
	const struct results *res = m->res;
	const struct results_times *tm = &res->samples;
	double *ref_v, *idle_v, *share_v[METRICS_POWER_NSTATES];
	double *bytes_v[METRICS_POWER_NSTATES], window;
	double bytes[METRICS_POWER_NSTATES];
	int count[METRICS_POWER_NSTATES], s, r, k, slot, refd, nref, nidle;
	int total;
	size_t at;
	enum metrics_power p;

	if (res->references.n == 0)
		return;
	ref_v = series_add(m, tm, METRIC_REFERENCED_REGIONS, NULL, NULL);
	idle_v = series_add(m, tm, METRIC_IDLE_ALLOCATED_REGIONS, NULL,
	    NULL);
	for (k = METRICS_POWER_OFF; k < METRICS_POWER_NSTATES; k++)
		share_v[k] = series_add(m, tm, shares[k], NULL, NULL);
	for (k = METRICS_POWER_OFF; k < METRICS_POWER_NSTATES; k++)
		bytes_v[k] = series_add(m, tm, bytes_ids[k], NULL, NULL);
	m->power = xcalloc((size_t)tm->n * res->nregions + 1, 1);
	window = metrics_references_window(res);
	for (s = 0; s < tm->n; s++) {
		if ((slot = metrics_references_at(res, s, window)) < 0)
			continue;
		memset(count, 0, sizeof count);
		memset(bytes, 0, sizeof bytes);
		nref = nidle = total = 0;
		for (r = 0; r < res->nregions; r++) {
			at = (size_t)s * res->nregions + r;
			refd = metrics_referenced(m, (size_t)slot *
			    res->nregions + r);
			nref += refd == 1;
			nidle += refd == 0 && m->state[at] == REGION_ACTIVE;
			p = metrics_power_state(m->state[at], refd);
			m->power[at] = p;
			if (p == METRICS_POWER_NONE)
				continue;
			count[p]++;
			bytes[p] += (double)res->present[at] * res->page_size;
			total++;
		}
		ref_v[s] = nref;
		idle_v[s] = nidle;
		for (k = METRICS_POWER_OFF; k < METRICS_POWER_NSTATES; k++) {
			share_v[k][s] = total > 0 ? (double)count[k] / total :
			    NAN;
			bytes_v[k][s] = bytes[k];
		}
	}
}

/* Per-sample series from samples.csv, headline series first. */
static void
metrics_samples(struct metrics *m)
{
	metrics_used_pages(m);
	metrics_regions(m);
	metrics_unmovable_used(m);
	metrics_occupancy(m);
	metrics_references(m);
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
	all_v = series_add(m, tm, METRIC_USABLE_FREE_SHARE, NULL, NULL);
	reg_v = xcalloc(res->nregions, sizeof *reg_v);
	for (r = 0; r < res->nregions; r++)
		reg_v[r] = series_add(m, tm, METRIC_USABLE_FREE_SHARE_REGION,
		    res->regions[r].name, NULL);
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
	v = series_add(m, tm, METRIC_UNMOVABLE_REGIONS, NULL, NULL);
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
		regions_v = series_add(m, tm, METRIC_PLACEMENT_REGIONS,
		    res->workloads[w], NULL);
		pages_v = series_add(m, tm, METRIC_PLACEMENT_PAGES,
		    res->workloads[w], NULL);
		for (r = 0; r < res->nregions; r++)
			share_v[r] = series_add(m, tm, METRIC_PLACEMENT_SHARE,
			    res->workloads[w], res->regions[r].name);
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
	free(m->state);
	free(m->power);
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

/* x clamped to [lo, hi]. */
static double
metrics_clamp(double x, double lo, double hi)
{
	return (x < lo ? lo : x > hi ? hi : x);
}

/*
 * Reduce a series over one phase.  The time-weighted mean holds each value
 * until the next point of the phase; the last point holds until the phase's
 * phase_end event when there is one.  NAN points (undefined, e.g. a usable
 * share with no free memory) are skipped.  Both means are summed relative
 * to the first point and kept within [min, max], so a series whose points
 * are all equal reduces to exactly that value.  Returns the number of
 * points.
 */
int
metrics_reduce(const struct metrics *m, const struct metric_series *s,
    int phase, struct metric_reduction *r)
{
	const struct results_times *tm = s->times;
	double sum = 0, wsum = 0, wtotal = 0, end, dt, v0 = 0;
	int i, last = -1;

	memset(r, 0, sizeof *r);
	for (i = 0; i < tm->n; i++) {
		if (tm->phase[i] != phase || isnan(s->v[i]))
			continue;
		if (last >= 0) {
			dt = tm->t[i] - tm->t[last];
			wsum += (s->v[last] - v0) * dt;
			wtotal += dt;
		} else
			v0 = s->v[i];
		if (r->n == 0 || s->v[i] < r->min)
			r->min = s->v[i];
		if (r->n == 0 || s->v[i] > r->max)
			r->max = s->v[i];
		sum += s->v[i] - v0;
		r->n++;
		last = i;
	}
	if (r->n == 0)
		return (0);
	end = results_phase_end(m->res, phase);
	if (!isnan(end) && end > tm->t[last]) {
		dt = end - tm->t[last];
		wsum += (s->v[last] - v0) * dt;
		wtotal += dt;
	}
	r->mean = metrics_clamp(v0 + sum / r->n, r->min, r->max);
	r->final = s->v[last];
	r->twmean = wtotal > 0 ? metrics_clamp(v0 + wsum / wtotal, r->min,
	    r->max) : r->mean;
	return (r->n);
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

/*
 * The point of a time base closest to time t in a phase (the earlier one
 * of two as close); -1 when the phase has none.  Placement scans run
 * beside the samples, so the one nearest a checkpoint may come before it.
 */
int
metrics_point_nearest(const struct results_times *tm, int phase, double t)
{
	int i, best = -1;

	for (i = 0; i < tm->n; i++) {
		if (phase >= 0 && tm->phase[i] != phase)
			continue;
		if (best < 0 || fabs(tm->t[i] - t) < fabs(tm->t[best] - t) -
		    0.0005)
			best = i;
	}
	return (best);
}

/* The sample at or soonest after time t in a phase (see above). */
int
metrics_sample_at(const struct results *res, int phase, double t)
{
	return (metrics_point_at(&res->samples, phase, t));
}
