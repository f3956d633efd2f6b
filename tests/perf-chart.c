/*
 * make perf: what do the charts cost at the end of a long run?  Uses
 * tests/perf-analyze --generate for a one-hour, 10 Hz, 50-region results
 * directory, then times, interleaved, loading it (results_load plus
 * metrics_compute: what any analysis pays, the baseline) and drawing from
 * the loaded run every chart as PNG and SVG.  Medians of 5.  Prints:
 *   chart_load_seconds       load and metrics, the baseline
 *   chart_draw_seconds       every chart of the run, PNG and SVG
 *   chart_draw_vs_load       draw / load (the charts' share on top of a
 *                            load the runner has paid anyway)
 *   chart_heatmap_svg_bytes  size of the heatmap SVG (bound: 2 MB)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chart.h"
#include "chart-run.h"
#include "log.h"
#include "perf.h"
#include "units.h"

#define ROUNDS	5

int
main(int argc, char **argv)
{
	static const struct chart_def *const defs[] = {
		&chart_heatmap_def, &chart_spread_def, &chart_placement_def,
		&chart_seed_def, &chart_frag_def
	};
	char tmp[] = "/tmp/perf-chart.XXXXXX", *cmd, *path, *cause = NULL;
	const char *gen = argc > 1 ? argv[1] : "tests/perf-analyze";
	double load[ROUNDS], draw[ROUNDS];
	struct chart_run run;
	struct stat st;
	uint64_t t0;
	size_t d;
	int i;

	if (mkdtemp(tmp) == NULL)
		die_errno(RB_EXIT_ENV, "mkdtemp");
	cmd = xasprintf("%s --generate '%s'", gen, tmp);
	if (system(cmd) != 0)
		die(RB_EXIT_ENV, "%s failed", cmd);
	free(cmd);
	for (i = 0; i < ROUNDS; i++) {
		t0 = units_now_ns();
		if (chart_run_load(tmp, &run, &cause) != 0)
			die(RB_EXIT_INPUT, "%s", cause);
		load[i] = (units_now_ns() - t0) / 1e9;
		t0 = units_now_ns();
		for (d = 0; d < sizeof defs / sizeof defs[0]; d++) {
			if (defs[d]->absent(&run) != NULL)
				continue;
			path = xasprintf("%s/%s.png", tmp, defs[d]->name);
			if (chart_render_file(defs[d], &run, CHART_PNG, path,
			    &cause) != 0)
				die(RB_EXIT_ENV, "%s", cause);
			free(path);
			path = xasprintf("%s/%s.svg", tmp, defs[d]->name);
			if (chart_render_file(defs[d], &run, CHART_SVG, path,
			    &cause) != 0)
				die(RB_EXIT_ENV, "%s", cause);
			free(path);
		}
		draw[i] = (units_now_ns() - t0) / 1e9;
		chart_run_free(&run);
	}
	path = xasprintf("%s/heatmap.svg", tmp);
	if (stat(path, &st) != 0)
		st.st_size = 0;
	free(path);
	printf("chart_load_seconds=%.3f\n", perf_median(load, ROUNDS));
	printf("chart_draw_seconds=%.3f\n", perf_median(draw, ROUNDS));
	printf("chart_draw_vs_load=%.3f\n", perf_median(draw, ROUNDS) /
	    perf_median(load, ROUNDS));
	printf("chart_heatmap_svg_bytes=%lld\n", (long long)st.st_size);
	cmd = xasprintf("rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		log_warnx("could not remove %s", tmp);
	free(cmd);
	chart_cleanup();
	return (0);
}
