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
 * that the compiler can inline them.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Scan the online segments of [w->lo, w->hi) into w->acc. */
static void
src_kpageflags_scan(struct src_kpageflags_worker *w)
{
	struct src_kpageflags *kp = w->kp;
	const struct region_map *map = &kp->map;
	const struct region_seg *sg = map->segs;
	uint64_t align = 1ULL << kp->maxorder, p = w->lo, wend, e, a, b;
	int s = 0, t, u, nsegs = map->nsegs;

	memset(w->acc, 0, map->nkeys * sizeof *w->acc);
	w->err = 0;
	for (;;) {
		while (s < nsegs && (sg[s].end_pfn <= p ||
		    !map->blocks[sg[s].block].online))
			s++;
		if (s == nsegs)
			break;
		if (sg[s].start_pfn > p)
			p = sg[s].start_pfn;
		if (p >= w->hi)
			break;
		wend = p + kp->batch_pfns;
		if (wend % align != 0)
			wend -= wend % align;
		if (wend > w->hi)
			wend = w->hi;
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
			return;
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

/*
 * Give each thread an equal share of the online pages, cut at pfns aligned
 * to the largest buddy block so that no block is split between threads;
 * or, when auto chose a thread per node, each thread one node.
 */
static void
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

/*
 * Time the scan of a few batches spread over the online pages, on the
 * caller's thread, so that the cost of a sample is known before the
 * first: one batch (4 MiB, 512 Ki pages, about 12 ms on a real kernel)
 * and more only while under SRC_KPAGEFLAGS_CALIB_NS.  The counters it
 * leaves are overwritten by the first sample.
 */
void
src_kpageflags_calibrate(struct src_kpageflags *kp)
{
	struct src_kpageflags_worker *w = &kp->workers[0];
	uint64_t align = 1ULL << kp->maxorder, t0, lo, next = 0, pfns = 0;
	int i;

	kp->online_pfns = src_kpageflags_online(kp, 0, UINT64_MAX);
	kp->calib_pfns = kp->calib_ns = 0;
	if (kp->online_pfns == 0)
		return;
	t0 = units_now_ns();
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
	kp->calib_pfns = pfns;
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
	}
	free(kp->workers);
	kp->workers = NULL;
}
