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
 * This file is the source's face (options, probe, open, read, describe);
 * the scan is src-kpageflags-scan.c and its checks against zoneinfo are
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
static int
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

/* Seconds per scanned page measured at open, or < 0. */
static double
src_kpageflags_s_per_pfn(const struct src_kpageflags *kp)
{
	if (kp->calib_pfns == 0)
		return (-1);
	return ((double)kp->calib_ns / 1e9 / (double)kp->calib_pfns);
}

/* Round x down to two significant digits. */
static double
src_kpageflags_round2(double x)
{
	double scale = 1;

	if (x <= 0)
		return (0);
	while (x * scale < 10)
		scale *= 10;
	return (floor(x * scale) / scale);
}

/*
 * The expected time of a sample: the pages it reads, at the cost per page
 * of the calibration read, shared by the threads (assuming they scale,
 * which they do only with free CPUs and memory bandwidth).  When the
 * interval is shorter, propose the threads and the parts in rotation
 * (or, for estimates, the fraction) that fit.
 */
static double
src_kpageflags_estimate(const struct source *src, double interval_s,
    char **basis, char **advice)
{
	const struct src_kpageflags *kp = src->priv;
	double per = src_kpageflags_s_per_pfn(kp), one, est, frac, share;
	char *threads = NULL, *fraction = NULL, fraction_text[128];
	long need, parts;

	if (per < 0)
		return (-1);
	one = per * (double)kp->online_pfns;
	share = src_kpageflags_planned_fraction(kp);
	if (share >= 1 && kp->rotation > 1)
		share = 1.0 / kp->rotation;
	est = one / kp->nthreads * share;
	snprintf(fraction_text, sizeof fraction_text, ", %.3g of the pages "
	    "(a full scan every %" PRIu64 " samples takes %.3g s)", share,
	    kp->full_every, one / kp->nthreads);
	*basis = xasprintf("%" PRIu64 " pages at %.1f ns each, %d scan "
	    "thread%s%s; calibrated on %" PRIu64 " pages in %.1f ms",
	    kp->online_pfns, per * 1e9, kp->nthreads, kp->nthreads == 1 ?
	    "" : "s", share < 1 ? fraction_text : "", kp->calib_pfns,
	    kp->calib_ns / 1e6);
	if (interval_s <= 0 || est <= interval_s)
		return (est);
	need = (long)ceil(one / interval_s);
	if (need > kp->nthreads && need <= src_kpageflags_cpus() &&
	    need <= SRC_KPAGEFLAGS_MAX_THREADS)
		threads = xasprintf("--scan-threads %ld", need);
	/*
	 * Exact counts: the parts in rotation that fit, with a margin of
	 * 10 % (the calibration is a few milliseconds); estimates only when
	 * the user asked for them.
	 */
	parts = (long)ceil(one / kp->nthreads / (interval_s * 0.9));
	frac = src_kpageflags_round2(interval_s / (est / share) * 0.9);
	if (kp->fraction >= 1 && parts > 1 && parts <= kp->map.nregions)
		fraction = xasprintf("--scan-rotation %ld", parts);
	else if (kp->fraction < 1 && frac >= 0.001)
		fraction = xasprintf("--scan-fraction %g", frac);
	*advice = xasprintf("kpageflags: a sample's scan takes about %.3g s "
	    "(%s), longer than the %.3g s interval: use %s%s%s%sa longer "
	    "--interval", est, *basis, interval_s,
	    threads != NULL ? threads : "", threads != NULL ? " or " : "",
	    fraction != NULL ? fraction : "", fraction != NULL ? ", or " : "");
	free(threads);
	free(fraction);
	return (est);
}

/* meta.json: how samples are scanned (threads, cost, sampled scans). */
static void
src_kpageflags_describe_scan(struct source *src, json_t *obj)
{
	struct src_kpageflags *kp = src->priv;
	char *basis = NULL, *advice = NULL;
	double est;

	json_object_set_new(obj, "scan_threads", json_integer(kp->nthreads));
	json_object_set_new(obj, "scan_threads_why",
	    json_string(kp->threads_why));
	est = src_kpageflags_estimate(src, 0, &basis, &advice);
	json_object_set_new(obj, "scan_estimate_s", est >= 0 ?
	    json_real(est) : json_null());
	json_object_set_new(obj, "scan_estimate_basis", basis != NULL ?
	    json_string(basis) : json_null());
	free(basis);
	free(advice);
	json_object_set_new(obj, "counts", json_string(kp->fraction < 1 ?
	    "estimates" : kp->rotation > 1 ? "exact in rotation" : "exact"));
	json_object_set_new(obj, "scan_rotation",
	    json_integer((json_int_t)kp->rotation));
	json_object_set_new(obj, "scan_rotation_why",
	    json_string(kp->rotation_why));
	json_object_set_new(obj, "rotation_rule", json_string("the regions "
	    "are cut into scan_rotation parts of about equal online pages; "
	    "the first sample counts every region, each later one counts one "
	    "part exactly, in turn, and the other regions keep their last "
	    "exact count (counted_at_s in samples.csv)"));
	json_object_set_new(obj, "rotated_scans",
	    json_integer((json_int_t)kp->rotated_scans));
	json_object_set_new(obj, "max_count_age_s",
	    json_real(kp->max_age_ns / 1e9));
	json_object_set_new(obj, "scan_fraction", json_real(kp->fraction));
	json_object_set_new(obj, "full_scan_every",
	    json_integer((json_int_t)kp->full_every));
	json_object_set_new(obj, "scan_seed",
	    json_integer((json_int_t)kp->seed));
	json_object_set_new(obj, "scan_seed_given",
	    json_boolean(kp->seed_given));
	json_object_set_new(obj, "sampling_unit_pages",
	    json_integer((json_int_t)1 << kp->maxorder));
	json_object_set_new(obj, "sampling_rule", json_string("each region "
	    "key is a stratum of max-order-aligned units (whole pageblocks); "
	    "a sampled scan reads a simple random sample of max(2, "
	    "ceil(F x N)) of its N units, drawn afresh each sample, and "
	    "scales every count by N/n; free_pages_lo/hi is the 95 % "
	    "interval (Student t, finite population correction)"));
	json_object_set_new(obj, "full_scans",
	    json_integer((json_int_t)kp->full_scans));
	json_object_set_new(obj, "sampled_scans",
	    json_integer((json_int_t)kp->sampled_scans));
}

/* meta.json: how the counts compared with zoneinfo (the accuracy). */
static json_t *
src_kpageflags_accuracy(const struct src_kpageflags *kp)
{
	json_t *acc, *unchecked, *pcp;
	char name[64];
	int i;

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
	return (acc);
}

/* Settings and findings for meta.json. */
static void
src_kpageflags_describe(struct source *src, json_t *obj)
{
	struct src_kpageflags *kp = src->priv;
	const char *marking = "undecided";
	uint64_t fw;
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
	src_kpageflags_describe_scan(src, obj);
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
	json_object_set_new(obj, "pcp_rule", json_string("per zone, the "
	    "per-CPU list pages of zoneinfo (count:) are free pages, taken "
	    "from the flag-less pages of its region keys in proportion"));
	json_object_set_new(obj, "firmware_rule", json_string("PG_reserved "
	    "pages below 1 MiB or outside System RAM of sys/firmware/memmap "
	    "are the firmware's: neither present nor used"));
	for (i = 0, fw = 0; i < kp->map.nkeys; i++)
		fw += kp->total[i].firmware;
	json_object_set_new(obj, "firmware_reserved_pages", json_integer(
	    (json_int_t)fw));
	json_object_set_new(obj, "accuracy", src_kpageflags_accuracy(kp));
}

/* The region map of the open source (placement and info use it). */
static const struct region_map *
src_kpageflags_region_map(const struct source *src)
{
	const struct src_kpageflags *kp = src->priv;

	return (kp != NULL ? &kp->map : NULL);
}

/* One line: estimates, exact in rotation, or exact at every sample. */
static char *
src_kpageflags_counting(const struct source *src)
{
	const struct src_kpageflags *kp = src->priv;

	if (kp == NULL)
		return (NULL);
	if (kp->fraction < 1)
		return (xasprintf("kpageflags: ESTIMATES, not counts: a random "
		    "%g of each region per sample (95%% intervals), a full "
		    "count every %" PRIu64 " samples", kp->fraction,
		    kp->full_every));
	if (kp->rotation > 1)
		return (xasprintf("kpageflags: exact counts in rotation: the "
		    "first sample counts every region, each later one 1 of %"
		    PRIu64 " parts of memory, so a region's count is at most %"
		    PRIu64 " samples old (%s)", kp->rotation, kp->rotation - 1,
		    kp->rotation_why));
	return (xasprintf("kpageflags: exact counts of every region at every "
	    "sample (%s)", kp->rotation_why));
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
