/*
 * What the kpageflags source says about itself: the estimate of a
 * sample's cost before a run (from the calibration at open), the scan
 * and its accuracy in the run's metadata, and the one line on how it
 * counts.  The source's options, probe, open and read are
 * src-kpageflags.c.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "src-kpageflags-private.h"
#include "units.h"

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
double
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
void
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

/* One line: estimates, exact in rotation, or exact at every sample. */
char *
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

