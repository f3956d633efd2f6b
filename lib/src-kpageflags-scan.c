/*
 * The scan of the kpageflags source: every sample reads /proc/kpageflags
 * over the memory blocks that are online, in batches of 4 MiB, and counts
 * per region key the pages that exist, the free (KPF_BUDDY) pages with
 * their buddy orders, and the used pages by class.  With --scan-threads
 * the online pages are cut into equal shares at max-order-aligned pfns,
 * one per thread; the threads wait at barriers between samples.
 *
 * This is the hot loop of the program (make perf: kpageflags_scan_ratio):
 * nothing here allocates, and the per-page functions stay in this file so
 * that the compiler can inline them.  The bookkeeping around the scan
 * (parts in rotation, the threads' shares, calibration and the plan of a
 * sampled scan) is src-kpageflags-plan.c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "units.h"
#include "src-kpageflags-private.h"

/* Stable bits of include/uapi/linux/kernel-page-flags.h. */
#define KPF_UPTODATE		(1ULL << 3)
#define KPF_DIRTY		(1ULL << 4)
#define KPF_LRU			(1ULL << 5)
#define KPF_SLAB		(1ULL << 7)
#define KPF_WRITEBACK		(1ULL << 8)
#define KPF_BUDDY		(1ULL << 10)
#define KPF_MMAP		(1ULL << 11)
#define KPF_ANON		(1ULL << 12)
#define KPF_SWAPCACHE		(1ULL << 13)
#define KPF_NOPAGE		(1ULL << 20)
#define KPF_OFFLINE		(1ULL << 23)
#define KPF_PGTABLE		(1ULL << 26)
/* Kernel-hacker bits (include/linux/kernel-page-flags.h). */
#define KPF_RESERVED		(1ULL << 32)
#define KPF_MAPPEDTODISK	(1ULL << 34)

#define KPF_ABSENT	(KPF_NOPAGE | KPF_OFFLINE)
#define KPF_FILE_MASK	(KPF_LRU | KPF_MMAP | KPF_SWAPCACHE | \
	KPF_UPTODATE | KPF_DIRTY | KPF_WRITEBACK | KPF_MAPPEDTODISK)

/* Split a run of free pages [a, b) into the largest aligned blocks. */
static inline void
src_kpageflags_split(uint64_t *blocks, uint64_t a, uint64_t b, int maxorder)
{
	int k;

	while (a < b) {
		k = a == 0 ? maxorder : __builtin_ctzll(a);
		if (k > maxorder)
			k = maxorder;
		while ((1ULL << k) > b - a)
			k--;
		blocks[k]++;
		a += 1ULL << k;
	}
}

/* Class of a used page (not free, has flags) into the counters. */
static inline void
src_kpageflags_classify(struct src_kpageflags_acc *a, uint64_t v)
{
	if (v & KPF_RESERVED) {
		a->reserved++;
		a->used[SNAP_USED_OTHER]++;
	} else if (v & KPF_SLAB)
		a->used[SNAP_USED_SLAB]++;
	else if (v & KPF_PGTABLE)
		a->used[SNAP_USED_PGTABLE]++;
	else if (v & KPF_ANON)
		a->used[SNAP_USED_ANON]++;
	else if (v & KPF_FILE_MASK)
		a->used[SNAP_USED_FILE]++;
	else
		a->used[SNAP_USED_OTHER]++;
}

/*
 * Count n pages from pfn p whose flags are f, on kernels that mark every
 * page of a free block: runs of BUDDY pages are split into aligned blocks.
 * The piece always ends at a key edge or a max-order-aligned pfn, where a
 * buddy block cannot continue.
 */
static void
src_kpageflags_piece_all(struct src_kpageflags_acc *a, const uint64_t *f,
    uint64_t p, uint64_t n, int maxorder)
{
	uint64_t i, v, absent = 0, zero = 0, nfree = 0, run = UINT64_MAX;

	for (i = 0; i < n; i++) {
		v = f[i];
		if (v & KPF_BUDDY) {
			if (run == UINT64_MAX)
				run = i;
			continue;
		}
		if (run != UINT64_MAX) {
			src_kpageflags_split(a->blocks, p + run, p + i,
			    maxorder);
			nfree += i - run;
			run = UINT64_MAX;
		}
		if (v == 0)
			zero++;
		else if (v & KPF_ABSENT)
			absent++;
		else
			src_kpageflags_classify(a, v);
	}
	if (run != UINT64_MAX) {
		src_kpageflags_split(a->blocks, p + run, p + n, maxorder);
		nfree += n - run;
	}
	a->present += n - absent;
	a->free += nfree;
	a->zero += zero;
}

/*
 * The same on kernels that mark only the head of a free block: the block
 * is the largest aligned one inside the piece whose other pages all have
 * no flags (rule "oldA" of the feasibility notes).
 */
static void
src_kpageflags_piece_head(struct src_kpageflags_acc *a, const uint64_t *f,
    uint64_t p, uint64_t n, int maxorder)
{
	uint64_t i, j, lim, v, absent = 0, size;
	int k;

	for (i = 0; i < n; ) {
		v = f[i];
		if (v & KPF_BUDDY) {
			k = p + i == 0 ? maxorder : __builtin_ctzll(p + i);
			if (k > maxorder)
				k = maxorder;
			while ((1ULL << k) > n - i)
				k--;
			lim = i + (1ULL << k);
			for (j = i + 1; j < lim && f[j] == 0; j++)
				;
			k = 63 - __builtin_clzll(j - i);
			size = 1ULL << k;
			a->blocks[k]++;
			a->free += size;
			i += size;
			continue;
		}
		if (v == 0)
			a->zero++;
		else if (v & KPF_ABSENT)
			absent++;
		else
			src_kpageflags_classify(a, v);
		i++;
	}
	a->present += n - absent;
}

/*
 * A piece inside a firmware range, counted as usual first: its PG_reserved
 * pages (classed as reserved, "other" used pages) are the firmware's, not
 * RAM, so they leave present and used for their own counter.
 */
static void
src_kpageflags_firmware(struct src_kpageflags_acc *a, const uint64_t *f,
    uint64_t n)
{
	uint64_t i, v, fw = 0;

	for (i = 0; i < n; i++) {
		v = f[i];
		if (v != 0 && (v & (KPF_BUDDY | KPF_ABSENT)) == 0 &&
		    (v & KPF_RESERVED))
			fw++;
	}
	a->present -= fw;
	a->reserved -= fw;
	a->used[SNAP_USED_OTHER] -= fw;
	a->firmware += fw;
}

/*
 * Read pfns [p, end) into buf.  The file must hold 8 bytes for every pfn
 * up to the end of the zones; pfns past both are absent.  Returns 0, an
 * errno, or -1 for a file cut short or of odd length (*off says where).
 */
static int
src_kpageflags_pread(struct src_kpageflags *kp, uint64_t *buf, uint64_t p,
    uint64_t end, uint64_t *off)
{
	size_t want = (end - p) * sizeof *buf, got = 0;
	ssize_t n;
	uint64_t i;

	while (got < want) {
		n = pread(kp->fd, (char *)buf + got, want - got,
		    (off_t)(p * sizeof *buf + got));
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return (errno);
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got % sizeof *buf != 0 || (got < want &&
	    p + got / sizeof *buf < kp->span_end)) {
		*off = p * sizeof *buf + got;
		return (-1);
	}
	for (i = got / sizeof *buf; i < end - p; i++)
		buf[i] = KPF_NOPAGE;
	return (0);
}

/* The first segment that ends after pfn p (binary search). */
static int
src_kpageflags_first_seg(const struct region_map *map, uint64_t p)
{
	int lo = 0, hi = map->nsegs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (map->segs[mid].end_pfn <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

/*
 * Add the online segments of [lo, hi) to w->acc; 0, or -1 with w->err
 * set when a read failed.
 */
static int
src_kpageflags_scan_range(struct src_kpageflags_worker *w, uint64_t lo,
    uint64_t hi)
{
	struct src_kpageflags *kp = w->kp;
	const struct region_map *map = &kp->map;
	const struct region_seg *sg = map->segs;
	uint64_t align = 1ULL << kp->maxorder, p = lo, wend, e, a, b;
	int s, t, u, nsegs = map->nsegs;

	s = src_kpageflags_first_seg(map, p);
	for (;;) {
		while (s < nsegs && (sg[s].end_pfn <= p ||
		    !map->blocks[sg[s].block].online))
			s++;
		if (s == nsegs)
			break;
		if (sg[s].start_pfn > p)
			p = sg[s].start_pfn;
		if (p >= hi)
			break;
		wend = p + kp->batch_pfns;
		if (wend % align != 0)
			wend -= wend % align;
		if (wend > hi)
			wend = hi;
		t = s;
		e = sg[s].end_pfn;
		while (e < wend && t + 1 < nsegs && sg[t + 1].start_pfn == e &&
		    map->blocks[sg[t + 1].block].online)
			e = sg[++t].end_pfn;
		if (wend > e)
			wend = e;
		if ((w->err = src_kpageflags_pread(kp, w->buf, p, wend,
		    &w->err_off)) != 0) {
			w->err_pfn = p;
			return (-1);
		}
		for (u = s; u <= t; u++) {
			a = sg[u].start_pfn > p ? sg[u].start_pfn : p;
			b = sg[u].end_pfn < wend ? sg[u].end_pfn : wend;
			if (a >= b)
				continue;
			if (kp->head_rule)
				src_kpageflags_piece_head(&w->acc[sg[u].key],
				    w->buf + (a - p), a, b - a, kp->maxorder);
			else
				src_kpageflags_piece_all(&w->acc[sg[u].key],
				    w->buf + (a - p), a, b - a, kp->maxorder);
			if (sg[u].firmware)
				src_kpageflags_firmware(&w->acc[sg[u].key],
				    w->buf + (a - p), b - a);
		}
		p = wend;
	}
	return (0);
}

/* A step of splitmix64: the draws of the sampled scans. */
inline uint64_t
src_kpageflags_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

/*
 * A sampled scan of the keys: each key draws its units afresh (selection
 * sampling, Knuth's algorithm S: a sorted simple random sample without
 * replacement, in one pass and no memory), from a seed that every thread
 * derives alike, and each thread reads the drawn units that start in its
 * share of the pfns.  A key drawn whole is read whole.
 */
static void
src_kpageflags_scan_sampled(struct src_kpageflags_worker *w)
{
	struct src_kpageflags *kp = w->kp;
	const struct region_map *map = &kp->map;
	const struct region_key *k;
	const struct src_kpageflags_est *est;
	struct src_kpageflags_strat *st;
	uint64_t unit = 1ULL << kp->maxorder, state, j, left, first, a, b;
	uint64_t before;
	double y;
	int i;

	memset(w->strat, 0, map->nkeys * sizeof *w->strat);
	for (i = 0; i < map->nkeys; i++) {
		k = &map->keys[i];
		est = &kp->est[i];
		st = &w->strat[i];
		if (est->want == 0)
			continue;
		if (est->want >= est->units) {
			a = k->start_pfn > w->lo ? k->start_pfn : w->lo;
			b = k->end_pfn < w->hi ? k->end_pfn : w->hi;
			if (a < b && src_kpageflags_scan_range(w, a, b) != 0)
				return;
			continue;
		}
		state = est->seed;
		left = est->want;
		first = k->start_pfn / unit;
		for (j = 0; j < est->units && left > 0; j++) {
			/* Take unit j with probability left / (N - j). */
			if ((src_kpageflags_rand(&state) >> 11) *
			    (1.0 / 9007199254740992.0) * (est->units - j) >=
			    left)
				continue;
			left--;
			a = (first + j) * unit;
			if (a < w->lo || a >= w->hi)
				continue;
			b = a + unit < k->end_pfn ? a + unit : k->end_pfn;
			if (a < k->start_pfn)
				a = k->start_pfn;
			before = w->acc[i].free;
			if (src_kpageflags_scan_range(w, a, b) != 0)
				return;
			y = (double)(w->acc[i].free - before);
			st->n++;
			st->sum += y;
			st->sumsq += y * y;
		}
	}
}

/* A rotated scan: the regions of this sample's part in the thread's share. */
static void
src_kpageflags_scan_part(struct src_kpageflags_worker *w)
{
	const struct src_kpageflags *kp = w->kp;
	const struct region_span *r;
	uint64_t a, b;
	int i;

	for (i = 0; i < kp->map.nregions; i++) {
		if (kp->region_part[i] != kp->part)
			continue;
		r = &kp->map.regions[i];
		a = r->start_pfn > w->lo ? r->start_pfn : w->lo;
		b = r->end_pfn < w->hi ? r->end_pfn : w->hi;
		if (a < b && src_kpageflags_scan_range(w, a, b) != 0)
			return;
	}
}

/* One thread's scan: its share of the pfns, whole, in part or sampled. */
void
src_kpageflags_scan(struct src_kpageflags_worker *w)
{
	memset(w->acc, 0, w->kp->map.nkeys * sizeof *w->acc);
	w->err = 0;
	if (w->kp->sampled)
		src_kpageflags_scan_sampled(w);
	else if (w->kp->part >= 0)
		src_kpageflags_scan_part(w);
	else
		src_kpageflags_scan_range(w, w->lo, w->hi);
}

/* Body of the helper threads: one scan per round of the barriers. */
static void *
src_kpageflags_thread(void *arg)
{
	struct src_kpageflags_worker *w = arg;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		pthread_barrier_wait(&w->kp->start);
		if (w->kp->quit)
			break;
		src_kpageflags_scan(w);
		pthread_barrier_wait(&w->kp->done);
	}
	return (NULL);
}

/* Run one scan on every thread and add the counters up per key. */
int
src_kpageflags_run(struct src_kpageflags *kp, char **cause)
{
	const struct src_kpageflags_acc *a;
	struct src_kpageflags_acc *tot;
	int i, t, k;

	src_kpageflags_cut(kp);
	if (kp->nthreads > 1)
		pthread_barrier_wait(&kp->start);
	src_kpageflags_scan(&kp->workers[0]);
	if (kp->nthreads > 1)
		pthread_barrier_wait(&kp->done);
	for (t = 0; t < kp->nthreads; t++) {
		if (kp->workers[t].err == -1)
			return (fail_with(cause, RB_EXIT_INPUT, "%s: cut short "
			    "at offset %" PRIu64 ": expected 8 bytes for every "
			    "pfn up to pfn %" PRIu64 " (the end of the zones)",
			    kp->path, kp->workers[t].err_off, kp->span_end));
		if (kp->workers[t].err != 0)
			return (fail_with(cause, RB_EXIT_ENV, "%s: pread at pfn"
			    " %" PRIu64 ": %s", kp->path,
			    kp->workers[t].err_pfn,
			    strerror(kp->workers[t].err)));
	}
	memcpy(kp->total, kp->workers[0].acc, kp->map.nkeys *
	    sizeof *kp->total);
	for (t = 1; t < kp->nthreads; t++) {
		for (i = 0; i < kp->map.nkeys; i++) {
			a = &kp->workers[t].acc[i];
			tot = &kp->total[i];
			tot->present += a->present;
			tot->free += a->free;
			tot->zero += a->zero;
			tot->reserved += a->reserved;
			tot->firmware += a->firmware;
			for (k = 0; k < SNAP_USED_NCLASS; k++)
				tot->used[k] += a->used[k];
			for (k = 0; k < SNAP_MAX_ORDERS; k++)
				tot->blocks[k] += a->blocks[k];
		}
	}
	if (kp->sampled)
		src_kpageflags_estimate_keys(kp);
	else if (kp->part >= 0) {
		/* The keys of other parts keep their last exact counts. */
		for (i = 0; i < kp->map.nkeys; i++) {
			if (src_kpageflags_key_scanned(kp, i))
				kp->kept[i] = kp->total[i];
			else
				kp->total[i] = kp->kept[i];
		}
	} else
		memcpy(kp->kept, kp->total, kp->map.nkeys * sizeof *kp->kept);
	return (0);
}

/*
 * Set up nthreads scanners (buffers and counters), and start the helper
 * threads when there is more than one; the caller's thread is the first.
 */
void
src_kpageflags_start_workers(struct src_kpageflags *kp, long nthreads)
{
	struct src_kpageflags_worker *w;
	void *buf;
	int rc, t;

	kp->nthreads = nthreads > 0 ? (int)nthreads : 1;
	if (kp->nthreads > SRC_KPAGEFLAGS_MAX_THREADS)
		kp->nthreads = SRC_KPAGEFLAGS_MAX_THREADS;
	kp->workers = xcalloc(kp->nthreads, sizeof *kp->workers);
	for (t = 0; t < kp->nthreads; t++) {
		w = &kp->workers[t];
		w->kp = kp;
		if (posix_memalign(&buf, 4096, SRC_KPAGEFLAGS_BATCH) != 0)
			die(RB_EXIT_ENV, "kpageflags: out of memory");
		w->buf = buf;
		w->acc = xcalloc(kp->map.nkeys, sizeof *w->acc);
		w->strat = xcalloc(kp->map.nkeys, sizeof *w->strat);
	}
	if (kp->nthreads == 1)
		return;
	if (pthread_barrier_init(&kp->start, NULL, kp->nthreads) != 0 ||
	    pthread_barrier_init(&kp->done, NULL, kp->nthreads) != 0)
		die(RB_EXIT_ENV, "kpageflags: pthread_barrier_init");
	kp->barriers = 1;
	for (t = 1; t < kp->nthreads; t++) {
		if ((rc = pthread_create(&kp->workers[t].thread, NULL,
		    src_kpageflags_thread, &kp->workers[t])) != 0)
			die(RB_EXIT_ENV, "kpageflags: pthread_create: %s",
			    strerror(rc));
		kp->workers[t].started = 1;
	}
}

/* End the helper threads and free what the scanners hold. */
void
src_kpageflags_stop_workers(struct src_kpageflags *kp)
{
	int t;

	if (kp->barriers) {
		kp->quit = 1;
		pthread_barrier_wait(&kp->start);
		for (t = 1; t < kp->nthreads; t++) {
			if (kp->workers[t].started)
				pthread_join(kp->workers[t].thread, NULL);
		}
		pthread_barrier_destroy(&kp->start);
		pthread_barrier_destroy(&kp->done);
		kp->barriers = 0;
	}
	for (t = 0; kp->workers != NULL && t < kp->nthreads; t++) {
		free(kp->workers[t].buf);
		free(kp->workers[t].acc);
		free(kp->workers[t].strat);
	}
	free(kp->workers);
	kp->workers = NULL;
}
