/*
 * pagetest: the seed's test.  Each thread maps its share of --size and
 * writes one byte per page, so every page is one fresh page from the
 * allocator, in order; this is what the cover letter's table was measured
 * with.  --cycles frees and repeats, --hold keeps the memory for a while
 * (so a sampler sees it), --mlock locks it as it is faulted.
 *
 * By default (--prefault write) the kernel faults each 2 MiB step in with
 * MADV_POPULATE_WRITE just before the writes reach it: one call instead of
 * one exception per page, the same pages in the same order, and the writes
 * then find their pages present.  --prefault read (MADV_POPULATE_READ, as
 * stress-ng's vm stressor does) maps the shared zero page first, so every
 * write is a copy-on-write fault that replaces a present entry and must
 * flush the TLB of every other CPU running this process: an interrupt per
 * page once there are two threads.  --prefault none is the seed's exact
 * sequence, one write fault per page.
 */
#include "config.h"

#include <sys/mman.h>

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "workload.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14 */
#endif

/* Pages populated per madvise call, so progress still moves. */
#define PAGETEST_POPULATE_STEP 512

enum pagetest_touch { PAGETEST_SEQ, PAGETEST_RANDOM };
enum pagetest_prefault {
	PAGETEST_PREFAULT_WRITE,
	PAGETEST_PREFAULT_READ,
	PAGETEST_PREFAULT_NONE
};

struct pagetest_settings {
	int		 touch;
	int		 prefault;
	uint64_t	 chunk;
	uint64_t	 hold_ns;
	long		 cycles;
	int		 mlock;
	int		 populate;
};

/* Per run, fixed in prepare. */
struct pagetest_plan {
	uint64_t	 pages;		/* per thread */
	uint64_t	 chunk_pages;	/* pages per mapping */
};

enum { PAGETEST_PAGES, PAGETEST_RESIDENT, PAGETEST_CYCLES };

static const char *const pagetest_touch_choices[] = { "seq", "random", NULL };
static const char *const pagetest_prefault_choices[] = { "write", "read",
	"none", NULL };

#define PO(f) offsetof(struct pagetest_settings, f)
static const struct opt_def pagetest_options[] = {
	{ .name = "touch", .type = OPT_ENUM, .offset = PO(touch),
	  .arg = "ORDER", .def = "seq", .choices = pagetest_touch_choices,
	  .help = "order in which pages are touched" },
	{ .name = "prefault", .type = OPT_ENUM, .offset = PO(prefault),
	  .arg = "HOW", .def = "write", .choices = pagetest_prefault_choices,
	  .help = "fault each 2 MiB in just ahead of the writes with "
	  "madvise(MADV_POPULATE_WRITE) (write), or MADV_POPULATE_READ, "
	  "then a copy-on-write fault per page (read), or let every write "
	  "fault (none: the seed's sequence); --touch seq only" },
	{ .name = "chunk", .type = OPT_SIZE, .offset = PO(chunk), .arg = "SIZE",
	  .def = "0",
	  .help = "size of each mapping (0: one mapping per thread)" },
	{ .name = "hold", .type = OPT_DURATION, .offset = PO(hold_ns),
	  .arg = "D", .def = "0",
	  .help = "keep the memory this long after the last touch" },
	{ .name = "cycles", .type = OPT_LONG, .offset = PO(cycles), .arg = "N",
	  .def = "1", .min = 1, .max = 1000000,
	  .help = "allocate, touch and free this many times" },
	{ .name = "mlock", .type = OPT_FLAG, .offset = PO(mlock),
	  .help = "lock the pages as they are faulted in (mlock2 "
	  "MLOCK_ONFAULT)" },
	{ .name = "populate", .type = OPT_FLAG, .offset = PO(populate),
	  .help = "fault pages in with madvise(MADV_POPULATE_WRITE), in "
	  "order, instead of touching them" },
	{ .name = NULL }
};
#undef PO

static const struct workload_counter pagetest_counters[] = {
	{ "pages", "pages", 1, WORKLOAD_RATE, 0 },
	{ "resident", "pages", 1, WORKLOAD_GAUGE, 0 },
	{ "cycles", "cycles", 1, 0, 0 },
	{ NULL, NULL, 0, 0, 0 }
};

/* Split --size over the threads. */
static int
pagetest_prepare(struct workload_ctx *ctx, char **cause)
{
	struct pagetest_settings *s = ctx->settings;
	struct pagetest_plan *plan = xcalloc(1, sizeof *plan);
	uint64_t ps = ctx->page_size;

	ctx->priv = plan;
	plan->pages = ctx->size / ctx->nthreads / ps;
	if (plan->pages == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "pagetest: --size %"
		    PRIu64 " is less than one page per thread", ctx->size));
	plan->chunk_pages = s->chunk == 0 ? plan->pages :
	    (s->chunk + ps - 1) / ps;
	if (plan->chunk_pages > plan->pages)
		plan->chunk_pages = plan->pages;
	return (0);
}

/* Plan pages x cycles per thread. */
static int
pagetest_setup(struct workload_ctx *ctx, char **cause)
{
	struct pagetest_settings *s = ctx->settings;
	struct pagetest_plan *plan = ctx->priv;
	int i;

	(void)cause;
	for (i = 0; i < ctx->nthreads; i++)
		workload_plan(ctx, i, plan->pages * (uint64_t)s->cycles);
	return (0);
}

/* A step coprime with n, near n / phi: a cheap full-cycle shuffle. */
static uint64_t
pagetest_stride(uint64_t n)
{
	uint64_t s = ((uint64_t)((double)n * 0.6180339887) | 1), a, b, r;

	for (;; s += 2) {
		for (a = s, b = n; b != 0; r = a % b, a = b, b = r)
			;
		if (a == 1)
			return (s % n == 0 ? 1 : s);
	}
}

/*
 * Fault n pages at addr in from the kernel side, one call instead of an
 * exception per page.  MADV_POPULATE_WRITE allocates each page as a write
 * fault would, in order.  MADV_POPULATE_READ maps the shared zero page
 * (RSS does not grow) and each write then takes a copy-on-write fault
 * that allocates the page.  Either way one fresh page per page, in order.
 * Before Linux 5.14 the call fails and the writes fault as with
 * --prefault none; *works is cleared so the call is not tried again.
 */
static void
pagetest_prefault(char *addr, uint64_t n, size_t ps, int how, int *works)
{
	int advice = how == PAGETEST_PREFAULT_WRITE ? MADV_POPULATE_WRITE :
	    MADV_POPULATE_READ;

	if (madvise(addr, n * ps, advice) != 0 && errno == EINVAL)
		*works = 0;
}

/*
 * Touch every page once; in order, with prefault, each step is populated
 * just before the writes reach it.  1 when stopped part way.
 */
static int
pagetest_touch(struct workload_thread *t, char **maps, int random_order,
    int how)
{
	const struct pagetest_plan *p = t->ctx->priv;
	size_t ps = t->ctx->page_size;
	uint64_t i, idx, stride = 1, n = p->pages, cp = p->chunk_pages, off;
	uint64_t left;
	int prefault = how != PAGETEST_PREFAULT_NONE;

	/* A random order must allocate in that order: no prefault. */
	if (random_order) {
		stride = pagetest_stride(n);
		prefault = 0;
	}
	for (i = 0, idx = 0; i < n; i++) {
		off = idx % cp;
		if (prefault && off % PAGETEST_POPULATE_STEP == 0) {
			left = (n - idx + off < cp ? n - idx + off : cp) - off;
			pagetest_prefault(maps[idx / cp] + off * ps,
			    left < PAGETEST_POPULATE_STEP ? left :
			    PAGETEST_POPULATE_STEP, ps, how, &prefault);
		}
		maps[idx / cp][off * ps] = 1;
		if (random_order) {
			idx += stride;
			if (idx >= n)
				idx %= n;
		} else
			idx++;
		if ((i & 63) == 63) {
			workload_work(t, 64);
			workload_count(t, PAGETEST_PAGES, 64);
			if ((i & 4095) == 4095 && workload_stopping(t))
				return (1);
		}
	}
	workload_work(t, n & 63);
	workload_count(t, PAGETEST_PAGES, n & 63);
	return (0);
}

/*
 * Fault every page in from the kernel side, 2 MiB at a time: no exception
 * per page.  Returns 1 when stopped part way, -errno on failure.
 */
static int
pagetest_populate(struct workload_thread *t, char **maps)
{
	const struct pagetest_plan *p = t->ctx->priv;
	size_t ps = t->ctx->page_size;
	uint64_t c, off, n, len, nmaps;

	nmaps = (p->pages + p->chunk_pages - 1) / p->chunk_pages;
	for (c = 0; c < nmaps; c++) {
		len = p->pages - c * p->chunk_pages < p->chunk_pages ?
		    p->pages - c * p->chunk_pages : p->chunk_pages;
		for (off = 0; off < len; off += n) {
			n = len - off < PAGETEST_POPULATE_STEP ? len - off :
			    PAGETEST_POPULATE_STEP;
			if (madvise(maps[c] + off * ps, n * ps,
			    MADV_POPULATE_WRITE) != 0)
				return (-errno);
			workload_work(t, n);
			workload_count(t, PAGETEST_PAGES, n);
			if (workload_stopping(t))
				return (1);
		}
	}
	return (0);
}

/* Count the resident pages of the mappings with mincore. */
static uint64_t
pagetest_resident(struct workload_thread *t, char **maps, uint64_t nmaps)
{
	const struct pagetest_plan *p = t->ctx->priv;
	size_t ps = t->ctx->page_size, len, j;
	unsigned char *vec = xmalloc(p->chunk_pages);
	uint64_t c, n = 0;

	for (c = 0; c < nmaps; c++) {
		len = (p->pages - c * p->chunk_pages < p->chunk_pages ?
		    p->pages - c * p->chunk_pages : p->chunk_pages);
		if (mincore(maps[c], len * ps, vec) != 0)
			continue;
		for (j = 0; j < len; j++)
			n += vec[j] & 1;
	}
	free(vec);
	return (n);
}

/*
 * Keep the memory for the hold, counted from when the last thread has
 * touched its pages, so the whole footprint is there at once; a stop ends
 * it early.
 */
static void
pagetest_hold(struct workload_thread *t, uint64_t hold_ns)
{
	struct timespec nap = { 0, 1000 * 1000 };
	uint64_t until;

	while (!workload_all_ended(t->ctx) &&
	    !workload_stop_requested(t->ctx))
		nanosleep(&nap, NULL);
	until = units_now_ns() + hold_ns;
	nap.tv_nsec = 10 * 1000 * 1000;
	while (units_now_ns() < until && !workload_stop_requested(t->ctx))
		nanosleep(&nap, NULL);
}

/* Allocate, touch and free, --cycles times or until told to stop. */
static int
pagetest_run(struct workload_thread *t)
{
	const struct pagetest_settings *s = t->ctx->settings;
	const struct pagetest_plan *p = t->ctx->priv;
	size_t ps = t->ctx->page_size, len;
	uint64_t c, nmaps = (p->pages + p->chunk_pages - 1) / p->chunk_pages;
	int fixed = t->ctx->common->duration_ns == 0 && !t->warmup;
	char **maps = xcalloc(nmaps, sizeof *maps);
	long cycle;
	int rc = 0, stopped = 0, last;

	for (cycle = 0; !stopped && (!fixed || cycle < s->cycles); cycle++) {
		for (c = 0; c < nmaps; c++) {
			len = (p->pages - c * p->chunk_pages < p->chunk_pages ?
			    p->pages - c * p->chunk_pages : p->chunk_pages) *
			    ps;
			maps[c] = mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
			    0);
			if (maps[c] == MAP_FAILED) {
				maps[c] = NULL;
				rc = workload_fail(t, RB_EXIT_ENV, "pagetest: "
				    "mmap of %zu bytes: %s", len,
				    strerror(errno));
				goto out;
			}
			workload_madvise(t->ctx, maps[c], len);
			if (s->mlock && mlock2(maps[c], len, MLOCK_ONFAULT) !=
			    0) {
				rc = workload_fail(t, RB_EXIT_ENV, "pagetest: "
				    "mlock2 of %zu bytes: %s (raise "
				    "RLIMIT_MEMLOCK or run as root)", len,
				    strerror(errno));
				goto out;
			}
		}
		if (s->populate) {
			stopped = pagetest_populate(t, maps);
			if (stopped < 0) {
				rc = workload_fail(t, RB_EXIT_ENV, "pagetest: "
				    "madvise(MADV_POPULATE_WRITE): %s (needs "
				    "Linux 5.14)", strerror(-stopped));
				goto out;
			}
		} else
			stopped = pagetest_touch(t, maps,
			    s->touch == PAGETEST_RANDOM, s->prefault);
		if (!stopped && !fixed && workload_stopping(t))
			stopped = 1;
		last = stopped || (fixed && cycle + 1 == s->cycles);
		if (!t->warmup)
			workload_count(t, PAGETEST_CYCLES, 1);
		if (last) {
			workload_end_measure(t);
			workload_gauge(t, PAGETEST_RESIDENT,
			    pagetest_resident(t, maps, nmaps));
			if (!t->warmup && s->hold_ns > 0)
				pagetest_hold(t, s->hold_ns);
		}
out:
		for (c = 0; c < nmaps; c++) {
			if (maps[c] != NULL)
				munmap(maps[c], (p->pages - c * p->chunk_pages <
				    p->chunk_pages ? p->pages - c *
				    p->chunk_pages : p->chunk_pages) * ps);
			maps[c] = NULL;
		}
		if (rc != 0)
			break;
	}
	free(maps);
	return (rc);
}

const struct workload_desc workload_pagetest = {
	.name = "pagetest",
	.summary = "allocate and touch N pages, one write per page (the "
	    "seed's test)",
	.options = pagetest_options,
	.settings_size = sizeof(struct pagetest_settings),
	.counters = pagetest_counters,
	.prepare = pagetest_prepare,
	.setup = pagetest_setup,
	.run = pagetest_run,
};
