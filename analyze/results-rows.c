/*
 * The tables of a results directory, one row function per CSV, storing
 * figures straight into the dense per-sample arrays of struct results,
 * and the order the files are read in (results-csv.c reads each file).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv-schema.h"
#include "log.h"
#include "results.h"
#include "results-csv.h"

#define MAX_NODES	1024
#define MAX_REGION_NO	65536

/* Hand-off state for rows that need to remember the previous region. */
struct row_ctx {
	struct results	*res;
	int		 last_node;
	int		 last_region;
	int		 last_index;
	int		 old_alloc;
	int		 classes_seen;
	int		 classes_missing;
	int		*rows_per_slot;
	int		 zeroed;	/* slots cleared so far */
	/* samples.csv: rows of each region in the newest slot, so that a
	 * sample written in the same millisecond as the one before starts
	 * a slot of its own instead of adding to it. */
	int		*seen;
	int		 seen_slot;
};

/* Region index of a row's node and region columns, failing on unknowns. */
static int
row_region(struct reader *rd, struct results *res, int node_slot,
    int region_slot, struct row_ctx *ctx)
{
	int node, region, idx;

	if (field_int(rd, node_slot, MAX_NODES, &node) != 0 ||
	    field_int(rd, region_slot, MAX_REGION_NO, &region) != 0)
		return (-1);
	if (node == ctx->last_node && region == ctx->last_region)
		return (ctx->last_index);
	if ((idx = results_region_index(res, node, region)) < 0) {
		reader_fail(rd, "node %d region %d is not in regions.csv",
		    node, region);
		return (-1);
	}
	ctx->last_node = node;
	ctx->last_region = region;
	ctx->last_index = idx;
	return (idx);
}

/*
 * Find or open the time slot for (t, phase): rows of one sample are
 * consecutive, so only the newest slot is compared.  Returns the slot, or -1
 * when time runs backwards.  *grown is set when a slot was added.
 */
static int
times_slot(struct reader *rd, struct results *res, struct results_times *tm,
    int t_slot, int phase_slot, int force_new, int *grown)
{
	const char *phase_name;
	double t;
	int phase;

	*grown = 0;
	if (field_double(rd, t_slot, &t) != 0)
		return (-1);
	phase_name = reader_field(rd, phase_slot);
	if (!force_new && tm->n > 0 && t == tm->t[tm->n - 1] &&
	    strcmp(res->phases[tm->phase[tm->n - 1]], phase_name) == 0)
		return (tm->n - 1);
	if (t < 0 || (tm->n > 0 && t < tm->t[tm->n - 1])) {
		reader_fail(rd, "t_s %.3f goes back in time (previous %.3f)",
		    t, tm->n > 0 ? tm->t[tm->n - 1] : 0.0);
		return (-1);
	}
	if (phase_name[0] == '\0') {
		reader_fail(rd, "phase: expected a phase name, got an empty "
		    "field");
		return (-1);
	}
	phase = results_phase_intern(res, phase_name);
	if (tm->n == tm->alloc) {
		tm->alloc = tm->alloc == 0 ? 256 : tm->alloc * 2;
		tm->t = xreallocarray(tm->t, tm->alloc, sizeof *tm->t);
		tm->phase = xreallocarray(tm->phase, tm->alloc,
		    sizeof *tm->phase);
		*grown = 1;
	}
	tm->t[tm->n] = t;
	tm->phase[tm->n] = phase;
	return (tm->n++);
}

/* Grow a per-slot array of width values to alloc slots, zeroed. */
static uint64_t *
grow_u64(uint64_t *p, int old_alloc, int alloc, size_t width)
{
	p = xreallocarray(p, (size_t)alloc * width, sizeof *p);
	memset(p + (size_t)old_alloc * width, 0,
	    (size_t)(alloc - old_alloc) * width * sizeof *p);
	return (p);
}

/*
 * Grow without zeroing: for the big samples arrays each slot is zeroed when
 * it is opened, so no memory is touched twice (this matters at 1.8 M rows).
 */
static uint64_t *
grow_raw(uint64_t *p, int alloc, size_t width)
{
	return (xreallocarray(p, (size_t)alloc * width, sizeof *p));
}

/*
 * The dense arrays of a table, width values per time slot: arrays[0] to
 * arrays[needed - 1] always exist, the others only once a row filled
 * them in (NULL until then).
 */
struct slot_arrays {
	uint64_t	**const *arrays;
	int		 n;
	int		 needed;
	size_t		 width;
};

/*
 * The time slot of a row of a table with t_s and phase columns (-1 when
 * the row is refused), with the table's arrays grown when a slot was
 * added and the slot zeroed when it is opened (so no memory is touched
 * twice).
 */
static int
row_slot(struct reader *rd, struct row_ctx *ctx, struct results_times *tm,
    int t_slot, int phase_slot, int force_new, const struct slot_arrays *sa)
{
	uint64_t **a;
	int s, grown, i;

	if ((s = times_slot(rd, ctx->res, tm, t_slot, phase_slot, force_new,
	    &grown)) < 0)
		return (-1);
	for (i = 0; i < sa->n; i++) {
		a = sa->arrays[i];
		if (*a == NULL && i >= sa->needed)
			continue;
		if (grown)
			*a = grow_raw(*a, tm->alloc, sa->width);
		if (s >= ctx->zeroed)
			memset(*a + (size_t)s * sa->width, 0,
			    sa->width * sizeof **a);
	}
	if (s >= ctx->zeroed)
		ctx->zeroed = s + 1;
	return (s);
}

/* ---- regions.csv ---- */

/* One zone of a region. */
static int
regions_row(struct reader *rd, void *opaque)
{
	struct row_ctx *ctx = opaque;
	struct results *res = ctx->res;
	struct results_region *r = NULL;
	uint64_t start, spanned, present;
	int node, region, i;

	if (field_int(rd, CSV_REGIONS_NODE, MAX_NODES, &node) != 0 ||
	    field_int(rd, CSV_REGIONS_REGION, MAX_REGION_NO, &region) != 0 ||
	    field_u64(rd, CSV_REGIONS_START_PFN, &start) != 0 ||
	    field_u64(rd, CSV_REGIONS_SPANNED, &spanned) != 0 ||
	    field_u64(rd, CSV_REGIONS_PRESENT, &present) != 0)
		return (0);
	if (reader_field(rd, CSV_REGIONS_ZONE)[0] == '\0') {
		reader_fail(rd, "zone: expected a zone name");
		return (0);
	}
	for (i = 0; i < res->nregions; i++) {
		if (res->regions[i].node == node &&
		    res->regions[i].region == region) {
			r = &res->regions[i];
			break;
		}
	}
	if (r == NULL) {
		res->regions = xreallocarray(res->regions, res->nregions + 1,
		    sizeof *res->regions);
		r = &res->regions[res->nregions++];
		memset(r, 0, sizeof *r);
		r->node = node;
		r->region = region;
		r->start_pfn = start;
		snprintf(r->name, sizeof r->name, "n%dr%d", node, region);
	}
	r->nzones++;
	/* A source that prints no pfns (sorted-buddy): the range is unknown. */
	if (start == RESULTS_UNKNOWN || spanned == RESULTS_UNKNOWN ||
	    r->start_pfn == RESULTS_UNKNOWN) {
		r->start_pfn = r->end_pfn = RESULTS_UNKNOWN;
	} else {
		if (start < r->start_pfn)
			r->start_pfn = start;
		if (start + spanned > r->end_pfn)
			r->end_pfn = start + spanned;
	}
	r->present_pages += present;
	return (0);
}

/* Order regions by (node, region) for binary search. */
static int
region_cmp(const void *a, const void *b)
{
	const struct results_region *x = a, *y = b;

	if (x->node != y->node)
		return (x->node < y->node ? -1 : 1);
	if (x->region != y->region)
		return (x->region < y->region ? -1 : 1);
	return (0);
}

/* ---- samples.csv ---- */

/* samples.csv: the used-page classes and uninitialised pages of a row. */
static int
samples_row_classes(struct reader *rd, struct row_ctx *ctx, size_t at)
{
	struct results *res = ctx->res;
	struct results_times *tm = &res->samples;
	uint64_t v;
	int c;

	for (c = 0; c < RESULTS_NCLASSES; c++) {
		if (field_u64(rd, CSV_SAMPLES_ANON + c, &v) != 0)
			return (-1);
		if (v == RESULTS_UNKNOWN)
			ctx->classes_missing = 1;
		else if (!ctx->classes_missing) {
			/* Class columns cost memory only when filled in. */
			if (res->cls[c] == NULL)
				res->cls[c] = xcalloc((size_t)tm->alloc *
				    res->nregions, sizeof *res->cls[c]);
			ctx->classes_seen = 1;
			res->cls[c][at] += v;
		}
	}
	if (field_u64(rd, CSV_SAMPLES_UNINIT, &v) != 0)
		return (-1);
	if (v != RESULTS_UNKNOWN && v > 0) {
		/* Only runs with memory left to initialise pay for it. */
		if (res->uninit == NULL)
			res->uninit = xcalloc((size_t)tm->alloc *
			    res->nregions, sizeof *res->uninit);
		res->uninit[at] += v;
	}
	return (0);
}

/*
 * samples.csv: a sampled scan's interval (free_pages_lo, free_pages_hi)
 * and the fewest used pages it allows, kept only once a row has one.
 */
static void
samples_row_interval(struct reader *rd, struct row_ctx *ctx, size_t at,
    uint64_t present, uint64_t free_pages)
{
	struct results *res = ctx->res;
	struct results_times *tm = &res->samples;
	uint64_t lo, hi;

	if (field_u64(rd, CSV_SAMPLES_FREE_LO, &lo) != 0 ||
	    field_u64(rd, CSV_SAMPLES_FREE_HI, &hi) != 0)
		return;
	if ((lo == RESULTS_UNKNOWN) != (hi == RESULTS_UNKNOWN) ||
	    (lo != RESULTS_UNKNOWN && (lo > free_pages || hi < free_pages))) {
		reader_fail(rd, "free_pages_lo and free_pages_hi must both be "
		    "empty or both hold an interval around free_pages");
		return;
	}
	if (lo != RESULTS_UNKNOWN && res->used_lo == NULL) {
		/* The first sampled row: every row so far was exact. */
		res->used_lo = xcalloc((size_t)tm->alloc * res->nregions,
		    sizeof *res->used_lo);
		res->partial = xcalloc((size_t)tm->alloc * res->nregions,
		    sizeof *res->partial);
		memcpy(res->used_lo, res->used, (size_t)tm->alloc *
		    res->nregions * sizeof *res->used_lo);
		res->used_lo[at] -= free_pages < present ? present -
		    free_pages : 0;
	}
	if (res->used_lo == NULL)
		return;
	if (lo != RESULTS_UNKNOWN) {
		res->partial[at] = 1;
		res->used_lo[at] += hi < present ? present - hi : 0;
	} else
		res->used_lo[at] += free_pages < present ? present -
		    free_pages : 0;
}

/*
 * samples.csv: how old the row's exact count is (counted_at_s, kpageflags
 * scans in rotation), kept only once a row has one.
 */
static void
samples_row_age(struct reader *rd, struct row_ctx *ctx, size_t at, double t)
{
	struct results *res = ctx->res;
	double counted;
	uint64_t age;

	if (field_double(rd, CSV_SAMPLES_COUNTED_AT, &counted) != 0 ||
	    isnan(counted))
		return;
	if (counted > t + 0.0005) {
		reader_fail(rd, "counted_at_s %.3f: expected a time no later "
		    "than t_s %.3f", counted, t);
		return;
	}
	age = counted < t ? (uint64_t)llround((t - counted) * 1000) : 0;
	if (res->count_age_ms == NULL) {
		if (age == 0)
			return;
		res->count_age_ms = xcalloc((size_t)res->samples.alloc *
		    res->nregions, sizeof *res->count_age_ms);
	}
	if (age > res->count_age_ms[at])
		res->count_age_ms[at] = age;
}

/* One (node, region, zone) of one sample. */
static int
samples_row(struct reader *rd, void *opaque)
{
	struct row_ctx *ctx = opaque;
	struct results *res = ctx->res;
	struct results_times *tm = &res->samples;
	uint64_t **const arrays[] = {
		&res->present, &res->free, &res->used,
		&res->cls[RESULTS_ANON], &res->cls[RESULTS_FILE],
		&res->cls[RESULTS_SLAB], &res->cls[RESULTS_PGTABLE],
		&res->cls[RESULTS_OTHER], &res->uninit, &res->used_lo,
		&res->partial, &res->count_age_ms
	};
	const struct slot_arrays sa = { arrays, 12, 3, res->nregions };
	uint64_t present, free_pages, managed;
	size_t at;
	int s, r, again;

	if ((r = row_region(rd, res, CSV_SAMPLES_NODE, CSV_SAMPLES_REGION,
	    ctx)) < 0)
		return (0);
	/* Every zone of the region already came: this row is a new sample. */
	again = ctx->seen_slot >= 0 && ctx->seen_slot == tm->n - 1 &&
	    ctx->seen[r] >= res->regions[r].nzones;
	if ((s = row_slot(rd, ctx, tm, CSV_SAMPLES_T, CSV_SAMPLES_PHASE, again,
	    &sa)) < 0)
		return (0);
	if (s != ctx->seen_slot) {
		memset(ctx->seen, 0, res->nregions * sizeof *ctx->seen);
		ctx->seen_slot = s;
	}
	ctx->seen[r]++;
	if (tm->alloc > ctx->old_alloc) {
		ctx->rows_per_slot = xreallocarray(ctx->rows_per_slot,
		    tm->alloc, sizeof *ctx->rows_per_slot);
		memset(ctx->rows_per_slot + ctx->old_alloc, 0, (tm->alloc -
		    ctx->old_alloc) * sizeof *ctx->rows_per_slot);
		ctx->old_alloc = tm->alloc;
	}
	if (field_u64(rd, CSV_SAMPLES_PRESENT, &present) != 0 ||
	    field_u64(rd, CSV_SAMPLES_FREE, &free_pages) != 0)
		return (0);
	if (free_pages != RESULTS_UNKNOWN && present != RESULTS_UNKNOWN &&
	    free_pages > present && free_pages - present >
	    res->free_over_present_by &&
	    reader_field(rd, CSV_SAMPLES_MANAGED) != NULL &&
	    field_u64(rd, CSV_SAMPLES_MANAGED, &managed) == 0 &&
	    managed != RESULTS_UNKNOWN) {
		res->free_over_present = rd->line;
		res->free_over_present_by = free_pages - present;
	}
	ctx->rows_per_slot[s]++;
	at = (size_t)s * res->nregions + r;
	res->present[at] += present;
	res->free[at] += free_pages;
	/* A zone that reports more free than present pages uses none. */
	res->used[at] += free_pages < present ? present - free_pages : 0;
	if (samples_row_classes(rd, ctx, at) == 0)
		samples_row_interval(rd, ctx, at, present, free_pages);
	samples_row_age(rd, ctx, at, tm->t[s]);
	return (0);
}

/* ---- buddy.csv ---- */

/* Free blocks of one order in one zone of a region. */
static int
buddy_row(struct reader *rd, void *opaque)
{
	struct row_ctx *ctx = opaque;
	struct results *res = ctx->res;
	uint64_t **const arrays[] = { &res->buddy_blocks };
	const struct slot_arrays sa = { arrays, 1, 1,
	    (size_t)res->nregions * RESULTS_MAX_ORDER };
	uint64_t blocks;
	int s, r, order;

	if ((s = row_slot(rd, ctx, &res->buddy, CSV_BUDDY_T, CSV_BUDDY_PHASE, 0,
	    &sa)) < 0)
		return (0);
	if ((r = row_region(rd, res, CSV_BUDDY_NODE, CSV_BUDDY_REGION,
	    ctx)) < 0 ||
	    field_int(rd, CSV_BUDDY_ORDER, RESULTS_MAX_ORDER - 1, &order) != 0 ||
	    field_u64(rd, CSV_BUDDY_FREE_BLOCKS, &blocks) != 0)
		return (0);
	if (order + 1 > res->buddy_orders)
		res->buddy_orders = order + 1;
	res->buddy_blocks[((size_t)s * res->nregions + r) * RESULTS_MAX_ORDER +
	    order] += blocks;
	return (0);
}

/* ---- pageblocks.csv ---- */

/* Is this migratetype one that pins its pageblock (cannot be moved)? */
static int
migratetype_unmovable(const char *type)
{
	return (strcmp(type, "Unmovable") == 0 ||
	    strcmp(type, "Reclaimable") == 0);
}

/* Pageblocks of one migratetype in one zone of a region. */
static int
pageblocks_row(struct reader *rd, void *opaque)
{
	struct row_ctx *ctx = opaque;
	struct results *res = ctx->res;
	uint64_t **const arrays[] = { &res->pb_unmovable, &res->pb_total };
	const struct slot_arrays sa = { arrays, 2, 2, res->nregions };
	uint64_t blocks;
	size_t at;
	int s, r;

	if ((s = row_slot(rd, ctx, &res->pageblocks, CSV_PAGEBLOCKS_T,
	    CSV_PAGEBLOCKS_PHASE, 0, &sa)) < 0)
		return (0);
	if ((r = row_region(rd, res, CSV_PAGEBLOCKS_NODE,
	    CSV_PAGEBLOCKS_REGION, ctx)) < 0 ||
	    field_u64(rd, CSV_PAGEBLOCKS_BLOCKS, &blocks) != 0)
		return (0);
	at = (size_t)s * res->nregions + r;
	res->pb_total[at] += blocks;
	if (migratetype_unmovable(reader_field(rd,
	    CSV_PAGEBLOCKS_MIGRATETYPE)))
		res->pb_unmovable[at] += blocks;
	return (0);
}

/* ---- pagetype.csv ---- */

/* Free blocks of one migratetype and order in one zone of a region. */
static int
pagetype_row(struct reader *rd, void *opaque)
{
	struct row_ctx *ctx = opaque;
	struct results *res = ctx->res;
	uint64_t **const arrays[] = { &res->pt_unmovable_free };
	const struct slot_arrays sa = { arrays, 1, 1, res->nregions };
	uint64_t blocks;
	int s, r, order;

	if ((s = row_slot(rd, ctx, &res->pagetype, CSV_PAGETYPE_T,
	    CSV_PAGETYPE_PHASE, 0, &sa)) < 0)
		return (0);
	if ((r = row_region(rd, res, CSV_PAGETYPE_NODE, CSV_PAGETYPE_REGION,
	    ctx)) < 0 ||
	    field_int(rd, CSV_PAGETYPE_ORDER, RESULTS_MAX_ORDER - 1,
	    &order) != 0 ||
	    field_u64(rd, CSV_PAGETYPE_FREE_BLOCKS, &blocks) != 0)
		return (0);
	if (migratetype_unmovable(reader_field(rd, CSV_PAGETYPE_MIGRATETYPE)))
		res->pt_unmovable_free[(size_t)s * res->nregions + r] +=
		    blocks << order;
	return (0);
}

/* ---- placement.csv ---- */

/* Pages of one process of a workload in one region. */
static int
placement_row(struct reader *rd, void *opaque)
{
	struct row_ctx *ctx = opaque;
	struct results *res = ctx->res;
	const char *name = reader_field(rd, CSV_PLACEMENT_WORKLOAD);
	uint64_t pages, pid;
	int s, r, w, grown;

	if ((s = times_slot(rd, res, &res->placement, CSV_PLACEMENT_T,
	    CSV_PLACEMENT_PHASE, 0, &grown)) < 0)
		return (0);
	if (field_u64(rd, CSV_PLACEMENT_PID, &pid) != 0 ||
	    (r = row_region(rd, res, CSV_PLACEMENT_NODE,
	    CSV_PLACEMENT_REGION, ctx)) < 0 ||
	    field_u64(rd, CSV_PLACEMENT_PAGES, &pages) != 0)
		return (0);
	if (name[0] == '\0') {
		reader_fail(rd, "workload: expected a workload name");
		return (0);
	}
	for (w = 0; w < res->nworkloads; w++) {
		if (strcmp(res->workloads[w], name) == 0)
			break;
	}
	if (w == res->nworkloads) {
		/* A new workload widens every slot: re-lay the array. */
		uint64_t *wider;
		int i, j;

		wider = xcalloc((size_t)res->placement.alloc *
		    (w + 1) * res->nregions, sizeof *wider);
		for (i = 0; i < res->placement.n && i < ctx->old_alloc; i++)
			for (j = 0; j < w; j++)
				memcpy(wider + ((size_t)i * (w + 1) + j) *
				    res->nregions, res->placement_pages +
				    ((size_t)i * w + j) * res->nregions,
				    res->nregions * sizeof *wider);
		free(res->placement_pages);
		res->placement_pages = wider;
		res->workloads = xreallocarray(res->workloads, w + 1,
		    sizeof *res->workloads);
		res->workloads[res->nworkloads++] = xstrdup(name);
		ctx->old_alloc = res->placement.alloc;
		grown = 0;
	}
	if (grown) {
		res->placement_pages = grow_u64(res->placement_pages,
		    ctx->old_alloc, res->placement.alloc,
		    (size_t)res->nworkloads * res->nregions);
		ctx->old_alloc = res->placement.alloc;
	}
	res->placement_pages[((size_t)s * res->nworkloads + w) *
	    res->nregions + r] += pages;
	return (0);
}

/* ---- references.csv ---- */

/*
 * What DAMON saw in one region over one aggregation interval.  A region
 * named twice in one interval, or more bytes referenced than watched, is
 * a damaged file, not something to add up.  An interval outside every
 * phase (empty phase) is checked, then left out: no sample can take it.
 */
static int
references_row(struct reader *rd, void *opaque)
{
	struct row_ctx *ctx = opaque;
	struct results *res = ctx->res;
	uint64_t **const arrays[] = { &res->ref_monitored,
	    &res->ref_referenced };
	const struct slot_arrays sa = { arrays, 2, 2, res->nregions };
	uint64_t monitored, referenced;
	double t, age;
	size_t at;
	int s, r;

	if (field_double(rd, CSV_REFERENCES_T, &t) != 0 ||
	    (r = row_region(rd, res, CSV_REFERENCES_NODE,
	    CSV_REFERENCES_REGION, ctx)) < 0 ||
	    field_u64(rd, CSV_REFERENCES_MONITORED, &monitored) != 0 ||
	    field_u64(rd, CSV_REFERENCES_REFERENCED, &referenced) != 0 ||
	    field_double(rd, CSV_REFERENCES_IDLE_AGE, &age) != 0)
		return (0);
	if (referenced > monitored) {
		reader_fail(rd, "referenced_bytes %llu is more than "
		    "monitored_bytes %llu", (unsigned long long)referenced,
		    (unsigned long long)monitored);
		return (0);
	}
	if (age < 0) {
		reader_fail(rd, "idle_age_s: expected seconds (0 or more) or "
		    "an empty field, got %g", age);
		return (0);
	}
	if (reader_field(rd, CSV_REFERENCES_PHASE)[0] == '\0')
		return (0);
	if ((s = row_slot(rd, ctx, &res->references, CSV_REFERENCES_T,
	    CSV_REFERENCES_PHASE, 0, &sa)) < 0)
		return (0);
	if (s != ctx->seen_slot) {
		memset(ctx->seen, 0, res->nregions * sizeof *ctx->seen);
		ctx->seen_slot = s;
	}
	if (ctx->seen[r]++ > 0) {
		reader_fail(rd, "node %d region %d appears twice in the "
		    "interval ending at t_s %.3f", res->regions[r].node,
		    res->regions[r].region, res->references.t[s]);
		return (0);
	}
	at = (size_t)s * res->nregions + r;
	res->ref_monitored[at] = monitored;
	res->ref_referenced[at] = referenced;
	return (0);
}

/* ---- workloads.csv ---- */

/* One figure a workload reported. */
static int
workloads_row(struct reader *rd, void *opaque)
{
	struct row_ctx *ctx = opaque;
	struct results *res = ctx->res;
	struct results_workload_row *w;
	double value;

	if (field_double(rd, CSV_WORKLOADS_VALUE, &value) != 0)
		return (0);
	if (reader_field(rd, CSV_WORKLOADS_PHASE)[0] == '\0' ||
	    reader_field(rd, CSV_WORKLOADS_WORKLOAD)[0] == '\0' ||
	    reader_field(rd, CSV_WORKLOADS_METRIC)[0] == '\0') {
		reader_fail(rd, "expected phase, workload and metric names");
		return (0);
	}
	res->wl_rows = xreallocarray(res->wl_rows, res->nwl_rows + 1,
	    sizeof *res->wl_rows);
	w = &res->wl_rows[res->nwl_rows++];
	w->phase = results_phase_intern(res, reader_field(rd, CSV_WORKLOADS_PHASE));
	w->workload = xstrdup(reader_field(rd, CSV_WORKLOADS_WORKLOAD));
	w->thread = xstrdup(reader_field(rd, CSV_WORKLOADS_THREAD));
	w->metric = xstrdup(reader_field(rd, CSV_WORKLOADS_METRIC));
	w->value = value;
	w->unit = xstrdup(reader_field(rd, CSV_WORKLOADS_UNIT));
	return (0);
}

/* ---- events.csv ---- */

/* One event of the run. */
static int
events_row(struct reader *rd, void *opaque)
{
	struct row_ctx *ctx = opaque;
	struct results *res = ctx->res;
	struct results_event *e;
	const char *phase = reader_field(rd, CSV_EVENTS_PHASE);
	double t;

	if (field_double(rd, CSV_EVENTS_T, &t) != 0)
		return (0);
	if (reader_field(rd, CSV_EVENTS_EVENT)[0] == '\0') {
		reader_fail(rd, "event: expected an event name");
		return (0);
	}
	res->events = xreallocarray(res->events, res->nevents + 1,
	    sizeof *res->events);
	e = &res->events[res->nevents++];
	e->t = t;
	e->event = xstrdup(reader_field(rd, CSV_EVENTS_EVENT));
	e->detail = xstrdup(reader_field(rd, CSV_EVENTS_DETAIL));
	e->phase = phase != NULL && phase[0] != '\0' ?
	    results_phase_intern(res, phase) : -1;
	/* Older writers named the phase in detail. */
	if (e->phase < 0 && e->detail[0] != '\0' &&
	    (strcmp(e->event, "phase_start") == 0 ||
	    strcmp(e->event, "phase_end") == 0))
		e->phase = results_phase_intern(res, e->detail);
	return (0);
}

/* regions.csv is read: keep regions sorted for binary search. */
static int
regions_done(struct results *res, struct row_ctx *ctx, char **cause)
{
	(void)ctx;
	if (res->nregions == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s/regions.csv:2: "
		    "expected at least one region", res->dir));
	qsort(res->regions, res->nregions, sizeof *res->regions, region_cmp);
	return (0);
}

/*
 * samples.csv is read: drop a last sample a kill cut short, and the class
 * arrays when any row lacked them.
 */
static int
samples_done(struct results *res, struct row_ctx *ctx, char **cause)
{
	int c;

	(void)cause;
	if (res->samples.n > 1 && strcmp(res->status, "complete") != 0 &&
	    ctx->rows_per_slot[res->samples.n - 1] < ctx->rows_per_slot[0]) {
		log_warnx("%s/samples.csv: dropped the incomplete last sample "
		    "(t_s %.3f; the run did not complete)", res->dir,
		    res->samples.t[res->samples.n - 1]);
		res->samples.n--;
	}
	if (ctx->classes_missing || !ctx->classes_seen) {
		for (c = 0; c < RESULTS_NCLASSES; c++) {
			free(res->cls[c]);
			res->cls[c] = NULL;
		}
	}
	return (0);
}

/*
 * The files of a run in the order they are read: regions first (every
 * other file names its regions), then samples; the rest may be absent.
 */
static const struct {
	enum csv_table	 table;
	row_fn		 row;
	int		(*done)(struct results *, struct row_ctx *, char **);
} loaders[] = {
	{ CSV_REGIONS, regions_row, regions_done },
	{ CSV_SAMPLES, samples_row, samples_done },
	{ CSV_BUDDY, buddy_row, NULL },
	{ CSV_PAGEBLOCKS, pageblocks_row, NULL },
	{ CSV_PAGETYPE, pagetype_row, NULL },
	{ CSV_PLACEMENT, placement_row, NULL },
	{ CSV_WORKLOADS, workloads_row, NULL },
	{ CSV_REFERENCES, references_row, NULL },
	{ CSV_EVENTS, events_row, NULL },
};

/* Read one file with a fresh row context, then finish it. */
static int
load_file(struct results *res, int i, char **cause)
{
	struct row_ctx ctx;
	int rc;

	memset(&ctx, 0, sizeof ctx);
	ctx.res = res;
	ctx.last_node = ctx.last_region = -1;
	ctx.seen_slot = -1;
	ctx.seen = xcalloc(res->nregions + 1, sizeof *ctx.seen);
	rc = reader_run(res->dir, loaders[i].table,
	    strcmp(res->status, "complete") != 0, loaders[i].row, &ctx,
	    &res->rows_read, cause);
	if (rc == 0 && loaders[i].done != NULL)
		rc = loaders[i].done(res, &ctx, cause);
	free(ctx.rows_per_slot);
	free(ctx.seen);
	return (rc);
}

/* Read every table of a run, in the order of loaders. */
int
results_read_tables(struct results *res, char **cause)
{
	size_t i;
	int rc;

	for (i = 0; i < sizeof loaders / sizeof loaders[0]; i++) {
		if ((rc = load_file(res, i, cause)) != 0)
			return (rc);
	}
	return (0);
}
