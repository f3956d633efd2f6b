/*
 * The summary of one run (analyze/summary.c) on the hand-made run
 * tests/data/analyze/basic: summary.csv and summary.json rows, the text
 * table in full and brief, and the markdown table.
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "quality.h"
#include "summary.h"
#include "tap.h"

/* Which writer printed() calls. */
enum { P_CSV, P_JSON, P_TEXT, P_BRIEF, P_MARKDOWN };

/* Print the summary with one of the writers into a string. */
static char *
printed(const struct summary_run *sr, int how)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		die_errno(1, "open_memstream");
	switch (how) {
	case P_CSV:
		summary_write_csv(f, sr);
		break;
	case P_JSON:
		summary_write_json(f, sr);
		break;
	case P_TEXT:
	case P_BRIEF:
		summary_print_text(f, sr, how == P_BRIEF);
		break;
	default:
		summary_print_markdown(f, sr, 0);
		break;
	}
	fclose(f);
	return (text);
}

/* summary.json parses and holds the rows per phase. */
static void
test_json(const struct summary_run *sr)
{
	json_error_t err;
	json_t *root;
	char *text = printed(sr, P_JSON);

	root = json_loads(text, 0, &err);
	if (!tap_ok(root != NULL, "summary.json parses")) {
		tap_diag("%s", err.text);
		free(text);
		return;
	}
	tap_eq_u64(json_integer_value(json_object_get(root,
	    "schema_version")), SUMMARY_SCHEMA_VERSION, "schema version");
	tap_eq_str(json_string_value(json_object_get(root, "label")),
	    "vanilla", "the run's label");
	tap_near(json_real_value(json_object_get(json_object_get(
	    json_object_get(json_object_get(root, "phases"), "fill"),
	    "samples"), "value")), 3, 0, "phases.fill.samples.value");
	json_decref(root);
	free(text);
}

/* The data-quality figures: the kpageflags warning, clean, the line. */
static void
test_quality(void)
{
	struct quality q = { 3, 1.6, 18389 };
	char text[160];

	tap_ok(quality_kpf_error("kpageflags: node 0 zone Normal: counted 9 "
	    "free pages, zoneinfo said 1 before and 2 after the scan (slack "
	    "0): -18389 pages outside") == 18389, "quality: the kpageflags "
	    "error of a warning, as a positive count");
	tap_ok(isnan(quality_kpf_error("zoneinfo Node 0: regions hold 5 free "
	    "pages, the zone 6")) && isnan(quality_kpf_error("kpageflags: "
	    "2 memory blocks changed state (hotplug)")), "quality: other "
	    "warnings are no kpageflags error");
	quality_text(text, sizeof text, &q);
	tap_eq_str(text, "3 sampler overruns, largest gap 1.6 s, kpageflags "
	    "off by up to 18389 pages", "quality: the line analyze prints");
	tap_ok(!quality_clean(&q, 1), "quality: overruns are not clean");
	q.overruns = 0;
	q.kpf_error = 0;
	tap_ok(quality_clean(&q, 1) && !quality_clean(&q, 0.5),
	    "quality: a gap is unclean beyond twice the interval");
	q.kpf_error = NAN;
	tap_ok(quality_clean(&q, NAN), "quality: unknown figures are clean");
}

int
main(void)
{
	const char *data = getenv("TESTDATA");
	struct metrics_options mo;
	struct power_model pm = { .on_mw_per_gib = 100,
	    .self_refresh_mw_per_gib = 10 };
	struct summary_run sr;
	char value[32], *dir, *text, *cause = NULL;

	summary_format_value(value, sizeof value, 3.0 * 1024 * 1024, "bytes");
	tap_eq_str(value, "3.0", "bytes are shown in MiB");
	summary_format_value(value, sizeof value, 0.5, "ratio");
	tap_eq_str(value, "0.5000", "ratios with four decimals");
	summary_format_value(value, sizeof value, 12345.6, "pages/s");
	tap_eq_str(value, "12346", "large rates without decimals");
	summary_format_value(value, sizeof value, NAN, "s");
	tap_eq_str(value, "-", "unknown is a dash");
	test_quality();

	dir = xasprintf("%s/analyze/basic", data != NULL ? data :
	    "tests/data");
	metrics_options_default(&mo);
	if (!tap_ok(summary_run_load(&sr, dir, &mo, NULL, &cause) == 0,
	    "load %s", dir)) {
		tap_diag("%s", cause);
		return (tap_done());
	}
	text = printed(&sr, P_CSV);
	tap_ok(strncmp(text, "phase,metric,value,unit\nfill,samples,3,samples\n"
	    "fill,duration_s,2.5,s\n", 69) == 0,
	    "summary.csv: header, samples and duration (to phase_end) first");
	free(text);
	test_json(&sr);

	text = printed(&sr, P_TEXT);
	tap_ok(strstr(text, "regionbench analyze ") == text &&
	    strstr(text, "label vanilla, kernel 6.18.0, host testhost") !=
	    NULL, "text: the title names the run");
	tap_ok(strstr(text, "\nphase fill\n") != NULL &&
	    strstr(text, "\nphase drain\n") != NULL, "text: both phases");
	tap_ok(strstr(text, "regions at the last sample (t=2.000s)") != NULL,
	    "text: fill's regions at its last sample");
	tap_ok(strstr(text, "MODEL ESTIMATE") == NULL,
	    "text: no power note without a model");
	free(text);
	text = printed(&sr, P_BRIEF);
	tap_ok(strstr(text, "regions at the last sample") == NULL,
	    "brief: no region list");
	free(text);
	text = printed(&sr, P_MARKDOWN);
	tap_ok(strstr(text, "### Phase `fill`") != NULL &&
	    strstr(text, "| region | pfn range |") != NULL,
	    "markdown: phase heading and region table");
	free(text);
	summary_run_free(&sr);

	tap_ok(summary_run_load(&sr, dir, &mo, &pm, &cause) == 0,
	    "load with a power model");
	text = printed(&sr, P_TEXT);
	tap_ok(strstr(text, "(model estimate)") != NULL &&
	    strstr(text, "MODEL ESTIMATE") != NULL,
	    "text: model rows and the note say they are estimates");
	free(text);
	summary_run_free(&sr);

	tap_ok(summary_run_load(&sr, "/nonexistent", &mo, NULL, &cause) != 0 &&
	    cause != NULL, "a missing directory is an error with a cause");
	free(cause);
	free(dir);
	return (tap_done());
}
