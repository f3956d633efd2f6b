/*
 * The kpageflags source on the synthetic machine of tests/kpf-tree.h:
 * exact counts per region key for kernels that mark every free page and
 * for kernels that mark only block heads (including the ambiguous case),
 * block regions, a partial --region-map, several scan threads, a short
 * kpageflags file and a machine without one.  The region map itself is
 * tested in t-region-map.c, placement in t-placement.c.
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kpf-tree.h"
#include "log.h"
#include "procfile.h"
#include "procfs.h"
#include "region-map.h"
#include "src-kpageflags.h"
#include "tap.h"

static char tree_all[4096];
static char tree_head[4096];
static char tree_fw[4096];

/* Expected figures of one region key. */
struct want {
	int		 node;
	int		 region;
	const char	*zone;
	uint64_t	 start, spanned, present, managed, free;
	uint64_t	 anon, file, slab, pgtable, other;
	uint64_t	 blocks[11];
};

/* Open the kpageflags source on a tree with the given region settings. */
static int
open_source(struct source *src, const char *tree, uint64_t size, int block,
    const char *map, int threads, char **cause)
{
	static struct src_kpageflags_settings set;

	memset(src, 0, sizeof *src);
	src->ops = &src_kpageflags_ops;
	snprintf(src->cfg.proc_root, sizeof src->cfg.proc_root, "%s/proc",
	    tree);
	snprintf(src->cfg.sys_root, sizeof src->cfg.sys_root, "%s/sys", tree);
	set.region_bytes = size;
	set.region_block = block;
	set.region_map = (char *)map;
	set.scan_threads = threads;
	src->settings = &set;
	procfile_init(&src->zoneinfo);
	procfile_init(&src->buddyinfo);
	procfile_init(&src->pagetypeinfo);
	return (src->ops->open(src, cause));
}

/* Close what open_source opened. */
static void
close_source(struct source *src)
{
	src->ops->close(src);
	procfile_free(&src->zoneinfo);
	procfile_free(&src->buddyinfo);
	procfile_free(&src->pagetypeinfo);
}

/* Compare one key of a snapshot with what the layout says. */
static void
check_key(struct snapshot *snap, const struct want *w, const char *what)
{
	struct snap_entry *e;
	int k;

	e = snapshot_find(snap, w->node, w->region, w->zone);
	if (!tap_ok(e != NULL, "%s: key %d/%d/%s exists", what, w->node,
	    w->region, w->zone))
		return;
	tap_eq_u64(e->start_pfn, w->start, "%s %d/%d/%s start_pfn", what,
	    w->node, w->region, w->zone);
	tap_eq_u64(e->spanned, w->spanned, "%s %d/%d/%s spanned", what,
	    w->node, w->region, w->zone);
	tap_eq_u64(e->present, w->present, "%s %d/%d/%s present", what,
	    w->node, w->region, w->zone);
	tap_eq_u64(e->managed, w->managed, "%s %d/%d/%s managed", what,
	    w->node, w->region, w->zone);
	tap_eq_u64(e->free_pages, w->free, "%s %d/%d/%s free", what, w->node,
	    w->region, w->zone);
	tap_eq_u64(e->used[SNAP_USED_ANON], w->anon, "%s %d/%d/%s anon", what,
	    w->node, w->region, w->zone);
	tap_eq_u64(e->used[SNAP_USED_FILE], w->file, "%s %d/%d/%s file", what,
	    w->node, w->region, w->zone);
	tap_eq_u64(e->used[SNAP_USED_SLAB], w->slab, "%s %d/%d/%s slab", what,
	    w->node, w->region, w->zone);
	tap_eq_u64(e->used[SNAP_USED_PGTABLE], w->pgtable, "%s %d/%d/%s "
	    "pgtable", what, w->node, w->region, w->zone);
	tap_eq_u64(e->used[SNAP_USED_OTHER], w->other, "%s %d/%d/%s other",
	    what, w->node, w->region, w->zone);
	tap_ok(e->has_used == 1 && e->norders == 11, "%s %d/%d/%s has used "
	    "classes and 11 orders", what, w->node, w->region, w->zone);
	for (k = 0; k < 11; k++) {
		if (e->free_blocks[k] != w->blocks[k])
			break;
	}
	if (!tap_ok(k == 11, "%s %d/%d/%s free blocks per order", what,
	    w->node, w->region, w->zone))
		tap_diag("order %d: got %llu, want %llu", k,
		    (unsigned long long)e->free_blocks[k],
		    (unsigned long long)w->blocks[k]);
}

/* A string member of the source's meta.json object. */
static const char *
describe_str(struct source *src, json_t *obj, const char *key)
{
	src->ops->describe(src, obj);
	return (json_string_value(json_object_get(obj, key)));
}

/* The same figures in two snapshots, whenever they were counted. */
static int
same_figures(struct snapshot *a, struct snapshot *b)
{
	int i;

	if (a->nentries != b->nentries)
		return (0);
	for (i = 0; i < a->nentries; i++)
		a->entries[i].counted_ns = b->entries[i].counted_ns = 0;
	return (memcmp(a->entries, b->entries, a->nentries *
	    sizeof *a->entries) == 0);
}

/* Every page of a free block marked BUDDY: the "run" rule is exact. */
static void
test_all_pages(void)
{
	static const struct want want[] = {
		{ 0, 0, "DMA", 1, 4095, 3840, 3840, 3840, 0, 0, 0, 0, 0,
		  { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 3 } },
		{ 0, 0, "Normal", 4096, 61440, 45056, 45056, 4111, 6141, 1024,
		  512, 128, 33140, { 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 4 } },
		{ 0, 1, "Normal", 65536, 65536, 0, 0, 0, 0, 0, 0, 0, 0,
		  { 0 } },
		{ 1, 0, "Normal", 163840, 65536, 63488, 63488, 30720, 32768, 0,
		  0, 0, 0, { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 30 } },
	};
	struct snapshot snap, snap2;
	struct source src;
	char *cause = NULL;
	json_t *obj;
	size_t i;
	int rc;

	snapshot_init(&snap);
	snapshot_init(&snap2);
	rc = open_source(&src, tree_all, 256 << 20, 0, NULL, 1, &cause);
	if (!tap_ok(rc == 0, "all-pages: open (%s)", cause ? cause : "ok"))
		return;
	rc = src.ops->read(&src, &snap, 0, &cause);
	tap_ok(rc == 0, "all-pages: read (%s)", rc ? cause : "ok");
	tap_eq_u64(snap.nentries, 4, "all-pages: 4 region keys");
	for (i = 0; i < sizeof want / sizeof want[0]; i++)
		check_key(&snap, &want[i], "all-pages");
	if (!tap_ok(snap.nwarn == 0, "all-pages: counted free matches "
	    "zoneinfo (no warning)"))
		tap_diag("%s", snap.warn[0]);
	obj = json_object();
	tap_eq_str(describe_str(&src, obj, "buddy_marking"), "all-pages",
	    "all-pages: detected from the data");
	tap_eq_str(json_string_value(json_object_get(obj, "order_rule")),
	    "run", "all-pages: order rule is 'run'");
	json_decref(obj);

	rc = src.ops->read(&src, &snap2, 0, &cause);
	tap_ok(rc == 0 && same_figures(&snap, &snap2), "all-pages: a second "
	    "read gives the same snapshot");
	close_source(&src);

	rc = open_source(&src, tree_all, 256 << 20, 0, NULL, 2, &cause);
	tap_ok(rc == 0 && src.ops->read(&src, &snap2, 0, &cause) == 0 &&
	    same_figures(&snap, &snap2), "two scan threads give the same "
	    "snapshot as one");
	close_source(&src);
	rc = open_source(&src, tree_all, 256 << 20, 0, NULL, 7, &cause);
	tap_ok(rc == 0 && src.ops->read(&src, &snap2, 0, &cause) == 0 &&
	    same_figures(&snap, &snap2), "seven scan threads give the same "
	    "snapshot as one");
	close_source(&src);
	snapshot_free(&snap);
	snapshot_free(&snap2);
}

/*
 * Only heads marked: rule oldA.  The order-1 block at 9984 is followed by
 * 254 flag-less pages, so oldA documents it as one order-8 block (256
 * pages): 254 pages too many, which the accuracy check reports.
 */
static void
test_head_only(void)
{
	static const struct want want[] = {
		{ 0, 0, "DMA", 1, 4095, 3840, 3840, 3840, 0, 0, 0, 0, 0,
		  { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 3 } },
		{ 0, 0, "Normal", 4096, 61440, 45056, 45056, 4365, 6141, 1024,
		  512, 128, 32886, { 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 4 } },
		{ 1, 0, "Normal", 163840, 65536, 63488, 63488, 30720, 32768, 0,
		  0, 0, 0, { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 30 } },
	};
	struct snapshot snap;
	struct source src;
	char *cause = NULL;
	json_t *obj;
	size_t i;
	int rc;

	snapshot_init(&snap);
	rc = open_source(&src, tree_head, 256 << 20, 0, NULL, 1, &cause);
	if (!tap_ok(rc == 0, "head-only: open (%s)", cause ? cause : "ok"))
		return;
	rc = src.ops->read(&src, &snap, 0, &cause);
	tap_ok(rc == 0, "head-only: read (%s)", rc ? cause : "ok");
	for (i = 0; i < sizeof want / sizeof want[0]; i++)
		check_key(&snap, &want[i], "head-only");
	tap_ok(snap.nwarn == 1 && strstr(snap.warn[0], "node 0 zone Normal") !=
	    NULL && strstr(snap.warn[0], "+246") != NULL, "head-only: the "
	    "ambiguous block is reported by the accuracy check (%s)",
	    snap.nwarn > 0 ? snap.warn[0] : "no warning");
	obj = json_object();
	tap_eq_str(describe_str(&src, obj, "buddy_marking"), "head-only",
	    "head-only: detected from the data");
	tap_eq_str(json_string_value(json_object_get(obj, "order_rule")),
	    "oldA", "head-only: order rule is 'oldA'");
	tap_eq_u64(json_integer_value(json_object_get(json_object_get(obj,
	    "accuracy"), "worst_outside_pages")), 246, "head-only: worst "
	    "difference kept for meta.json");
	json_decref(obj);
	rc = src.ops->read(&src, &snap, 0, &cause);
	tap_ok(rc == 0 && snapshot_find(&snap, 0, 0, "Normal")->free_pages ==
	    4365, "head-only: later samples keep the head rule");
	close_source(&src);
	snapshot_free(&snap);
}

/* One region per memory block. */
static void
test_blocks(void)
{
	static const struct want want[] = {
		{ 0, 0, "Normal", 4096, 28672, 28672, 28672, 4107, 6141, 1024,
		  512, 128, 16760, { 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 4 } },
		{ 0, 1, "Normal", 32768, 32768, 16384, 16384, 4, 0, 0, 0, 0,
		  16380, { 0 } },
		{ 0, 2, "Normal", 65536, 32768, 0, 0, 0, 0, 0, 0, 0, 0, { 0 } },
		{ 0, 3, "Normal", 98304, 32768, 0, 0, 0, 0, 0, 0, 0, 0, { 0 } },
		{ 1, 0, "Normal", 163840, 32768, 30720, 30720, 30720, 0, 0, 0,
		  0, 0, { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 30 } },
		{ 1, 1, "Normal", 196608, 32768, 32768, 32768, 0, 32768, 0, 0,
		  0, 0, { 0 } },
	};
	struct snapshot snap;
	struct source src;
	char *cause = NULL;
	size_t i;
	int rc;

	snapshot_init(&snap);
	rc = open_source(&src, tree_all, 0, 1, NULL, 1, &cause);
	if (!tap_ok(rc == 0, "block regions: open (%s)", cause ? cause : "ok"))
		return;
	rc = src.ops->read(&src, &snap, 0, &cause);
	tap_eq_u64(snap.nentries, 7, "block regions: 7 region keys");
	for (i = 0; i < sizeof want / sizeof want[0]; i++)
		check_key(&snap, &want[i], "block");
	close_source(&src);
	snapshot_free(&snap);
}

/*
 * A region map that leaves online memory out: that zone cannot be checked
 * against zoneinfo, so no warning, and meta.json says so.
 */
static void
test_partial_map(void)
{
	struct snapshot snap;
	struct source src;
	char file[4200], *cause = NULL, *text;
	json_t *obj, *unchecked;

	snprintf(file, sizeof file, "%s/partial.csv", tree_all);
	kpf_tree_text(tree_all, "partial.csv", "0,0,131072\n1,196608,229376\n");
	snapshot_init(&snap);
	if (!tap_ok(open_source(&src, tree_all, 0, 0, file, 1, &cause) == 0 &&
	    src.ops->read(&src, &snap, 0, &cause) == 0, "partial map: read "
	    "(%s)", cause ? cause : "ok"))
		return;
	tap_eq_u64(snap.nentries, 3, "partial map: 3 region keys");
	tap_ok(snapshot_find(&snap, 1, 0, "Normal") != NULL &&
	    snapshot_find(&snap, 1, 0, "Normal")->start_pfn == 196608 &&
	    snapshot_find(&snap, 1, 0, "Normal")->free_pages == 0,
	    "partial map: node 1 region 0 is the listed range");
	tap_ok(snap.nwarn == 0, "partial map: no accuracy warning for the "
	    "zone it leaves partly out");
	obj = json_object();
	src.ops->describe(&src, obj);
	unchecked = json_object_get(json_object_get(obj, "accuracy"),
	    "unchecked_zones");
	text = json_dumps(unchecked, JSON_COMPACT);
	tap_ok(json_array_size(unchecked) == 1 && strcmp(json_string_value(
	    json_array_get(unchecked, 0)), "node 1 zone Normal") == 0,
	    "partial map: meta.json names the unchecked zone (%s)", text);
	free(text);
	json_decref(obj);
	close_source(&src);
	snapshot_free(&snap);
}

/*
 * A kpageflags file that ends inside the zones' pfn span is no kpageflags
 * file: bad input (exit 2) naming the file and the offset where it ends.
 */
static void
test_short_file(void)
{
	struct snapshot snap;
	struct source src;
	char path[4200], *cause = NULL;
	int rc;

	snprintf(path, sizeof path, "%s/proc/kpageflags", tree_all);
	if (truncate(path, 200000 * 8) != 0) {
		tap_ok(0, "short file: truncate %s", path);
		return;
	}
	snapshot_init(&snap);
	if (!tap_ok(open_source(&src, tree_all, 256 << 20, 0, NULL, 1,
	    &cause) == 0, "short file: open (%s)", cause ? cause : "ok"))
		return;
	rc = src.ops->read(&src, &snap, 0, &cause);
	tap_ok(rc == -RB_EXIT_INPUT && cause != NULL &&
	    strstr(cause, "kpageflags: cut short at offset 1600000") != NULL,
	    "short file: refused as bad input naming the offset (%s)",
	    cause ? cause : "accepted");
	free(cause);
	close_source(&src);
	snapshot_free(&snap);
}

/* Environment errors: exit 3 with advice. */
static void
test_env(void)
{
	struct source src;
	char *cause = NULL;
	char empty[4200];
	int rc;

	snprintf(empty, sizeof empty, "%s/sys", tree_all);
	rc = open_source(&src, empty, 256 << 20, 0, NULL, 1, &cause);
	tap_ok(rc == -RB_EXIT_ENV && cause != NULL &&
	    strstr(cause, "--source zone") != NULL, "no kpageflags: exit 3 "
	    "naming the alternative (%s)", cause ? cause : "no cause");
	free(cause);
	if (src.priv != NULL)
		close_source(&src);
}

/*
 * The edges of the figures on the 256 MiB map: memory the kernel has not
 * initialised (uninit, not present), per-CPU pages (count: 10 in node 0
 * Normal, counted as free) and firmware reserves (PG_reserved below 1 MiB
 * or outside System RAM of sys/firmware/memmap: neither present nor
 * used).
 */
static void
test_edges(const char *tree)
{
	static const uint64_t reserved[512] = { [0 ... 511] = T_RESERVED };
	struct snapshot snap;
	struct snap_entry *e;
	struct source src;
	char *cause = NULL, path[4200];
	json_t *obj;
	int fd;

	snapshot_init(&snap);
	if (!tap_ok(open_source(&src, tree_all, 256 << 20, 0, NULL, 1,
	    &cause) == 0 && src.ops->read(&src, &snap, 0, &cause) == 0,
	    "edges: open and read (%s)", cause ? cause : "ok"))
		return;
	e = snapshot_find(&snap, 0, 1, "Normal");
	tap_ok(e != NULL && e->present == 0 && e->uninit == 32768 &&
	    e->free_pages == 0 && e->used[SNAP_USED_OTHER] == 0,
	    "edges: a region of memory not initialised yet has uninit pages, "
	    "none present, free or used");
	e = snapshot_find(&snap, 0, 0, "Normal");
	tap_ok(e != NULL && e->uninit == 16384 && e->free_pages == 4101 + 10,
	    "edges: a partly initialised region; its 10 per-CPU pages are "
	    "free, not other kernel pages");
	e = snapshot_find(&snap, 0, 0, "DMA");
	tap_ok(e != NULL && e->present == 3840 && e->used[SNAP_USED_OTHER] ==
	    0, "edges: the 255 PG_reserved pages below 1 MiB are the "
	    "firmware's, not used RAM");
	obj = json_object();
	src.ops->describe(&src, obj);
	tap_eq_u64(json_integer_value(json_object_get(obj,
	    "firmware_reserved_pages")), 255, "edges: meta.json counts them");
	json_decref(obj);
	close_source(&src);

	/* 512 PG_reserved pages at pfn 196608, a Reserved memmap range. */
	kpf_tree_build(tree, 0);
	snprintf(path, sizeof path, "%s/proc/kpageflags", tree);
	if ((fd = open(path, O_WRONLY)) == -1 || pwrite(fd, reserved,
	    sizeof reserved, 196608 * 8) != sizeof reserved || close(fd) != 0) {
		tap_ok(0, "edges: write %s", path);
		return;
	}
	kpf_tree_text(tree, "sys/firmware/memmap/0/start", "0x100000\n");
	kpf_tree_text(tree, "sys/firmware/memmap/0/end", "0x1fffffff\n");
	kpf_tree_text(tree, "sys/firmware/memmap/0/type", "System RAM\n");
	kpf_tree_text(tree, "sys/firmware/memmap/1/start", "0x30000000\n");
	kpf_tree_text(tree, "sys/firmware/memmap/1/end", "0x301fffff\n");
	kpf_tree_text(tree, "sys/firmware/memmap/1/type", "Reserved\n");
	tap_ok(open_source(&src, tree, 256 << 20, 0, NULL, 2, &cause) == 0 &&
	    src.ops->read(&src, &snap, 0, &cause) == 0, "edges: firmware "
	    "tree read (%s)", cause ? cause : "ok");
	e = snapshot_find(&snap, 1, 0, "Normal");
	tap_ok(e != NULL && e->present == 62976 && e->managed == 62976 &&
	    e->used[SNAP_USED_ANON] == 32256 && e->used[SNAP_USED_OTHER] == 0,
	    "edges: PG_reserved pages outside System RAM are neither present "
	    "nor used");
	close_source(&src);
	kpf_tree_text(tree, "sys/firmware/memmap/1/type", "System RAM\n");
	tap_ok(open_source(&src, tree, 256 << 20, 0, NULL, 1, &cause) == 0 &&
	    src.ops->read(&src, &snap, 0, &cause) == 0, "edges: System RAM "
	    "tree read (%s)", cause ? cause : "ok");
	e = snapshot_find(&snap, 1, 0, "Normal");
	tap_ok(e != NULL && e->present == 63488 && e->managed == 62976 &&
	    e->used[SNAP_USED_OTHER] == 512, "edges: PG_reserved pages in "
	    "System RAM stay used kernel memory");
	close_source(&src);
	kpf_tree_text(tree, "sys/firmware/memmap/2/type", "Reserved\n");
	kpf_tree_text(tree, "sys/firmware/memmap/2/start", "zz\n");
	kpf_tree_text(tree, "sys/firmware/memmap/2/end", "0x1000\n");
	tap_ok(open_source(&src, tree, 256 << 20, 0, NULL, 1, &cause) == 0 &&
	    src.ops->read(&src, &snap, 0, &cause) == 0 &&
	    snapshot_find(&snap, 0, 0, "DMA")->present == 3840,
	    "edges: a memmap entry that does not parse leaves the first MiB "
	    "rule, with a warning, and the source opens");
	close_source(&src);
	snapshot_free(&snap);
	free(cause);
}

/* Open the source with sampled scans (256 MiB regions). */
static int
open_sampled(struct source *src, const char *tree, double fraction,
    uint64_t every, uint64_t seed, int threads, char **cause)
{
	static struct src_kpageflags_settings set;

	memset(src, 0, sizeof *src);
	src->ops = &src_kpageflags_ops;
	if (snprintf(src->cfg.proc_root, sizeof src->cfg.proc_root, "%s/proc",
	    tree) >= (int)sizeof src->cfg.proc_root ||
	    snprintf(src->cfg.sys_root, sizeof src->cfg.sys_root, "%s/sys",
	    tree) >= (int)sizeof src->cfg.sys_root)
		return (-1);
	memset(&set, 0, sizeof set);
	set.region_bytes = 256 << 20;
	set.scan_threads = threads;
	set.scan_fraction = fraction;
	set.full_scan_every = every;
	set.scan_seed = seed;
	src->settings = &set;
	procfile_init(&src->zoneinfo);
	procfile_init(&src->buddyinfo);
	procfile_init(&src->pagetypeinfo);
	return (src->ops->open(src, cause));
}

/*
 * --scan-fraction: on the synthetic machine, whose counts are known, the
 * 95 % interval of node 1 region 0 (64 units: 30 free, 32 anon, 2 not
 * present) covers the true free pages in about 95 % of 400 samples drawn
 * from a fixed seed; full scans come every N samples; the same seed draws
 * the same units whatever the threads.
 */
static void
test_fraction(void)
{
	struct source src, src2;
	struct snapshot snap, snap2;
	struct snap_entry *e, *e2;
	char *cause = NULL;
	int i, covered = 0, inside = 1, sampled = 0, pattern = 1, same = 1;
	double rate;

	/* The tests before cut the file short: a fresh machine. */
	kpf_tree_build(tree_all, 0);
	snapshot_init(&snap);
	snapshot_init(&snap2);
	tap_ok(open_sampled(&src, tree_all, 0.25, 1000000, 12345, 1,
	    &cause) == 0,
	    "fraction: open (%s)", cause ? cause : "ok");
	tap_ok(src.ops->read(&src, &snap, 0, &cause) == 0, "fraction: first "
	    "sample (%s)", cause ? cause : "ok");
	e = snapshot_find(&snap, 1, 0, "Normal");
	tap_ok(e != NULL && !e->free_interval && e->free_pages == 30720,
	    "fraction: the first sample is a full scan, exact");
	for (i = 0; i < 400; i++) {
		if (src.ops->read(&src, &snap, 0, &cause) != 0)
			break;
		e = snapshot_find(&snap, 1, 0, "Normal");
		if (e == NULL || !e->free_interval)
			continue;
		sampled++;
		if (e->free_lo > e->free_pages || e->free_hi < e->free_pages)
			inside = 0;
		covered += e->free_lo <= 30720 && e->free_hi >= 30720;
	}
	rate = sampled > 0 ? (double)covered / sampled : 0;
	tap_eq_u64((uint64_t)sampled, 400, "fraction: 400 sampled scans with "
	    "intervals");
	tap_ok(inside, "fraction: every estimate lies inside its interval");
	tap_ok(rate >= 0.90 && rate <= 0.99, "fraction: the 95 %% interval "
	    "covers the true free pages in %.1f %% of the samples", rate * 100);
	close_source(&src);

	/* Full scans at samples 0, 4, 8; sampled ones between. */
	tap_ok(open_sampled(&src, tree_all, 0.25, 4, 99, 1, &cause) == 0 &&
	    open_sampled(&src2, tree_all, 0.25, 4, 99, 2, &cause) == 0,
	    "fraction: open with full scans every 4, one and two threads");
	for (i = 0; i < 9; i++) {
		if (src.ops->read(&src, &snap, 0, &cause) != 0 ||
		    src2.ops->read(&src2, &snap2, 0, &cause) != 0) {
			pattern = same = 0;
			break;
		}
		e = snapshot_find(&snap, 1, 0, "Normal");
		e2 = snapshot_find(&snap2, 1, 0, "Normal");
		if (e == NULL || e2 == NULL || (i % 4 == 0) == e->free_interval)
			pattern = 0;
		if (e == NULL || e2 == NULL ||
		    e->free_pages != e2->free_pages ||
		    e->free_lo != e2->free_lo || e->free_hi != e2->free_hi ||
		    e->present != e2->present)
			same = 0;
	}
	tap_ok(pattern, "fraction: a full scan every 4 samples, the first "
	    "included");
	tap_ok(same, "fraction: the same seed gives the same estimates with "
	    "one and two threads");
	close_source(&src);
	close_source(&src2);
	snapshot_free(&snap);
	snapshot_free(&snap2);
	free(cause);
}

int
main(void)
{
	if (sysconf(_SC_PAGESIZE) != 4096)
		tap_skip_all("the synthetic machine assumes 4 KiB pages");
	snprintf(tree_all, sizeof tree_all, "%s", tap_scratch_dir("t-kpf"));
	snprintf(tree_head, sizeof tree_head, "%s", tap_scratch_dir("t-kpf"));
	snprintf(tree_fw, sizeof tree_fw, "%s", tap_scratch_dir("t-kpf"));
	log_set_program("t-kpageflags");
	kpf_tree_build(tree_all, 0);
	kpf_tree_build(tree_head, 1);

	test_all_pages();
	test_head_only();
	test_blocks();
	test_partial_map();
	test_edges(tree_fw);
	test_env();
	test_short_file();
	test_fraction();

	return (tap_done());
}
