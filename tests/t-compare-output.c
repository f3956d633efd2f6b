/*
 * The output formats of compare (analyze/compare-output.c) on the
 * hand-made run tests/data/analyze/basic compared with itself: notes,
 * group names, the text and markdown tables, CSV rows and JSON.
 */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare-output.h"
#include "log.h"
#include "tap.h"

/* Which writer printed() calls. */
enum { P_TEXT, P_MARKDOWN, P_CSV, P_JSON };

/* Print the comparison with one of the writers into a string. */
static char *
printed(const struct compare_set *set, const struct compare_output *o,
    int how)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		die_errno(1, "open_memstream");
	if (how == P_TEXT)
		compare_print_text(f, set, o);
	else if (how == P_MARKDOWN)
		compare_print_markdown(f, set, o);
	else if (how == P_CSV)
		compare_print_csv(f, set, o);
	else
		compare_print_json(f, set, o);
	fclose(f);
	return (text);
}

int
main(void)
{
	const char *data = getenv("TESTDATA");
	struct metrics_options mo;
	struct compare_output o;
	struct compare_set *set;
	json_error_t err;
	json_t *root;
	char *paths[2], *text, *cause = NULL;

	paths[0] = xasprintf("%s/analyze/basic", data != NULL ? data :
	    "tests/data");
	paths[1] = paths[0];
	metrics_options_default(&mo);
	if (!tap_ok(compare_load(paths, 2, COMPARE_BY_DIR, &mo, NULL, &set,
	    &cause) == 0, "load the run twice")) {
		tap_diag("%s", cause);
		return (tap_done());
	}
	tap_eq_str(compare_test_name(COMPARE_MANN_WHITNEY), "mann-whitney",
	    "test names as --test spells them");
	text = compare_group_names(set);
	tap_ok(strchr(text, ',') != NULL, "group names are comma-separated");
	free(text);

	tap_ok(metrics_better("spread_index.twmean", "ratio") ==
	    METRICS_BETTER_LOWER && metrics_better("empty_bytes.final",
	    "bytes") == METRICS_BETTER_HIGHER &&
	    metrics_better("placement.memhog.regions.twmean", "regions") ==
	    METRICS_BETTER_LOWER && metrics_better("used_pages.twmean",
	    "pages") == METRICS_BETTER_NONE, "better: region metrics");
	tap_ok(metrics_better("workload.w.throughput", "ops/s") ==
	    METRICS_BETTER_HIGHER && metrics_better("workload.w.wall_s",
	    "s") == METRICS_BETTER_LOWER && metrics_better(
	    "workload.w.threads", "threads") == METRICS_BETTER_NONE,
	    "better: workload rates higher, times lower, counts neither");
	tap_ok(metrics_is_rate("workload.w.pages_per_s", "pages/s") &&
	    metrics_is_rate("workload.w.throughput", "ops/s") &&
	    !metrics_is_rate("workload.w.wall_s", "s"), "rates per second");
	tap_ok(metrics_compare_shown("spread_index.twmean", "ratio", 1) &&
	    !metrics_compare_shown("spread_index.final", "ratio", 1) &&
	    !metrics_compare_shown("occupancy.n0r1.twmean", "ratio", 0) &&
	    metrics_compare_shown("workload.w.pages_per_s", "pages/s", 1) &&
	    !metrics_compare_shown("workload.w.pages", "pages", 1) &&
	    metrics_compare_shown("duration_s", "s", 1) &&
	    !metrics_compare_shown("samples", "samples", 1),
	    "the headline set compare prints by default");

	memset(&o, 0, sizeof o);
	o.test = COMPARE_WELCH;
	o.alpha = 0.05;
	o.differences = "host differs";
	o.notes = compare_notes(set, o.differences);
	tap_eq_u64(json_array_size(o.notes), 2 + set->ngroups,
	    "notes: the unit, the difference, then one per group of one run");
	tap_ok(strstr(json_string_value(json_array_get(o.notes, 0)),
	    "1 run") != NULL, "the first note says what a value stands for");
	tap_ok(strstr(json_string_value(json_array_get(o.notes, 1)),
	    "runs differ (--force): host differs") != NULL,
	    "the second note says the runs differ");

	text = printed(set, &o, P_TEXT);
	tap_ok(strncmp(text, "regionbench compare: baseline ", 30) == 0,
	    "text: the first line names the baseline");
	tap_ok(strstr(text, "\nphase fill\n") != NULL &&
	    strstr(text, "(   0.00%)") != NULL,
	    "text: phase headings, the baseline's change is 0");
	tap_ok(strstr(text, "\nnote: group ") != NULL, "text: the notes");
	tap_ok(strstr(text, "p-value") == NULL &&
	    strstr(text, "spread_index.final") == NULL &&
	    strstr(text, "spread_index.twmean") != NULL,
	    "text: the headline set, one mean row per metric");
	free(text);
	o.all = 1;
	text = printed(set, &o, P_TEXT);
	tap_ok(strstr(text, "same") != NULL && strstr(text, "n<2") == NULL,
	    "text --all: a run against itself is the same, not untested");
	tap_ok(strstr(text, "spread_index.final") != NULL,
	    "text --all: every metric");
	free(text);
	o.all = 0;
	text = printed(set, &o, P_MARKDOWN);
	tap_ok(strstr(text, "| phase | metric | unit | better | stat |") !=
	    NULL && strstr(text, " (baseline) |") != NULL &&
	    strstr(text, "| fill | `") != NULL, "markdown: table and rows");
	tap_ok(strstr(text, "| fill | `samples`") == NULL &&
	    strstr(text, "| fill | `spread_index.twmean` | ratio | \u2193 | "
	    "Amean |") != NULL, "markdown: headline rows with unit and arrow");
	free(text);
	text = printed(set, &o, P_CSV);
	tap_ok(strncmp(text, "phase,metric,unit,group,n,mean,", 31) == 0,
	    "CSV header");
	tap_ok(strstr(text, "\nfill,samples,samples,") != NULL &&
	    strstr(text, ",1,3,,3,3,,,0,,0\n") != NULL,
	    "CSV: fill's 3 samples, n=1, no stddev, no test, no change");
	free(text);
	text = printed(set, &o, P_JSON);
	root = json_loads(text, 0, &err);
	tap_ok(root != NULL && json_array_size(json_object_get(root,
	    "metrics")) > 0 && json_array_size(json_object_get(root,
	    "metrics")) < (size_t)set->nkeys &&
	    strcmp(json_string_value(json_object_get(root, "metrics_shown")),
	    "headline") == 0, "JSON: the headline keys by default");
	json_decref(root);
	free(text);
	o.all = 1;
	text = printed(set, &o, P_JSON);
	root = json_loads(text, 0, &err);
	tap_ok(root != NULL && json_array_size(json_object_get(root,
	    "metrics")) == (size_t)set->nkeys &&
	    strcmp(json_string_value(json_object_get(root, "differences")),
	    "host differs") == 0, "JSON --all: every key and the differences");
	json_decref(root);
	free(text);
	json_decref(o.notes);
	compare_free(set);
	free(paths[0]);
	return (tap_done());
}
