/*
 * The kpageflags source (docs/kpageflags.md).  A vanilla kernel has
 * no memory regions, so they are emulated: the region map cuts each node
 * into regions, and every sample reads /proc/kpageflags over the memory
 * blocks that are online and counts, per region key, the pages that exist,
 * the free (KPF_BUDDY) pages with their buddy orders, and the used pages by
 * class.  zoneinfo read before and after the scan checks the free counts
 * and tells lazily initialised memory from used memory.  The why and the
 * accuracy are in docs/kpageflags.md and notes/kpageflags-feasibility.md.
 *
 * Everything the scan needs (buffers, per-thread counters, the threads
 * themselves) is set up at open, so a sample does not allocate.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "procfs.h"
#include "region-map.h"
#include "src-kpageflags.h"
#include "units.h"

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

#define SRC_KPAGEFLAGS_BATCH	(4 << 20)	/* bytes per pread */
#define SRC_KPAGEFLAGS_MAX_THREADS 64
#define SRC_KPAGEFLAGS_DEFAULT_REGION (512ULL << 20)
/* Minimum gap between blocks and pages to tell head-only marking. */
#define SRC_KPAGEFLAGS_DETECT_MIN 64

/* How the kernel marks free blocks in kpageflags. */
enum src_kpageflags_marking {
	SRC_KPAGEFLAGS_UNDECIDED,
	SRC_KPAGEFLAGS_ALL_PAGES,	/* 4.6 and later: every page BUDDY */
	SRC_KPAGEFLAGS_HEAD_ONLY	/* before 4.6: only the head page */
};

/* Counters of one region key, per scanning thread. */
struct src_kpageflags_acc {
	uint64_t	 present;
	uint64_t	 free;
	uint64_t	 zero;		/* no flags at all, not free */
	uint64_t	 reserved;	/* PG_reserved: never managed */
	uint64_t	 used[SNAP_USED_NCLASS];
	uint64_t	 blocks[SNAP_MAX_ORDERS];
	uint64_t	 uninit;	/* after reconciliation */
};

/* Per-zone figures of one sample. */
struct src_kpageflags_zone {
	uint64_t	 slack;		/* sum of per-CPU thresholds */
	uint64_t	 free_before;
	uint64_t	 free_after;
	uint64_t	 managed;
	uint64_t	 buddy_blocks;	/* buddyinfo, before */
	uint64_t	 buddy_pages;
	uint64_t	 pcp;		/* per-CPU list pages, before */
	int		 seen;
};

struct src_kpageflags;

struct src_kpageflags_worker {
	struct src_kpageflags		*kp;
	pthread_t			 thread;
	int				 started;
	uint64_t			 lo;
	uint64_t			 hi;
	uint64_t			*buf;
	struct src_kpageflags_acc	*acc;
	int				 err;
	uint64_t			 err_pfn;
};

struct src_kpageflags {
	int				 fd;
	char				 path[PATH_MAX + 16];
	struct region_map		 map;
	struct snapshot			 before;
	struct snapshot			 after;
	struct procfile			 after_file;
	int				 maxorder;
	uint64_t			 batch_pfns;
	enum src_kpageflags_marking	 marking;
	int				 head_rule;
	char				 detection[256];

	int				 nthreads;
	struct src_kpageflags_worker	*workers;
	pthread_barrier_t		 start;
	pthread_barrier_t		 done;
	int				 barriers;
	volatile int			 quit;

	struct src_kpageflags_acc	*total;
	struct src_kpageflags_zone	*zones;

	uint64_t			 samples;
	uint64_t			 checks;
	uint64_t			 outside;
	uint64_t			 worst_outside;
	int64_t				 worst_diff;
	char				 worst_where[64];
	uint64_t			 last_scan_ns;
	uint64_t			 max_scan_ns;
};

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

/* Read pfns [p, end) into buf; pfns past the end of the file are absent. */
static int
src_kpageflags_pread(struct src_kpageflags *kp, uint64_t *buf, uint64_t p,
    uint64_t end)
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
		if ((w->err = src_kpageflags_pread(kp, w->buf, p, wend)) != 0) {
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
 * to the largest buddy block so that no block is split between threads.
 */
static void
src_kpageflags_cut(struct src_kpageflags *kp)
{
	const struct region_map *map = &kp->map;
	uint64_t total = 0, sum = 0, want, cut, align = 1ULL << kp->maxorder;
	int i, t = 1;

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

/* Run one scan on every thread and add the counters up per key. */
static int
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
			for (k = 0; k < SNAP_USED_NCLASS; k++)
				tot->used[k] += a->used[k];
			for (k = 0; k < SNAP_MAX_ORDERS; k++)
				tot->blocks[k] += a->blocks[k];
		}
	}
	return (0);
}

/* Sum the per-CPU "vm stats threshold" lines of each zone of zoneinfo. */
static void
src_kpageflags_slack(struct src_kpageflags *kp, const char *buf)
{
	char name[SNAP_NAME_LEN];
	const char *line, *th;
	int node, zone = -1, i;

	for (i = 0; i < kp->map.nzones; i++)
		kp->zones[i].slack = 0;
	for (line = buf; line != NULL && *line != '\0'; ) {
		if (sscanf(line, "Node %d, zone %15s", &node, name) == 2)
			zone = region_map_zone(&kp->map, node, name);
		else if (zone != -1 && (th = strstr(line,
		    "vm stats threshold:")) != NULL &&
		    th < line + strcspn(line, "\n"))
			kp->zones[zone].slack += strtoull(th + 19, NULL, 10);
		if ((line = strchr(line, '\n')) != NULL)
			line++;
	}
}

/* Read and parse zoneinfo (and buddyinfo) into a private snapshot. */
static int
src_kpageflags_zoneinfo(struct source *src, struct procfile *pf,
    struct snapshot *snap, int buddyinfo, char **cause)
{
	int rc;

	snapshot_reset(snap);
	if ((rc = procfile_read(pf, src->cfg.proc_root, "zoneinfo",
	    cause)) != 0 ||
	    (rc = procfs_parse_zoneinfo(snap, pf->path, pf->buf, pf->len,
	    cause)) != 0)
		return (rc);
	if (!buddyinfo)
		return (0);
	if ((rc = procfile_read(&src->buddyinfo, src->cfg.proc_root,
	    "buddyinfo", cause)) != 0 ||
	    (rc = procfs_parse_buddyinfo(snap, src->buddyinfo.path,
	    src->buddyinfo.buf, src->buddyinfo.len, cause)) != 0)
		return (rc);
	return (0);
}

/* Take the zoneinfo figures the scan is checked against. */
static void
src_kpageflags_zone_figures(struct src_kpageflags *kp, struct snapshot *snap,
    int before)
{
	const struct snap_entry *e;
	struct src_kpageflags_zone *z;
	int i, zi, k;

	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if ((zi = region_map_zone(&kp->map, e->node, e->zone)) == -1)
			continue;
		z = &kp->zones[zi];
		if (before) {
			z->seen = 1;
			z->free_before = e->free_pages;
			z->pcp = e->pcp_pages;
			z->buddy_blocks = z->buddy_pages = 0;
			for (k = 0; k < e->norders; k++) {
				z->buddy_blocks += e->free_blocks[k];
				z->buddy_pages += e->free_blocks[k] << k;
			}
		} else {
			z->free_after = e->free_pages;
			z->managed = e->managed;
		}
	}
}

/* Warn when a zone's span is no longer the one the map was built from. */
static void
src_kpageflags_check_spans(struct src_kpageflags *kp, struct snapshot *snap)
{
	const struct snap_entry *e;
	const struct region_zone *z;
	int i, zi;

	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (e->spanned == 0 || e->spanned == SNAP_UNKNOWN ||
		    e->start_pfn == SNAP_UNKNOWN)
			continue;
		zi = region_map_zone(&kp->map, e->node, e->zone);
		z = zi == -1 ? NULL : &kp->map.zones[zi];
		if (z == NULL || z->start_pfn != e->start_pfn ||
		    z->end_pfn != e->start_pfn + e->spanned) {
			snapshot_warn(snap, "kpageflags: node %d zone %s now "
			    "spans pfn %" PRIu64 "+%" PRIu64 ", not as at "
			    "start; the region map is kept", e->node, e->zone,
			    e->start_pfn, e->spanned);
			return;
		}
	}
}

/*
 * Tell from the data whether free blocks are marked on every page or only
 * on the head: with every page marked, BUDDY pages equal the free pages;
 * with head-only marking they equal the number of free blocks.  Only
 * decided when buddyinfo's blocks and pages differ enough to tell.
 */
static void
src_kpageflags_detect(struct src_kpageflags *kp)
{
	uint64_t buddy = 0, blocks = 0, pages = 0, dn, dp;
	int i;

	for (i = 0; i < kp->map.nkeys; i++)
		buddy += kp->total[i].free;
	for (i = 0; i < kp->map.nzones; i++) {
		blocks += kp->zones[i].buddy_blocks;
		pages += kp->zones[i].buddy_pages;
	}
	if (pages < blocks + SRC_KPAGEFLAGS_DETECT_MIN)
		return;
	dn = buddy > blocks ? buddy - blocks : blocks - buddy;
	dp = buddy > pages ? buddy - pages : pages - buddy;
	kp->marking = dn < dp ? SRC_KPAGEFLAGS_HEAD_ONLY :
	    SRC_KPAGEFLAGS_ALL_PAGES;
	snprintf(kp->detection, sizeof kp->detection, "%" PRIu64 " KPF_BUDDY "
	    "pages against %" PRIu64 " free blocks and %" PRIu64 " free pages "
	    "in buddyinfo", buddy, blocks, pages);
}

/*
 * Pages with no flags that the zone does not manage are not memory in use:
 * on this VM they are memmap that lazy deferred init has not reached yet.
 * Per zone, the pages counted beyond zoneinfo's managed (after taking out
 * PG_reserved pages, which are never managed) are taken from the flag-less
 * pages of the zone's keys, highest key first, since lazy init proceeds
 * upward from the zone's start.
 */
static void
src_kpageflags_reconcile(struct src_kpageflags *kp)
{
	const struct region_key *k;
	struct src_kpageflags_acc *a;
	uint64_t counted, excess, take;
	int z, i;

	for (i = 0; i < kp->map.nkeys; i++)
		kp->total[i].uninit = 0;
	for (z = 0; z < kp->map.nzones; z++) {
		if (kp->zones[z].managed == SNAP_UNKNOWN)
			continue;
		counted = 0;
		for (i = 0; i < kp->map.nkeys; i++) {
			a = &kp->total[i];
			if (kp->map.keys[i].zone == z)
				counted += a->present - a->reserved;
		}
		if (counted <= kp->zones[z].managed)
			continue;
		excess = counted - kp->zones[z].managed;
		for (i = kp->map.nkeys - 1; i >= 0 && excess > 0; i--) {
			k = &kp->map.keys[i];
			a = &kp->total[i];
			if (k->zone != z)
				continue;
			take = a->zero < excess ? a->zero : excess;
			a->uninit = take;
			excess -= take;
		}
	}
}

/* Compare counted free pages per zone with zoneinfo around the scan. */
static void
src_kpageflags_check(struct src_kpageflags *kp, struct snapshot *snap)
{
	const struct src_kpageflags_zone *z;
	const struct region_zone *rz;
	uint64_t counted, lo, hi, out;
	int64_t diff;
	int i, zi;

	for (zi = 0; zi < kp->map.nzones; zi++) {
		z = &kp->zones[zi];
		rz = &kp->map.zones[zi];
		if (!z->seen || rz->partial)
			continue;
		counted = 0;
		for (i = 0; i < kp->map.nkeys; i++) {
			if (kp->map.keys[i].zone == zi)
				counted += kp->total[i].free;
		}
		lo = z->free_before < z->free_after ? z->free_before :
		    z->free_after;
		hi = z->free_before < z->free_after ? z->free_after :
		    z->free_before;
		lo = lo > z->slack ? lo - z->slack : 0;
		hi += z->slack;
		kp->checks++;
		if (counted >= lo && counted <= hi)
			continue;
		out = counted < lo ? lo - counted : counted - hi;
		diff = counted < lo ? -(int64_t)out : (int64_t)out;
		kp->outside++;
		if (out > kp->worst_outside) {
			kp->worst_outside = out;
			kp->worst_diff = diff;
			snprintf(kp->worst_where, sizeof kp->worst_where,
			    "node %d zone %s", rz->node, rz->name);
		}
		snapshot_warn(snap, "kpageflags: node %d zone %s: counted %"
		    PRIu64 " free pages, zoneinfo said %" PRIu64 " before and %"
		    PRIu64 " after the scan (slack %" PRIu64 "): %+" PRId64
		    " pages outside", rz->node, rz->name, counted,
		    z->free_before, z->free_after, z->slack, diff);
	}
}

/* Turn the counters into snapshot entries, one per region key. */
static void
src_kpageflags_fill(struct src_kpageflags *kp, struct snapshot *snap)
{
	const struct region_key *k;
	const struct src_kpageflags_acc *a;
	struct snap_entry *e;
	int i, c;

	for (i = 0; i < kp->map.nkeys; i++) {
		k = &kp->map.keys[i];
		a = &kp->total[i];
		e = snapshot_add(snap, k->node, k->region,
		    kp->map.zones[k->zone].name);
		e->start_pfn = k->start_pfn;
		e->spanned = k->end_pfn - k->start_pfn;
		e->present = a->present - a->uninit;
		e->managed = e->present - a->reserved;
		e->free_pages = a->free;
		e->norders = kp->maxorder + 1;
		memcpy(e->free_blocks, a->blocks, sizeof e->free_blocks);
		e->has_used = 1;
		for (c = 0; c < SNAP_USED_NCLASS; c++)
			e->used[c] = a->used[c];
		e->used[SNAP_USED_OTHER] += a->zero - a->uninit;
	}
}

/* One sample: zoneinfo, scan, zoneinfo again, then the figures. */
static int
src_kpageflags_read(struct source *src, struct snapshot *snap, int flags,
    char **cause)
{
	struct src_kpageflags *kp = src->priv;
	uint64_t t0;
	int rc, changed;

	(void)flags;
	if ((rc = src_kpageflags_zoneinfo(src, &src->zoneinfo, &kp->before, 1,
	    cause)) != 0)
		return (rc);
	src->files_read = SOURCE_FILE_ZONEINFO | SOURCE_FILE_BUDDYINFO;
	snapshot_reset(snap);
	src_kpageflags_slack(kp, src->zoneinfo.buf);
	src_kpageflags_zone_figures(kp, &kp->before, 1);
	src_kpageflags_check_spans(kp, snap);
	if ((rc = region_map_refresh_blocks(&kp->map, &changed, cause)) != 0)
		return (rc);
	if (changed && kp->samples > 0)
		snapshot_warn(snap, "kpageflags: %d memory blocks changed "
		    "state (hotplug)", changed);

	t0 = units_now_ns();
	kp->head_rule = kp->marking == SRC_KPAGEFLAGS_HEAD_ONLY;
	if ((rc = src_kpageflags_run(kp, cause)) != 0)
		return (rc);
	if (kp->marking == SRC_KPAGEFLAGS_UNDECIDED) {
		src_kpageflags_detect(kp);
		if (kp->marking == SRC_KPAGEFLAGS_HEAD_ONLY) {
			kp->head_rule = 1;
			if ((rc = src_kpageflags_run(kp, cause)) != 0)
				return (rc);
		}
	}
	kp->last_scan_ns = units_now_ns() - t0;
	if (kp->last_scan_ns > kp->max_scan_ns)
		kp->max_scan_ns = kp->last_scan_ns;

	if ((rc = src_kpageflags_zoneinfo(src, &kp->after_file, &kp->after, 0,
	    cause)) != 0)
		return (rc);
	src_kpageflags_zone_figures(kp, &kp->after, 0);
	src_kpageflags_reconcile(kp);
	src_kpageflags_check(kp, snap);
	snap->format = SNAP_FORMAT_PLAIN;
	snap->norders = kp->maxorder + 1;
	snap->t_ns = t0 + kp->last_scan_ns / 2;
	src_kpageflags_fill(kp, snap);
	kp->samples++;
	return (0);
}

/* The kpageflags source's own options. */
static const struct opt_def src_kpageflags_options[] = {
	{ .name = "region-size", .type = OPT_STRING,
	  .offset = offsetof(struct src_kpageflags_settings, region_size),
	  .arg = "SIZE", .def = "512M",
	  .help = "emulated region size, or 'block' for one per memory "
	  "block" },
	{ .name = "region-map", .type = OPT_STRING,
	  .offset = offsetof(struct src_kpageflags_settings, region_map),
	  .arg = "FILE",
	  .help = "emulated regions from a CSV of node,start_pfn,end_pfn" },
	{ .name = "scan-threads", .type = OPT_LONG,
	  .offset = offsetof(struct src_kpageflags_settings, scan_threads),
	  .arg = "N", .def = "1", .min = 1,
	  .max = SRC_KPAGEFLAGS_MAX_THREADS,
	  .help = "threads scanning /proc/kpageflags" },
	{ .name = NULL }
};

/* Turn the --region-size text into a size or "one per block". */
static int
src_kpageflags_settings_check(void *settings, char **cause)
{
	struct src_kpageflags_settings *s = settings;
	char *why = NULL;
	int rc;

	s->region_block = 0;
	s->region_bytes = 0;
	if (s->region_size == NULL)
		s->region_bytes = SRC_KPAGEFLAGS_DEFAULT_REGION;
	else if (strcmp(s->region_size, "block") == 0)
		s->region_block = 1;
	else if ((rc = units_parse_size(s->region_size, &s->region_bytes,
	    &why)) != 0) {
		rc = fail_with(cause, RB_EXIT_INPUT, "--region-size: %s", why);
		free(why);
		return (rc);
	} else if (s->region_bytes < (1 << 20))
		return (fail_with(cause, RB_EXIT_INPUT,
		    "--region-size %s is below 1M", s->region_size));
	return (0);
}

/* Applies when kpageflags is readable and sysfs lists memory blocks. */
static int
src_kpageflags_probe(struct source *src, char **reason)
{
	char path[PATH_MAX + 32];

	if (!procfile_exists(src->cfg.proc_root, "kpageflags")) {
		*reason = xasprintf("%s/kpageflags does not exist (kernel "
		    "without CONFIG_PROC_PAGE_MONITOR)", src->cfg.proc_root);
		return (0);
	}
	if (!procfile_readable(src->cfg.proc_root, "kpageflags")) {
		*reason = xasprintf("%s/kpageflags is not readable: it needs "
		    "root (run regionbench with sudo, or use --source zone)",
		    src->cfg.proc_root);
		return (0);
	}
	snprintf(path, sizeof path, "devices/system/memory/block_size_bytes");
	if (!procfile_exists(src->cfg.sys_root, path)) {
		*reason = xasprintf("%s/%s does not exist (no memory block "
		    "sysfs)", src->cfg.sys_root, path);
		return (0);
	}
	*reason = xasprintf("%s/kpageflags is readable, so regions are "
	    "emulated from it", src->cfg.proc_root);
	return (1);
}

/* Release everything open() set up. */
static void
src_kpageflags_close(struct source *src)
{
	struct src_kpageflags *kp = src->priv;
	int t;

	if (kp == NULL)
		return;
	if (kp->barriers) {
		kp->quit = 1;
		pthread_barrier_wait(&kp->start);
		for (t = 1; t < kp->nthreads; t++) {
			if (kp->workers[t].started)
				pthread_join(kp->workers[t].thread, NULL);
		}
		pthread_barrier_destroy(&kp->start);
		pthread_barrier_destroy(&kp->done);
	}
	for (t = 0; kp->workers != NULL && t < kp->nthreads; t++) {
		free(kp->workers[t].buf);
		free(kp->workers[t].acc);
	}
	free(kp->workers);
	free(kp->total);
	free(kp->zones);
	if (kp->fd != -1)
		close(kp->fd);
	region_map_free(&kp->map);
	snapshot_free(&kp->before);
	snapshot_free(&kp->after);
	procfile_free(&kp->after_file);
	free(kp);
	src->priv = NULL;
}

/* Open kpageflags, build the region map and start the scan threads. */
static int
src_kpageflags_open(struct source *src, char **cause)
{
	static const struct src_kpageflags_settings defaults = {
		.region_bytes = SRC_KPAGEFLAGS_DEFAULT_REGION,
		.scan_threads = 1
	};
	const struct src_kpageflags_settings *set = src->settings;
	struct region_map_config mcfg;
	struct src_kpageflags *kp;
	struct src_kpageflags_worker *w;
	void *buf;
	int rc, saved, t;

	if (set == NULL)
		set = &defaults;
	kp = xcalloc(1, sizeof *kp);
	kp->fd = -1;
	snapshot_init(&kp->before);
	snapshot_init(&kp->after);
	procfile_init(&kp->after_file);
	src->priv = kp;
	snprintf(kp->path, sizeof kp->path, "%s/kpageflags",
	    src->cfg.proc_root);
	if ((kp->fd = open(kp->path, O_RDONLY | O_CLOEXEC)) == -1) {
		saved = errno;
		if (saved == EACCES || saved == EPERM)
			rc = fail_with(cause, RB_EXIT_ENV, "%s: %s: the "
			    "kpageflags source needs root; run 'sudo "
			    "regionbench ...', or use --source zone",
			    kp->path, strerror(saved));
		else
			rc = fail_with(cause, RB_EXIT_ENV, "%s: %s; use "
			    "--source zone", kp->path, strerror(saved));
		goto fail;
	}
	if ((rc = src_kpageflags_zoneinfo(src, &src->zoneinfo, &kp->before, 1,
	    cause)) != 0)
		goto fail;
	if (kp->before.norders < 1 || kp->before.norders > SNAP_MAX_ORDERS) {
		rc = fail_with(cause, RB_EXIT_INPUT, "%s: no order columns, so "
		    "the largest buddy order is unknown", src->buddyinfo.path);
		goto fail;
	}
	kp->maxorder = kp->before.norders - 1;
	kp->batch_pfns = SRC_KPAGEFLAGS_BATCH / sizeof (uint64_t);

	memset(&mcfg, 0, sizeof mcfg);
	mcfg.sys_root = src->cfg.sys_root;
	mcfg.region_size = set->region_bytes != 0 ? set->region_bytes :
	    SRC_KPAGEFLAGS_DEFAULT_REGION;
	mcfg.region_block = set->region_block;
	mcfg.region_map = set->region_map;
	if ((rc = region_map_build(&kp->map, &mcfg, &kp->before, cause)) != 0)
		goto fail;

	kp->nthreads = set->scan_threads > 0 ? (int)set->scan_threads : 1;
	if (kp->nthreads > SRC_KPAGEFLAGS_MAX_THREADS)
		kp->nthreads = SRC_KPAGEFLAGS_MAX_THREADS;
	kp->total = xcalloc(kp->map.nkeys, sizeof *kp->total);
	kp->zones = xcalloc(kp->map.nzones, sizeof *kp->zones);
	kp->workers = xcalloc(kp->nthreads, sizeof *kp->workers);
	for (t = 0; t < kp->nthreads; t++) {
		w = &kp->workers[t];
		w->kp = kp;
		if (posix_memalign(&buf, 4096, SRC_KPAGEFLAGS_BATCH) != 0)
			die(RB_EXIT_ENV, "kpageflags: out of memory");
		w->buf = buf;
		w->acc = xcalloc(kp->map.nkeys, sizeof *w->acc);
	}
	if (kp->nthreads > 1) {
		if (pthread_barrier_init(&kp->start, NULL, kp->nthreads) != 0 ||
		    pthread_barrier_init(&kp->done, NULL, kp->nthreads) != 0)
			die(RB_EXIT_ENV, "kpageflags: pthread_barrier_init");
		kp->barriers = 1;
		for (t = 1; t < kp->nthreads; t++) {
			if ((rc = pthread_create(&kp->workers[t].thread, NULL,
			    src_kpageflags_thread, &kp->workers[t])) != 0)
				die(RB_EXIT_ENV, "kpageflags: pthread_create: "
				    "%s", strerror(rc));
			kp->workers[t].started = 1;
		}
	}
	snprintf(kp->detection, sizeof kp->detection, "not decided yet");
	return (0);

fail:
	src_kpageflags_close(src);
	return (rc);
}

/* Settings and findings for meta.json. */
static void
src_kpageflags_describe(struct source *src, json_t *obj)
{
	struct src_kpageflags *kp = src->priv;
	const char *marking = "undecided";
	json_t *acc, *unchecked, *pcp;
	char name[64];
	int i;

	if (kp == NULL)
		return;
	if (kp->marking == SRC_KPAGEFLAGS_ALL_PAGES)
		marking = "all-pages";
	else if (kp->marking == SRC_KPAGEFLAGS_HEAD_ONLY)
		marking = "head-only";
	json_object_set_new(obj, "region_mode",
	    json_string(region_map_mode_name(&kp->map)));
	json_object_set_new(obj, "region_size_bytes",
	    kp->map.mode == REGION_MAP_SIZE ? json_integer((json_int_t)
	    (kp->map.region_pages * kp->map.page_size)) : kp->map.mode ==
	    REGION_MAP_BLOCK ? json_integer((json_int_t)(kp->map.block_pages *
	    kp->map.page_size)) : json_null());
	json_object_set_new(obj, "region_map", kp->map.file != NULL ?
	    json_string(kp->map.file) : json_null());
	json_object_set_new(obj, "block_size_bytes", json_integer(
	    (json_int_t)(kp->map.block_pages * kp->map.page_size)));
	json_object_set_new(obj, "regions", json_integer(kp->map.nregions));
	json_object_set_new(obj, "region_keys", json_integer(kp->map.nkeys));
	json_object_set_new(obj, "scan_threads", json_integer(kp->nthreads));
	json_object_set_new(obj, "batch_bytes",
	    json_integer(SRC_KPAGEFLAGS_BATCH));
	json_object_set_new(obj, "max_order", json_integer(kp->maxorder));
	json_object_set_new(obj, "buddy_marking", json_string(marking));
	json_object_set_new(obj, "order_rule", json_string(
	    kp->marking == SRC_KPAGEFLAGS_HEAD_ONLY ? "oldA" : "run"));
	json_object_set_new(obj, "buddy_detection",
	    json_string(kp->detection));
	json_object_set_new(obj, "unmanaged_rule", json_string("per zone, "
	    "flag-less pages beyond zoneinfo managed (PG_reserved excluded) "
	    "are not present, taken from the highest region key down"));
	acc = json_object();
	json_object_set_new(acc, "samples", json_integer(kp->samples));
	json_object_set_new(acc, "zone_checks", json_integer(kp->checks));
	json_object_set_new(acc, "outside_window", json_integer(kp->outside));
	json_object_set_new(acc, "worst_outside_pages",
	    json_integer(kp->worst_diff));
	json_object_set_new(acc, "worst_zone", kp->worst_where[0] != '\0' ?
	    json_string(kp->worst_where) : json_null());
	json_object_set_new(acc, "last_scan_ms",
	    json_real(kp->last_scan_ns / 1e6));
	json_object_set_new(acc, "max_scan_ms",
	    json_real(kp->max_scan_ns / 1e6));
	unchecked = json_array();
	for (i = 0; i < kp->map.nzones; i++) {
		if (kp->map.zones[i].partial)
			json_array_append_new(unchecked, json_sprintf("node %d "
			    "zone %s", kp->map.zones[i].node,
			    kp->map.zones[i].name));
	}
	json_object_set_new(acc, "unchecked_zones", unchecked);
	/* Free but invisible to kpageflags: counted as "other" used pages. */
	pcp = json_object();
	for (i = 0; i < kp->map.nzones; i++) {
		snprintf(name, sizeof name, "node %d zone %s",
		    kp->map.zones[i].node, kp->map.zones[i].name);
		json_object_set_new(pcp, name, json_integer((json_int_t)
		    kp->zones[i].pcp));
	}
	json_object_set_new(acc, "pcp_pages_last", pcp);
	json_object_set_new(obj, "accuracy", acc);
}

/* The region map of the open source (placement and info use it). */
static const struct region_map *
src_kpageflags_region_map(const struct source *src)
{
	const struct src_kpageflags *kp = src->priv;

	return (kp != NULL ? &kp->map : NULL);
}

const struct source_ops src_kpageflags_ops = {
	.name = "kpageflags",
	.summary = "emulated regions counted from /proc/kpageflags (root)",
	.options = src_kpageflags_options,
	.settings_size = sizeof (struct src_kpageflags_settings),
	.check = src_kpageflags_settings_check,
	.probe = src_kpageflags_probe,
	.open = src_kpageflags_open,
	.read = src_kpageflags_read,
	.describe = src_kpageflags_describe,
	.close = src_kpageflags_close,
	.region_map = src_kpageflags_region_map,
};
