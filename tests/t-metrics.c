/*
 * Metric tests on the hand-made results directory tests/data/analyze/basic
 * (4 regions with memory, region 0 of two zones, and region 4, a hole),
 * and the power states on tests/data/analyze/references (the same shape
 * with 512 MiB regions and a references.csv).  Every expected figure is
 * worked out by hand from the CSVs; the comments say how.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "log.h"
#include "metrics.h"
#include "results.h"
#include "tap.h"

/* The index of a phase of the run by name, or -1. */
static int
phase_index(const struct results *res, const char *name)
{
	int i;

	for (i = 0; i < res->nphases; i++) {
		if (strcmp(res->phases[i], name) == 0)
			return (i);
	}
	return (-1);
}

/* A reduction of one series in one phase, by names. */
static struct metric_reduction
reduce(const struct metrics *m, const char *series, const char *phase)
{
	struct metric_reduction r;
	const struct metric_series *s = metrics_find(m, series);

	memset(&r, 0, sizeof r);
	if (s == NULL) {
		tap_diag("no series %s", series);
		r.min = r.mean = r.max = r.final = r.twmean = NAN;
		return (r);
	}
	metrics_reduce(m, s, phase_index(m->res, phase), &r);
	return (r);
}

/* A summary value by phase and metric name. */
static double
summary_value(const struct results *res, const struct summary *sum,
    const char *phase, const char *metric)
{
	int i;

	for (i = 0; i < sum->n; i++)
		if (strcmp(sum->rows[i].metric, metric) == 0 &&
		    strcmp(res->phases[sum->rows[i].phase], phase) == 0)
			return (sum->rows[i].value);
	return (NAN);
}

/*
 * tests/data/analyze/references: regions n0r0..n0r3 of 512 MiB and the
 * hole n0r4.  DAMON intervals end at 1.05 and 2.05 (fill) and 3.05
 * (drain), so the aggregation interval (median gap in a phase) is 1 s.
 * Joined: t=0 none (the first interval ends 1.05 s later, more than one
 * interval), t=1 the interval ending 1.05 (within one interval after),
 * t=2 the one ending 1.05 (the latest ended before it), t=3 and t=4 the
 * one ending 3.05.  The tolerance is max(1 % of 512 MiB, 4 MiB) = 5.12
 * MiB: 4 MiB referenced is not referenced, 8 MiB is.
 *
 *   t  n0r0             n0r1              n0r2              n0r3
 *   1  active, 256M: on active, 4M: s-r   active, 0: s-r    empty: off
 *   2  active, 256M: on active, 4M: s-r   empty: off        empty: off
 *   3  empty: off       active, 8M: on    empty: off        active, 0: s-r
 *   4  empty: off       active, 8M: on    unproven, 0: s-r  empty: off
 */
static void
test_references(const char *data)
{
	struct metrics_options mo;
	struct metric_reduction r;
	const struct metric_series *s;
	struct results *res;
	struct metrics *m;
	char *dir, *cause = NULL;

	dir = xasprintf("%s/analyze/references", data);
	if (!tap_ok(results_load(dir, &res, &cause) == 0, "load %s", dir)) {
		tap_diag("%s", cause);
		free(cause);
		free(dir);
		return;
	}
	tap_eq_u64(res->references.n, 3, "3 DAMON intervals");
	tap_eq_u64(res->ref_referenced[0 * 5 + 0], 268435456,
	    "n0r0: 256 MiB referenced in the first interval");
	tap_eq_u64(res->ref_monitored[2 * 5 + 4], 0,
	    "n0r4 has no System RAM to watch");
	tap_near(metrics_references_window(res), 1.0, 1e-9,
	    "the aggregation interval: 1 s between intervals of fill");
	tap_ok(metrics_references_at(res, 0, 1.0) == -1,
	    "t=0: no interval ended before, the next ends 1.05 s later");
	tap_eq_u64(metrics_references_at(res, 1, 1.0), 0,
	    "t=1: the interval it lies in (ends 1.05)");
	tap_eq_u64(metrics_references_at(res, 2, 1.0), 0,
	    "t=2: the latest interval ended before it (1.05), not 2.05");
	tap_eq_u64(metrics_references_at(res, 3, 1.0), 2,
	    "t=3: drain's interval, never fill's");

	metrics_options_default(&mo);
	if (!tap_ok(metrics_compute(res, &mo, &m, &cause) == 0,
	    "compute metrics")) {
		results_free(res);
		free(dir);
		return;
	}
	s = metrics_find(m, "state_on_share");
	tap_ok(s != NULL && isnan(s->v[0]), "t=0 has no reading: NAN");
	tap_eq_u64(m->power[1 * 5 + 1], METRICS_POWER_SELF_REFRESH,
	    "t=1 n0r1: 4 MiB is within the tolerance: self-refresh");
	tap_eq_u64(m->power[4 * 5 + 2], METRICS_POWER_SELF_REFRESH,
	    "t=4 n0r2: unproven is never off");
	tap_eq_u64(m->power[4 * 5 + 4], METRICS_POWER_NONE,
	    "the hole has no power state");

	r = reduce(m, "referenced_regions", "fill");
	tap_near(r.max, 1, 0, "fill: only n0r0 referenced");
	tap_eq_u64(r.n, 2, "fill: t=0 skipped");
	r = reduce(m, "idle_allocated_regions", "fill");
	tap_near(r.twmean, (2 * 1.0 + 1 * 0.5) / 1.5, 1e-12,
	    "fill: idle allocated (2 x 1 s + 1 x 0.5 s) / 1.5 s");
	r = reduce(m, "state_on_share", "fill");
	tap_near(r.twmean, 0.25, 1e-12, "fill: on 1 of 4 throughout");
	r = reduce(m, "state_self_refresh_share", "fill");
	tap_near(r.twmean, (0.5 * 1.0 + 0.25 * 0.5) / 1.5, 1e-12,
	    "fill: self-refresh (2/4 x 1 s + 1/4 x 0.5 s) / 1.5 s");
	r = reduce(m, "state_off_share", "fill");
	tap_near(r.twmean, (0.25 * 1.0 + 0.5 * 0.5) / 1.5, 1e-12,
	    "fill: off (1/4 x 1 s + 2/4 x 0.5 s) / 1.5 s");
	r = reduce(m, "state_self_refresh_bytes", "fill");
	tap_near(r.twmean, (1024.0 * 1 + 512 * 0.5) / 1.5 * 1048576, 1e-3,
	    "fill: self-refresh bytes (1 GiB x 1 s + 512 MiB x 0.5 s) / 1.5");
	r = reduce(m, "state_off_share", "drain");
	tap_near(r.mean, 0.5, 1e-12, "drain: off 2 of 4 at t=3 and t=4");
	r = reduce(m, "idle_allocated_regions", "drain");
	tap_near(r.final, 0, 0, "drain t=4: the unproven n0r2 is not "
	    "active, so not idle allocated");
	tap_near(r.max, 1, 0, "drain t=3: n0r3 holds 1 MiB DAMON saw idle");
	metrics_free(m);

	mo.referenced_min_bytes = 0;
	metrics_compute(res, &mo, &m, &cause);
	r = reduce(m, "referenced_regions", "fill");
	tap_near(r.max, 1, 0, "floor 0: 4 MiB is still below 1 %% of 512 MiB");
	metrics_free(m);
	mo.referenced_min_share = 0;
	metrics_compute(res, &mo, &m, &cause);
	r = reduce(m, "referenced_regions", "fill");
	tap_near(r.max, 2, 0, "no tolerance: n0r1's 4 MiB counts");
	metrics_free(m);

	results_free(res);
	free(dir);
}

int
main(void)
{
	const char *data = getenv("TESTDATA");
	struct metrics_options mo;
	struct metric_reduction r;
	struct results *res;
	struct metrics *m;
	struct summary sum;
	char *dir, *cause = NULL;
	int rc, s;

	dir = xasprintf("%s/analyze/basic", data != NULL ? data :
	    "tests/data");
	rc = results_load(dir, &res, &cause);
	if (!tap_ok(rc == 0, "load %s", dir)) {
		tap_diag("%s", cause);
		return (tap_done());
	}
	tap_eq_u64(res->nregions, 5, "5 regions (region 4 has no memory)");
	tap_eq_u64(res->regions[0].nzones, 2, "region 0 has two zones");
	tap_eq_u64(res->regions[0].present_pages, 2000,
	    "region 0 present sums its zones");
	tap_eq_u64(res->samples.n, 5, "5 samples");
	tap_eq_u64(res->nphases, 2, "2 phases");
	tap_eq_str(res->phases[0], "fill", "phase order from meta.json");
	tap_eq_u64(res->buddy.n, 2, "2 buddy samples");
	tap_eq_u64(res->nworkloads, 1, "1 placed workload");
	tap_eq_str(res->label, "vanilla", "label");
	/* t=2: DMA32 reports 1005 free of 1000 (clamped to 0 used). */
	tap_eq_u64(res->used[2 * 5 + 0], 1000,
	    "free > present in a zone clamps that zone's used to 0");
	tap_ok(res->cls[RESULTS_SLAB] != NULL, "kpageflags classes kept");

	tap_near(results_phase_end(res, phase_index(res, "fill")), 2.5,
	    1e-12, "fill ends at its phase_end event");
	tap_near(results_phase_end(res, phase_index(res, "drain")), 4,
	    1e-12, "drain has no phase_end: its stop event ends it");

	metrics_options_default(&mo);
	rc = metrics_compute(res, &mo, &m, &cause);
	tap_ok(rc == 0, "compute metrics");

	r = reduce(m, "active_regions", "fill");
	tap_near(r.min, 1, 0, "fill: active min (t=0: region 0 only)");
	tap_near(r.max, 3, 0, "fill: active max (t=1: regions 0,1,2)");
	tap_near(r.final, 2, 0, "fill: active final (t=2: region 2 emptied)");
	tap_near(r.mean, 2, 1e-12, "fill: active mean (1+3+2)/3");
	tap_near(r.twmean, 2, 1e-12,
	    "fill: active time-weighted (1*1+3*1+2*0.5)/2.5, phase_end 2.5");
	r = reduce(m, "empty_bytes", "fill");
	tap_near(r.min, 1000.0 * 4096, 0, "fill: empty bytes at t=1: region 3");
	tap_near(r.final, 3000.0 * 4096, 0,
	    "fill: empty bytes at t=2: regions 2 and 3");
	r = reduce(m, "ideal_regions", "fill");
	tap_near(r.max, 2, 0, "fill: 3010 used pages need 2 regions of 2000");
	r = reduce(m, "spread_index", "fill");
	tap_near(r.max, 1.5, 1e-12, "fill: spread 3 active / 2 ideal");
	tap_near(r.mean, 3.5 / 3, 1e-12, "fill: spread mean (1+1.5+1)/3");
	tap_near(r.twmean, 1.2, 1e-12, "fill: spread twmean (1+1.5+0.5)/2.5");
	r = reduce(m, "spread_index", "drain");
	tap_near(r.final, 1.0, 0, "drain: nothing used gives spread 1.0");
	r = reduce(m, "ideal_regions", "drain");
	tap_near(r.final, 0, 0, "drain: nothing used needs 0 regions");
	r = reduce(m, "active_regions", "drain");
	tap_near(r.twmean, 1, 1e-12,
	    "drain: no phase_end, the last sample has no weight");
	r = reduce(m, "empty_regions", "drain");
	tap_near(r.final, 4, 0, "drain: every region with memory empty at the "
	    "end; region 4 (no present pages) is neither empty nor active");
	r = reduce(m, "occupancy.n0r1", "fill");
	tap_near(r.final, 1.0, 1e-12, "fill: region 1 full at t=2");
	r = reduce(m, "unmovable_used_regions", "fill");
	tap_near(r.final, 2, 0, "fill: slab in region 0, other in region 1");
	r = reduce(m, "usable_free_share", "fill");
	tap_near(r.min, 2048.0 / 4005, 1e-12,
	    "fill: usable free share at t=2 (512+1536)/4005");
	tap_near(r.max, 3584.0 / 6500, 1e-12,
	    "fill: usable free share at t=0 (512+1536+1536)/6500");
	tap_near(r.twmean, (3584.0 / 6500 * 2 + 2048.0 / 4005 * 0.5) / 2.5,
	    1e-12, "fill: usable free share time-weighted");
	r = reduce(m, "usable_free_share.n0r3", "fill");
	tap_near(r.final, 0.512, 1e-12,
	    "region 3: 512 of 1000 free in order 9");
	tap_ok(isnan(metrics_find(m, "usable_free_share.n0r1")->v[1]),
	    "region 1 without free memory: share undefined (NAN), skipped");
	r = reduce(m, "unmovable_regions", "fill");
	tap_near(r.final, 2, 0, "fill: Unmovable in region 0, Reclaimable "
	    "in region 2");
	r = reduce(m, "unmovable_regions", "drain");
	tap_near(r.final, 1, 0, "drain: Unmovable in region 0 only");
	r = reduce(m, "placement.pagetest.regions", "fill");
	tap_near(r.max, 2, 0, "placement: 10 of 3010 pages (<1%%) in region 2 "
	    "do not count");
	r = reduce(m, "placement.pagetest.share.n0r1", "fill");
	tap_near(r.min, 1000.0 / 3010, 1e-12,
	    "placement: share sums the pids (990+10)/3010");

	metrics_summarize(m, &sum);
	tap_near(summary_value(res, &sum, "fill",
	    "workload.pagetest.throughput"), 150, 0,
	    "workloads: the total row wins");
	tap_near(summary_value(res, &sum, "fill", "workload.pagetest.elapsed"),
	    4.9, 1e-12, "workloads: threads summed when no total");
	tap_near(summary_value(res, &sum, "fill", "samples"), 3, 0,
	    "summary: fill has 3 samples");
	tap_near(summary_value(res, &sum, "fill", "duration_s"), 2.5, 1e-12,
	    "summary: fill lasts until its phase_end");
	tap_near(summary_value(res, &sum, "drain", "spread_index.twmean"), 1,
	    1e-12, "summary: drain spread twmean");
	summary_free(&sum);

	s = metrics_sample_at(res, phase_index(res, "fill"), 0.9);
	tap_eq_u64(s, 1, "a checkpoint at 0.9 s maps to the sample at 1 s");
	s = metrics_sample_at(res, phase_index(res, "fill"), 9);
	tap_eq_u64(s, 2, "after the phase's last sample: the last sample");
	metrics_free(m);

	mo.empty_tolerance = 10;
	metrics_compute(res, &mo, &m, &cause);
	r = reduce(m, "active_regions", "fill");
	tap_near(r.max, 2, 0, "tolerance 10: region 2 with 10 pages is empty");
	r = reduce(m, "spread_index", "fill");
	tap_near(r.max, 1.0, 1e-12, "tolerance 10: at t=1 the 3000 pages of "
	    "the 2 active regions need 2 regions: spread 1, not 2/2 of 3010");
	tap_near(r.min, 1.0, 1e-12, "tolerance never pushes spread below 1");
	metrics_free(m);
	tap_ok(metrics_find((metrics_compute(res, &mo, &m, &cause), m),
	    "state_on_share") == NULL, "no references.csv: no power states");
	tap_ok(m->power == NULL, "no references.csv: no power array");
	metrics_free(m);

	results_free(res);
	free(dir);
	test_references(data != NULL ? data : "tests/data");
	return (tap_done());
}
