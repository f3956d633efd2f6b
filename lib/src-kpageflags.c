/*
 * The kpageflags source (docs/kpageflags.md).  A vanilla kernel has
 * no memory regions, so they are emulated: the region map cuts each node
 * into regions, and every sample reads /proc/kpageflags over the memory
 * blocks that are online and counts, per region key, the pages that exist,
 * the free (KPF_BUDDY) pages with their buddy orders, and the used pages by
 * class.  zoneinfo read before and after the scan checks the free counts
 * and tells lazily initialised memory from used memory.  The why and the
 * accuracy are in docs/kpageflags.md.
 *
 * This file is the source's face (options, probe, open, read); what it
 * says about itself (estimate, describe, counting) is
 * src-kpageflags-describe.c, the scan is src-kpageflags-scan.c (its
 * bookkeeping src-kpageflags-plan.c) and its checks against zoneinfo are
 * src-kpageflags-check.c.  Everything the scan needs (buffers, per-thread
 * counters, the threads themselves) is set up at open, so a sample does
 * not allocate.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input-file.h"
#include "log.h"
#include "procfs.h"
#include "topology.h"
#include "src-kpageflags-private.h"
#include "units.h"

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

/*
 * The interval of a key's free pages from a sampled scan: the interval of
 * its BUDDY pages, widened by the per-CPU pages, whose place in the zone
 * is not known (none of them may be here, or all of the zone's), never
 * below the free pages seen nor above the pfns the key spans less the
 * used pages seen (a bound the truth cannot exceed, unlike the estimated
 * present pages), so that a key where the scan saw a used page is proven
 * active (docs/metrics.md).
 */
static void
src_kpageflags_fill_interval(const struct src_kpageflags *kp, int i,
    struct snap_entry *e)
{
	const struct src_kpageflags_est *est = &kp->est[i];
	const struct region_key *k = &kp->map.keys[i];
	double lo = est->lo, hi = est->hi + (double)kp->zones[k->zone].pcp;
	uint64_t span = k->end_pfn - k->start_pfn;
	double cap = span > est->seen_used ? (double)(span - est->seen_used) :
	    0;

	if (hi > cap)
		hi = cap;
	if (lo > (double)e->free_pages)
		lo = (double)e->free_pages;
	if (hi < (double)e->free_pages)
		hi = (double)e->free_pages;
	e->free_interval = 1;
	e->free_lo = lo > 0 ? (uint64_t)floor(lo) : 0;
	e->free_hi = (uint64_t)ceil(hi);
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
		e->free_pages = a->free + a->pcp;
		e->norders = kp->maxorder + 1;
		memcpy(e->free_blocks, a->blocks, sizeof e->free_blocks);
		e->has_used = 1;
		for (c = 0; c < SNAP_USED_NCLASS; c++)
			e->used[c] = a->used[c];
		e->used[SNAP_USED_OTHER] += a->zero - a->uninit - a->pcp;
		e->uninit = a->uninit;
		if (kp->sampled && kp->est[i].partial)
			src_kpageflags_fill_interval(kp, i, e);
		else if (!kp->sampled) {
			if (src_kpageflags_key_scanned(kp, i))
				kp->counted_ns[i] = snap->t_ns;
			e->counted_ns = kp->counted_ns[i];
			if (snap->t_ns - e->counted_ns > kp->max_age_ns)
				kp->max_age_ns = snap->t_ns - e->counted_ns;
		}
	}
}

/*
 * What this sample scans: with --scan-fraction below 1 a random sample
 * of every key (a full scan the first and every Nth time); else the first
 * sample whole and, with a rotation, one part of the regions after it.
 */
static void
src_kpageflags_choose(struct src_kpageflags *kp)
{
	kp->part = -1;
	if (kp->fraction < 1) {
		src_kpageflags_plan(kp, kp->samples % kp->full_every != 0);
		return;
	}
	src_kpageflags_plan(kp, 0);
	if (kp->rotation > 1 && kp->samples > 0)
		kp->part = (int)((kp->samples - 1) % kp->rotation);
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
	src_kpageflags_before(kp, &kp->before, src->zoneinfo.buf, snap);
	if ((rc = region_map_refresh_blocks(&kp->map, &changed, cause)) != 0)
		return (rc);
	if (changed && kp->samples > 0)
		snapshot_warn(snap, "kpageflags: %d memory blocks changed "
		    "state (hotplug)", changed);

	t0 = units_now_ns();
	kp->head_rule = kp->marking == SRC_KPAGEFLAGS_HEAD_ONLY;
	src_kpageflags_choose(kp);
	if (kp->sampled)
		kp->sampled_scans++;
	else if (kp->part >= 0)
		kp->rotated_scans++;
	else
		kp->full_scans++;
	if ((rc = src_kpageflags_run(kp, cause)) != 0)
		return (rc);
	/* Telling the marking needs every page's flags. */
	if (kp->marking == SRC_KPAGEFLAGS_UNDECIDED && !kp->sampled &&
	    kp->part < 0) {
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
	src_kpageflags_after(kp, &kp->after, snap);
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
	{ .name = "scan-threads", .type = OPT_STRING,
	  .offset = offsetof(struct src_kpageflags_settings,
	  scan_threads_text), .arg = "N|auto", .def = "auto",
	  .help = "threads scanning /proc/kpageflags (auto: one per NUMA "
	  "node with memory, within the free cores)" },
	{ .name = "scan-fraction", .type = OPT_DOUBLE,
	  .offset = offsetof(struct src_kpageflags_settings, scan_fraction),
	  .arg = "F", .def = "1", .dmin = 0, .dmax = 1,
	  .help = "estimates instead of counts: read this share of each "
	  "region's pageblocks per sample, drawn at random, and estimate the "
	  "rest with a 95% interval (0 < F <= 1; 1: exact counts)" },
	{ .name = "scan-rotation", .type = OPT_STRING,
	  .offset = offsetof(struct src_kpageflags_settings, scan_rotation),
	  .arg = "N|auto", .def = "auto",
	  .help = "count exactly in rotation: each sample after the first "
	  "scans one of N parts of memory (whole regions) and the others keep "
	  "their last exact count; auto: the fewest parts whose scan fits the "
	  "observer budget at the interval, 1: every region every sample" },
	{ .name = "full-scan-every", .type = OPT_U64,
	  .offset = offsetof(struct src_kpageflags_settings, full_scan_every),
	  .arg = "N", .def = "10", .min = 1, .max = 1000000,
	  .help = "with --scan-fraction below 1, a full scan every N "
	  "samples (the first is full)" },
	{ .name = "scan-seed", .type = OPT_U64,
	  .offset = offsetof(struct src_kpageflags_settings, scan_seed),
	  .arg = "N", .def = "0", .max = INT64_MAX,
	  .help = "seed of the sampled scans' draws (0: a random one, kept "
	  "in meta.json)" },
	{ .name = NULL }
};

/* Turn the --region-size text into a size or "one per block". */
static int
src_kpageflags_settings_check(void *settings, char **cause)
{
	struct src_kpageflags_settings *s = settings;
	char *why = NULL;
	long n = 0;
	int rc;

	s->region_block = 0;
	s->region_bytes = 0;
	s->scan_threads = 0;
	if (!(s->scan_fraction > 0 && s->scan_fraction <= 1))
		return (fail_with(cause, RB_EXIT_INPUT, "--scan-fraction %g: "
		    "must be above 0 and at most 1", s->scan_fraction));
	s->rotation = 0;
	if (s->scan_rotation != NULL &&
	    strcmp(s->scan_rotation, "auto") != 0 &&
	    units_parse_long(s->scan_rotation, 1, 1000000, &n, &why) != 0) {
		rc = fail_with(cause, RB_EXIT_INPUT, "--scan-rotation: %s "
		    "(a number of parts or 'auto')", why);
		free(why);
		return (rc);
	}
	if (s->scan_rotation != NULL && strcmp(s->scan_rotation, "auto") != 0)
		s->rotation = (uint64_t)n;
	if (s->scan_threads_text != NULL &&
	    strcmp(s->scan_threads_text, "auto") != 0 &&
	    units_parse_long(s->scan_threads_text, 1,
	    SRC_KPAGEFLAGS_MAX_THREADS, &s->scan_threads, &why) != 0) {
		rc = fail_with(cause, RB_EXIT_INPUT, "--scan-threads: %s "
		    "(a number of threads or 'auto')", why);
		free(why);
		return (rc);
	}
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

	/* A recording keeps text files; the scan needs the machine. */
	if (src->cfg.replay != NULL) {
		*reason = xasprintf("the recording %s keeps no kpageflags "
		    "figures (it keeps them only when the recorded run used "
		    "the kpageflags source)", src->cfg.replay);
		return (0);
	}
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

	if (kp == NULL)
		return;
	src_kpageflags_stop_workers(kp);
	free(kp->total);
	free(kp->kept);
	free(kp->counted_ns);
	free(kp->region_part);
	free(kp->est);
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

/* Open /proc/kpageflags; a refusal says that the source needs root. */
static int
src_kpageflags_open_file(struct src_kpageflags *kp, const char *proc_root,
    char **cause)
{
	int saved;

	snprintf(kp->path, sizeof kp->path, "%s/kpageflags", proc_root);
	if ((kp->fd = input_open(kp->path, INPUT_SYSTEM, cause)) >= 0)
		return (0);
	if (kp->fd < -1) {
		saved = kp->fd;
		kp->fd = -1;
		return (saved);
	}
	saved = errno;
	if (saved == EACCES || saved == EPERM)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s: the kpageflags "
		    "source needs root; run 'sudo regionbench ...', or use "
		    "--source zone", kp->path, strerror(saved)));
	return (fail_with(cause, RB_EXIT_ENV, "%s: %s; use --source zone",
	    kp->path, strerror(saved)));
}

/* Build the region map the settings ask for over the zones of before. */
static int
src_kpageflags_build_map(struct source *src, struct src_kpageflags *kp,
    const struct src_kpageflags_settings *set, char **cause)
{
	struct region_map_config mcfg;

	memset(&mcfg, 0, sizeof mcfg);
	mcfg.sys_root = src->cfg.sys_root;
	mcfg.region_size = set->region_bytes != 0 ? set->region_bytes :
	    SRC_KPAGEFLAGS_DEFAULT_REGION;
	mcfg.region_block = set->region_block;
	mcfg.region_map = set->region_map;
	return (region_map_build(&kp->map, &mcfg, &kp->before, cause));
}

/* The CPUs this process may run on. */
int
src_kpageflags_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return (CPU_COUNT(&set));
	return (1);
}

/*
 * --scan-threads auto: one thread per NUMA node with online memory, each
 * reading its own node, but no more than the cores the workloads are not
 * bound to and the CPUs this process may use.  Says why in threads_why.
 */
static long
src_kpageflags_auto_threads(struct src_kpageflags *kp, int busy)
{
	const struct region_map *map = &kp->map;
	struct topology topo;
	int nodes = 0, cores = 0, pus = 0, free_cores, sorted = 1, i;
	uint64_t last = 0;
	long n;

	for (i = 0; i < map->nnodes; i++) {
		if (src_kpageflags_online(kp, map->nodes[i].start_pfn,
		    map->nodes[i].end_pfn) == 0)
			continue;
		if (nodes > 0 && map->nodes[i].start_pfn < last)
			sorted = 0;
		last = map->nodes[i].end_pfn;
		nodes++;
	}
	if (topology_load(&topo, NULL) == 0) {
		topology_allowed(&topo, &cores, &pus);
		topology_free(&topo);
	}
	if (pus <= 0)
		cores = pus = src_kpageflags_cpus();
	free_cores = cores - busy > 1 ? cores - busy : 1;
	n = nodes > 0 ? nodes : 1;
	if (n > free_cores)
		n = free_cores;
	if (n > pus)
		n = pus;
	if (n > SRC_KPAGEFLAGS_MAX_THREADS)
		n = SRC_KPAGEFLAGS_MAX_THREADS;
	kp->per_node = n == nodes && nodes > 1 && sorted;
	snprintf(kp->threads_why, sizeof kp->threads_why, "auto: %d NUMA "
	    "node%s with memory, %d of %d cores free of workloads, %d CPU%s "
	    "available: %ld thread%s%s", nodes, nodes == 1 ? "" : "s",
	    free_cores, cores, pus, pus == 1 ? "" : "s", n, n == 1 ? "" : "s",
	    kp->per_node ? ", one per node" : n > 1 ? ", equal shares of the "
	    "pages" : "");
	return (n);
}

/*
 * The parts of the exact scans in rotation: as many as --scan-rotation
 * says, or (auto) the fewest whose scan costs at most the observer budget
 * (SRC_KPAGEFLAGS_BUDGET of the CPUs) at the interval, from the cost per
 * page the calibration measured.  Says why in rotation_why.
 */
static uint64_t
src_kpageflags_choose_rotation(struct src_kpageflags *kp,
    const struct src_kpageflags_settings *set, double interval_s)
{
	double per, full, budget;
	int cpus = src_kpageflags_cpus();
	uint64_t parts;

	kp->rotation_auto = set->rotation == 0;
	if (kp->fraction < 1) {
		snprintf(kp->rotation_why, sizeof kp->rotation_why, "none: "
		    "--scan-fraction %g asks for estimates", kp->fraction);
		return (1);
	}
	if (!kp->rotation_auto) {
		snprintf(kp->rotation_why, sizeof kp->rotation_why,
		    "--scan-rotation %" PRIu64, set->rotation);
		return (set->rotation);
	}
	/* CPU time, not wall time: on a busy machine the scan waits. */
	per = kp->calib_pfns == 0 || kp->calib_cpu_ns == 0 ? -1 :
	    (double)kp->calib_cpu_ns / 1e9 / (double)kp->calib_pfns;
	if (per < 0 || interval_s <= 0) {
		snprintf(kp->rotation_why, sizeof kp->rotation_why, "auto: "
		    "%s, so every region every sample", per < 0 ? "the scan "
		    "speed is unknown" : "no sampling interval");
		return (1);
	}
	full = per * (double)kp->online_pfns;
	budget = SRC_KPAGEFLAGS_BUDGET * cpus * interval_s;
	parts = full <= budget ? 1 : (uint64_t)ceil(full / budget);
	if (parts > (uint64_t)kp->map.nregions)
		parts = kp->map.nregions > 0 ? (uint64_t)kp->map.nregions : 1;
	snprintf(kp->rotation_why, sizeof kp->rotation_why, "auto: a full "
	    "scan costs %.3g CPU-s (%" PRIu64 " pages at %.1f ns), the budget "
	    "is %.3g CPU-s per %.3g s interval (%g of %d CPU%s): %" PRIu64
	    " part%s", full, kp->online_pfns, per * 1e9, budget, interval_s,
	    SRC_KPAGEFLAGS_BUDGET, cpus, cpus == 1 ? "" : "s", parts,
	    parts == 1 ? "" : "s");
	return (parts);
}

/* Open kpageflags, build the region map and start the scan threads. */
static int
src_kpageflags_open(struct source *src, char **cause)
{
	static const struct src_kpageflags_settings defaults = {
		.region_bytes = SRC_KPAGEFLAGS_DEFAULT_REGION
	};
	const struct src_kpageflags_settings *set = src->settings;
	struct src_kpageflags *kp;
	const struct snap_entry *e;
	long nthreads;
	int rc, t;

	if (set == NULL)
		set = &defaults;
	kp = xcalloc(1, sizeof *kp);
	kp->fd = -1;
	kp->part = -1;
	kp->rotation = 1;
	snapshot_init(&kp->before);
	snapshot_init(&kp->after);
	procfile_init(&kp->after_file);
	src->priv = kp;
	if ((rc = src_kpageflags_open_file(kp, src->cfg.proc_root,
	    cause)) != 0 ||
	    (rc = src_kpageflags_zoneinfo(src, &src->zoneinfo, &kp->before, 1,
	    cause)) != 0)
		goto fail;
	if (kp->before.norders < 1 || kp->before.norders > SNAP_MAX_ORDERS) {
		rc = fail_with(cause, RB_EXIT_INPUT, "%s: no order columns, so "
		    "the largest buddy order is unknown", src->buddyinfo.path);
		goto fail;
	}
	kp->maxorder = kp->before.norders - 1;
	for (t = 0; t < kp->before.nentries; t++) {
		e = &kp->before.entries[t];
		/* Zones without present pages (ZONE_DEVICE) may lie past it. */
		if (e->start_pfn != SNAP_UNKNOWN && e->spanned != SNAP_UNKNOWN &&
		    e->present != SNAP_UNKNOWN && e->present > 0 &&
		    e->start_pfn + e->spanned > kp->span_end)
			kp->span_end = e->start_pfn + e->spanned;
	}
	kp->batch_pfns = SRC_KPAGEFLAGS_BATCH / sizeof (uint64_t);
	if ((rc = src_kpageflags_build_map(src, kp, set, cause)) != 0)
		goto fail;
	kp->total = xcalloc(kp->map.nkeys, sizeof *kp->total);
	kp->zones = xcalloc(kp->map.nzones, sizeof *kp->zones);
	nthreads = set->scan_threads;
	if (nthreads <= 0)
		nthreads = src_kpageflags_auto_threads(kp,
		    src->cfg.busy_cores);
	else
		snprintf(kp->threads_why, sizeof kp->threads_why,
		    "--scan-threads %ld, equal shares of the pages", nthreads);
	src_kpageflags_start_workers(kp, nthreads);
	kp->fraction = set->scan_fraction > 0 && set->scan_fraction < 1 ?
	    set->scan_fraction : 1;
	kp->full_every = set->full_scan_every > 0 ? set->full_scan_every : 10;
	kp->seed_given = set->scan_seed != 0;
	kp->seed = set->scan_seed != 0 ? set->scan_seed :
	    (units_realtime_ns() ^ ((uint64_t)getpid() << 32)) & INT64_MAX;
	if (kp->seed == 0)
		kp->seed = 1;
	kp->est = xcalloc(kp->map.nkeys, sizeof *kp->est);
	kp->kept = xcalloc(kp->map.nkeys, sizeof *kp->kept);
	kp->counted_ns = xcalloc(kp->map.nkeys, sizeof *kp->counted_ns);
	src_kpageflags_calibrate(kp);
	src_kpageflags_rotation(kp, src_kpageflags_choose_rotation(kp, set,
	    src->cfg.interval_s));
	snprintf(kp->detection, sizeof kp->detection, "not decided yet");
	return (0);

fail:
	src_kpageflags_close(src);
	return (rc);
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
	.estimate = src_kpageflags_estimate,
	.counting = src_kpageflags_counting,
	.no_migratetypes = "the kpageflags source gives no migratetype per "
	    "pageblock or per free block: /proc/kpageflags has no migratetype "
	    "bits (docs/csv-schema.md)",
};
