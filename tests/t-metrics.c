/*
 * Metric tests on the hand-made results directory tests/data/analyze/basic
 * (4 regions with memory, region 0 of two zones, and region 4, a hole).  Every expected figure is worked out
 * by hand from the CSVs; the comments say how.
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

	results_free(res);
	free(dir);
	return (tap_done());
}
