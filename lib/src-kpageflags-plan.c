/*
 * The kpageflags scan's bookkeeping: the parts of exact scans in rotation
 * and which keys a sample counts, the cut of the online pages into one
 * share per thread, the calibration of the cost of a page, the plan of a
 * sampled scan and the estimate of the keys it draws.  The scan itself
 * (the workers and the per-page counting) is src-kpageflags-scan.c.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_cdf.h>

#include "log.h"
#include "units.h"
#include "src-kpageflags-private.h"

/* Whether this sample's scan counts key i exactly (not kept, not drawn). */
int
src_kpageflags_key_scanned(const struct src_kpageflags *kp, int key)
{
	if (kp->sampled)
		return (0);
	return (kp->part < 0 ||
	    kp->region_part[kp->map.keys[key].span] == kp->part);
}

/*
 * Cut the regions into parts of about equal online pages, in the map's
 * order (by node, then pfn), for exact scans in rotation: each region is
 * in one part, so each key is counted whole or kept whole.
 */
void
src_kpageflags_rotation(struct src_kpageflags *kp, uint64_t parts)
{
	const struct region_span *r;
	uint64_t total, sum = 0, n;
	int i;

	kp->region_part = xcalloc(kp->map.nregions > 0 ? kp->map.nregions : 1,
	    sizeof *kp->region_part);
	if (parts > (uint64_t)kp->map.nregions)
		parts = kp->map.nregions > 0 ? (uint64_t)kp->map.nregions : 1;
	if (parts < 1)
		parts = 1;
	kp->rotation = parts;
	kp->part = -1;
	total = src_kpageflags_online(kp, 0, UINT64_MAX);
	for (i = 0; i < kp->map.nregions; i++) {
		r = &kp->map.regions[i];
		n = src_kpageflags_online(kp, r->start_pfn, r->end_pfn);
		/* The part holding the middle of the region's pages. */
		kp->region_part[i] = total == 0 ? 0 :
		    (int)(((double)sum + n / 2.0) * parts / total);
		if (kp->region_part[i] >= (int)parts)
			kp->region_part[i] = (int)parts - 1;
		sum += n;
	}
}

/*
 * Give each thread an equal share of the online pages, cut at pfns aligned
 * to the largest buddy block so that no block is split between threads;
 * or, when auto chose a thread per node, each thread one node.
 */
void
src_kpageflags_cut(struct src_kpageflags *kp)
{
	const struct region_map *map = &kp->map;
	uint64_t total = 0, sum = 0, want, cut, align = 1ULL << kp->maxorder;
	int i, t = 1;

	/* One thread per node: each reads its own node's pages. */
	if (kp->per_node) {
		kp->workers[0].lo = 0;
		for (i = 0, t = 0; i < map->nnodes && t < kp->nthreads; i++) {
			if (src_kpageflags_online(kp, map->nodes[i].start_pfn,
			    map->nodes[i].end_pfn) == 0)
				continue;
			if (t > 0) {
				kp->workers[t - 1].hi = map->nodes[i].start_pfn;
				kp->workers[t].lo = map->nodes[i].start_pfn;
			}
			t++;
		}
		kp->workers[kp->nthreads - 1].hi = UINT64_MAX;
		return;
	}
	for (i = 0; i < map->nsegs; i++) {
		if (map->blocks[map->segs[i].block].online)
			total += map->segs[i].end_pfn - map->segs[i].start_pfn;
	}
	kp->workers[0].lo = 0;
	for (i = 0; i < map->nsegs && t < kp->nthreads; i++) {
		if (!map->blocks[map->segs[i].block].online)
			continue;
		sum += map->segs[i].end_pfn - map->segs[i].start_pfn;
		want = total / kp->nthreads * t;
		while (t < kp->nthreads && sum >= want) {
			cut = map->segs[i].end_pfn - (sum - want);
			cut = (cut + align - 1) & ~(align - 1);
			if (cut < kp->workers[t - 1].lo)
				cut = kp->workers[t - 1].lo;
			kp->workers[t - 1].hi = cut;
			kp->workers[t].lo = cut;
			t++;
			want = total / kp->nthreads * t;
		}
	}
	for (; t < kp->nthreads; t++) {
		kp->workers[t - 1].hi = kp->workers[t - 1].lo;
		kp->workers[t].lo = kp->workers[t - 1].lo;
	}
	kp->workers[kp->nthreads - 1].hi = UINT64_MAX;
}

/* The online pfns of the region map inside [lo, hi). */
uint64_t
src_kpageflags_online(const struct src_kpageflags *kp, uint64_t lo,
    uint64_t hi)
{
	const struct region_map *map = &kp->map;
	uint64_t n = 0, a, b;
	int i;

	for (i = 0; i < map->nsegs; i++) {
		if (!map->blocks[map->segs[i].block].online)
			continue;
		a = map->segs[i].start_pfn > lo ? map->segs[i].start_pfn : lo;
		b = map->segs[i].end_pfn < hi ? map->segs[i].end_pfn : hi;
		if (a < b)
			n += b - a;
	}
	return (n);
}

/* The pfn at which the first off online pfns of the map end. */
static uint64_t
src_kpageflags_online_pfn(const struct src_kpageflags *kp, uint64_t off)
{
	const struct region_map *map = &kp->map;
	uint64_t len;
	int i;

	for (i = 0; i < map->nsegs; i++) {
		if (!map->blocks[map->segs[i].block].online)
			continue;
		len = map->segs[i].end_pfn - map->segs[i].start_pfn;
		if (off < len)
			return (map->segs[i].start_pfn + off);
		off -= len;
	}
	return (0);
}

/* CPU time of the calling thread, in ns. */
static uint64_t
src_kpageflags_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return (0);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

/*
 * Time the scan of a few batches spread over the online pages, on the
 * caller's thread, so that the cost of a sample is known before the
 * first: one batch (4 MiB, 512 Ki pages, about 12 ms on a real kernel)
 * and more only while under SRC_KPAGEFLAGS_CALIB_NS.  The first batch is
 * read once untimed: the kernel's file costs the same every time, but a
 * copy of it (a test tree) would be timed at its first, cold read.  The
 * counters it leaves are overwritten by the first sample.
 */
void
src_kpageflags_calibrate(struct src_kpageflags *kp)
{
	struct src_kpageflags_worker *w = &kp->workers[0];
	uint64_t align = 1ULL << kp->maxorder, t0, c0, lo, next = 0, pfns = 0;
	int i;

	kp->online_pfns = src_kpageflags_online(kp, 0, UINT64_MAX);
	kp->calib_pfns = kp->calib_ns = 0;
	if (kp->online_pfns == 0)
		return;
	w->lo = src_kpageflags_online_pfn(kp, 0) & ~(align - 1);
	w->hi = w->lo + kp->batch_pfns;
	src_kpageflags_scan(w);
	if (w->err != 0)
		return;
	t0 = units_now_ns();
	c0 = src_kpageflags_cpu_ns();
	for (i = 0; i < SRC_KPAGEFLAGS_CALIB_BATCHES; i++) {
		lo = src_kpageflags_online_pfn(kp, kp->online_pfns /
		    SRC_KPAGEFLAGS_CALIB_BATCHES * i);
		w->lo = lo & ~(align - 1);
		if (w->lo < next)
			w->lo = next;
		w->hi = w->lo + kp->batch_pfns;
		if (src_kpageflags_online(kp, w->lo, w->hi) == 0)
			break;
		next = w->hi;
		src_kpageflags_scan(w);
		if (w->err != 0)
			return;
		pfns += src_kpageflags_online(kp, w->lo, w->hi);
		if (units_now_ns() - t0 >= SRC_KPAGEFLAGS_CALIB_NS)
			break;
	}
	kp->calib_ns = units_now_ns() - t0;
	kp->calib_cpu_ns = src_kpageflags_cpu_ns() - c0;
	kp->calib_pfns = pfns;
}

/* The units (max-order windows) over a key's pfns. */
static uint64_t
src_kpageflags_units(const struct src_kpageflags *kp,
    const struct region_key *k)
{
	int o = kp->maxorder;

	if (k->end_pfn <= k->start_pfn)
		return (0);
	return (((k->end_pfn - 1) >> o) - (k->start_pfn >> o) + 1);
}

/*
 * Plan this sample's scan: whole, or in each key a fraction of its units
 * (at least 2, for a variance), drawn from a seed of its own that follows
 * from the run's seed and the sample's number.
 */
void
src_kpageflags_plan(struct src_kpageflags *kp, int sampled)
{
	struct src_kpageflags_est *est;
	uint64_t state = kp->seed ^ (kp->samples * 0xd1b54a32d192ed03ULL);
	int i;

	kp->sampled = sampled;
	if (!sampled)
		return;
	for (i = 0; i < kp->map.nkeys; i++) {
		est = &kp->est[i];
		est->units = src_kpageflags_units(kp, &kp->map.keys[i]);
		est->want = (uint64_t)ceil(kp->fraction * (double)est->units);
		if (est->want < 2)
			est->want = 2;
		if (est->want > est->units)
			est->want = est->units;
		est->seed = src_kpageflags_rand(&state);
	}
}

/* The share of the units a sampled scan reads (>= --scan-fraction). */
double
src_kpageflags_planned_fraction(const struct src_kpageflags *kp)
{
	uint64_t units = 0, want = 0, n;
	int i;

	if (kp->fraction >= 1)
		return (1);
	for (i = 0; i < kp->map.nkeys; i++) {
		n = src_kpageflags_units(kp, &kp->map.keys[i]);
		units += n;
		n = (uint64_t)ceil(kp->fraction * (double)n);
		want += n < 2 ? 2 : n;
	}
	return (units > 0 && want < units ? (double)want / units : 1);
}

/* x times f, rounded. */
static inline uint64_t
src_kpageflags_scale(uint64_t x, double f)
{
	return ((uint64_t)llround((double)x * f));
}

/*
 * Turn what a sampled scan read of each key into estimates of the whole
 * key: every counter times N/n (the expansion estimator of stratified
 * simple random sampling), and a 95 % interval of its free pages from the
 * spread of the units' free pages, with the finite population correction
 * and Student's t at n - 1 degrees of freedom.
 */
void
src_kpageflags_estimate_keys(struct src_kpageflags *kp)
{
	struct src_kpageflags_est *est;
	struct src_kpageflags_acc *a;
	double f, mean, s2, se, t, m, unit = (double)(1ULL << kp->maxorder);
	uint64_t n;
	int i, t_i, c;

	for (i = 0; i < kp->map.nkeys; i++) {
		est = &kp->est[i];
		a = &kp->total[i];
		est->n = 0;
		est->sum = est->sumsq = 0;
		for (t_i = 0; t_i < kp->nthreads; t_i++) {
			est->n += kp->workers[t_i].strat[i].n;
			est->sum += kp->workers[t_i].strat[i].sum;
			est->sumsq += kp->workers[t_i].strat[i].sumsq;
		}
		est->seen_free = a->free;
		est->seen_used = 0;
		for (c = 0; c < SNAP_USED_NCLASS; c++)
			est->seen_used += a->used[c];
		est->partial = est->want < est->units && est->n > 0;
		if (!est->partial)
			continue;
		n = est->n;
		f = (double)est->units / n;
		mean = est->sum / n;
		s2 = n > 1 ? (est->sumsq - n * mean * mean) / (n - 1) : 0;
		if (s2 < 0)
			s2 = 0;
		se = est->units * sqrt((1 - (double)n / est->units) * s2 / n);
		t = n > 1 ? gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) : 0;
		est->lo = est->units * mean - t * se;
		est->hi = est->units * mean + t * se;
		/*
		 * Units all alike (none free, or all wholly free) give no
		 * spread to go by, and a rare kind of unit is easily missed:
		 * then up to 3/n of the units not read may be of another
		 * kind (the rule of three), each by as much as a unit.
		 */
		if (s2 == 0) {
			m = ceil((double)(est->units - n) * 3 / n);
			if (m > est->units - n)
				m = (double)(est->units - n);
			est->lo -= m * mean;
			est->hi += m * ((double)unit - mean);
		}
		if (est->lo < (double)est->seen_free)
			est->lo = (double)est->seen_free;

		a->free = src_kpageflags_scale(a->free, f);
		a->zero = src_kpageflags_scale(a->zero, f);
		a->reserved = src_kpageflags_scale(a->reserved, f);
		a->firmware = src_kpageflags_scale(a->firmware, f);
		a->present = a->free + a->zero;
		for (c = 0; c < SNAP_USED_NCLASS; c++) {
			a->used[c] = src_kpageflags_scale(a->used[c], f);
			a->present += a->used[c];
		}
		if (a->reserved > a->used[SNAP_USED_OTHER])
			a->reserved = a->used[SNAP_USED_OTHER];
		for (c = 0; c < SNAP_MAX_ORDERS; c++)
			a->blocks[c] = src_kpageflags_scale(a->blocks[c], f);
	}
}

