/*
 * frag-churn: each thread maps and frees anonymous blocks of mixed sizes
 * (--min-block to --max-block, log-uniform, 4 KiB to 2 MiB by default) at
 * random within its share of --size, touching every page it maps.  Up to
 * --keep-pct of that share ends in long-lived blocks that are never freed
 * during the run, so the short-lived ones churn around them: the
 * allocation pattern under which, as the seed's cover letter warns, pages
 * "tend to get spread around".
 */
#include "config.h"

#include <sys/mman.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "workload.h"

struct frag_settings {
	long		 keep_pct;
	uint64_t	 min_block;
	uint64_t	 max_block;
	uint64_t	 ops;
};

struct frag_plan {
	uint64_t	 budget_pages;	/* per thread */
	uint64_t	 min_pages;
	uint64_t	 max_pages;
	uint64_t	 ops;		/* per thread */
};

struct frag_block {
	char		*addr;
	uint64_t	 pages;
};

enum { FRAG_OPS, FRAG_ALLOCS, FRAG_FREES, FRAG_ALLOCATED, FRAG_LIVE,
    FRAG_LONG_LIVED };

#define FO(f) offsetof(struct frag_settings, f)
static const struct opt_def frag_options[] = {
	{ .name = "keep-pct", .type = OPT_LONG, .offset = FO(keep_pct),
	  .arg = "PCT", .def = "20", .max = 90,
	  .help = "percent of each thread's share kept in long-lived blocks" },
	{ .name = "min-block", .type = OPT_SIZE, .offset = FO(min_block),
	  .arg = "SIZE", .def = "4K", .min = 4096, .max = 1LL << 30,
	  .help = "smallest block" },
	{ .name = "max-block", .type = OPT_SIZE, .offset = FO(max_block),
	  .arg = "SIZE", .def = "2M", .min = 4096, .max = 1LL << 30,
	  .help = "largest block" },
	{ .name = "ops", .type = OPT_U64, .offset = FO(ops), .arg = "N",
	  .def = "20000", .min = 1, .max = INT64_MAX,
	  .help = "allocations and frees in all (the fixed work)" },
	{ .name = NULL }
};
#undef FO

static const struct workload_counter frag_counters[] = {
	{ "ops", "ops", 1, WORKLOAD_RATE, 0 },
	{ "allocs", "blocks", 1, WORKLOAD_RATE, 0 },
	{ "frees", "blocks", 1, WORKLOAD_RATE, 0 },
	{ "allocated", "MB", 1e-6, WORKLOAD_RATE, 0 },
	{ "live", "MB", 1e-6, WORKLOAD_GAUGE, 0 },
	{ "long_lived", "MB", 1e-6, WORKLOAD_GAUGE, 0 },
	{ NULL, NULL, 0, 0, 0 }
};

/* Check the block sizes and split the size and the ops. */
static int
frag_prepare(struct workload_ctx *ctx, char **cause)
{
	struct frag_settings *s = ctx->settings;
	struct frag_plan *plan = xcalloc(1, sizeof *plan);
	uint64_t ps = ctx->page_size;

	ctx->priv = plan;
	if (s->min_block > s->max_block)
		return (fail_with(cause, RB_EXIT_INPUT, "frag-churn: "
		    "--min-block is larger than --max-block"));
	plan->min_pages = (s->min_block + ps - 1) / ps;
	plan->max_pages = s->max_block / ps;
	plan->budget_pages = ctx->size / ctx->nthreads / ps;
	if (plan->budget_pages < 4 * plan->max_pages)
		return (fail_with(cause, RB_EXIT_INPUT, "frag-churn: --size "
		    "must give each thread at least 4 x --max-block"));
	plan->ops = (s->ops + ctx->nthreads - 1) / ctx->nthreads;
	return (0);
}

/* Plan the ops of every thread. */
static int
frag_setup(struct workload_ctx *ctx, char **cause)
{
	struct frag_plan *plan = ctx->priv;
	int i;

	(void)cause;
	for (i = 0; i < ctx->nthreads; i++)
		workload_plan(ctx, i, plan->ops);
	return (0);
}

/* A block size in pages, log-uniform between the bounds. */
static uint64_t
frag_block_pages(struct workload_thread *t, const struct frag_plan *plan)
{
	uint64_t lo = plan->min_pages, hi = plan->max_pages, r, base;
	int orders = 0, k;

	for (base = lo; base * 2 <= hi; base *= 2)
		orders++;
	k = (int)(workload_random(t) % (uint64_t)(orders + 1));
	base = lo << k;
	r = base + workload_random(t) % base;
	return (r > hi ? hi : r);
}

/* Map and touch a block. */
static char *
frag_map(struct workload_thread *t, uint64_t pages)
{
	size_t ps = t->ctx->page_size, len = pages * ps, i;
	char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return (NULL);
	workload_madvise(t->ctx, p, len);
	for (i = 0; i < len; i += ps)
		p[i] = 1;
	return (p);
}

/* Allocate and free at random until the ops or the time are used up. */
static int
frag_run(struct workload_thread *t)
{
	const struct frag_settings *s = t->ctx->settings;
	const struct frag_plan *plan = t->ctx->priv;
	size_t ps = t->ctx->page_size;
	uint64_t cap = plan->budget_pages / plan->min_pages + 2;
	uint64_t live = 0, kept = 0, keep_limit, ops = 0, pages, i;
	struct frag_block *shortb = xcalloc(cap, sizeof *shortb);
	struct frag_block *longb = xcalloc(cap, sizeof *longb);
	size_t nshort = 0, nlong = 0;
	int fixed = t->ctx->common->duration_ns == 0 && !t->warmup, rc = 0;
	char *p;

	keep_limit = plan->budget_pages * (uint64_t)s->keep_pct / 100;
	while (fixed ? ops < plan->ops : !workload_stopping(t)) {
		if ((ops & 63) == 0 && workload_stop_requested(t->ctx))
			break;
		pages = frag_block_pages(t, plan);
		while (live + pages > plan->budget_pages && nshort > 0) {
			i = workload_random(t) % nshort;
			munmap(shortb[i].addr, shortb[i].pages * ps);
			live -= shortb[i].pages;
			shortb[i] = shortb[--nshort];
			workload_count(t, FRAG_FREES, 1);
			workload_count(t, FRAG_OPS, 1);
			workload_work(t, 1);
			ops++;
		}
		if (live + pages > plan->budget_pages)
			pages = plan->budget_pages - live;
		if (pages == 0)
			break;
		if ((p = frag_map(t, pages)) == NULL) {
			rc = workload_fail(t, RB_EXIT_ENV, "frag-churn: mmap "
			    "of %llu pages: %s", (unsigned long long)pages,
			    strerror(errno));
			break;
		}
		if (kept + pages <= keep_limit && workload_random(t) % 100 <
		    (uint64_t)s->keep_pct) {
			longb[nlong].addr = p;
			longb[nlong++].pages = pages;
			kept += pages;
		} else {
			shortb[nshort].addr = p;
			shortb[nshort++].pages = pages;
		}
		live += pages;
		workload_count(t, FRAG_ALLOCS, 1);
		workload_count(t, FRAG_OPS, 1);
		workload_count(t, FRAG_ALLOCATED, pages * ps);
		workload_work(t, 1);
		ops++;
	}
	workload_end_measure(t);
	workload_gauge(t, FRAG_LIVE, live * ps);
	workload_gauge(t, FRAG_LONG_LIVED, kept * ps);
	for (i = 0; i < nshort; i++)
		munmap(shortb[i].addr, shortb[i].pages * ps);
	for (i = 0; i < nlong; i++)
		munmap(longb[i].addr, longb[i].pages * ps);
	free(shortb);
	free(longb);
	return (rc);
}

const struct workload_desc workload_frag_churn = {
	.name = "frag-churn",
	.summary = "map and free blocks of 4 KiB to 2 MiB at random, some "
	    "long-lived",
	.options = frag_options,
	.settings_size = sizeof(struct frag_settings),
	.counters = frag_counters,
	.prepare = frag_prepare,
	.setup = frag_setup,
	.run = frag_run,
};
