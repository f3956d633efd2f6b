/*
 * Unit tests for lib/term.c: the progress line of `run` fits any width,
 * folds regions into fewer glyphs when they do not fit and says so, and
 * shows the repetition and the phase state; the live table of `sample`
 * (bench/region-table.c) fits the terminal and shows first the regions
 * that hold memory.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region-table.h"
#include "snapshot.h"
#include "tap.h"
#include "term.h"

/* The width of the widest line of text. */
static size_t
term_widest(const char *text)
{
	size_t widest = 0, n;

	while (*text != '\0') {
		n = strcspn(text, "\n");
		if (n > widest)
			widest = n;
		text += n + (text[n] == '\n');
	}
	return (widest);
}

/* The line at width for n regions, in both forms, and what it must say. */
static void
test_line(int width, int n, enum term_state state)
{
	struct term_progress tp = {
		.suite = "quick", .rep = 2, .nreps = 3, .phase = 4,
		.nphases = 5, .phase_name = "fill-half",
		.workload = "pagetest", .state = state, .progress = 0.5,
		.elapsed = 12.3, .left = state == TERM_HOLDING ? -1 : 42,
	};
	double *used = calloc((size_t)n, sizeof *used);
	char line[4096], text[4096], want[64], *open, *close;
	int i, plain, glyphs, per;

	for (i = 0; i < n; i++)
		used[i] = i % 7 == 0 ? -1 : (double)(i % 10) / 10;
	for (plain = 0; plain <= 1; plain++) {
		term_progress_line(line, sizeof line, width, plain, &tp, used,
		    n);
		tap_ok(term_widest(line) <= (size_t)width, "%d columns, %d "
		    "regions, %s: %zu columns used", width, n, plain ?
		    "plain" : "tty", term_widest(line));
		if (width >= 40) {
			tap_ok(strstr(line, "rep 2/3") != NULL,
			    "%d columns, %d regions: repetition shown", width,
			    n);
			tap_ok(strstr(line, state == TERM_RUNNING ? "running" :
			    state == TERM_HOLDING ? "holding" : "settling") !=
			    NULL, "%d columns, %d regions: state shown", width,
			    n);
		}
		snprintf(text, sizeof text, "%.*s", (int)strcspn(line, "["),
		    line);
		tap_ok(state == TERM_RUNNING ||
		    (strchr(text, '%') == NULL &&
		    strstr(text, "unknown") == NULL),
		    "%d columns: no percentage or unknown time once the "
		    "work is done", width);
		if ((open = strchr(line, '[')) == NULL ||
		    (close = strchr(open, ']')) == NULL) {
			tap_ok(width < 60, "%d columns: regions shown",
			    width);
			continue;
		}
		glyphs = (int)(close - open - 1);
		per = glyphs >= n ? 1 : (n + glyphs - 1) / glyphs;
		tap_ok(per * glyphs >= n && (per == 1 ? glyphs == n :
		    (per - 1) * glyphs < n + per),
		    "%d columns, %d regions: %d glyphs of %d cover them", width,
		    n, glyphs, per);
		snprintf(want, sizeof want, "(%d per glyph)", per);
		tap_ok(per == 1 ? strstr(line, "per glyph") == NULL :
		    strstr(line, want) != NULL,
		    "%d columns, %d regions, %s: folding said", width, n,
		    plain ? "plain" : "tty");
	}
	free(used);
}

/* Folding itself: means of the folded regions, unknown ones left out. */
static void
test_fold(void)
{
	double used[6] = { 0, 1, -1, -1, 1, 1 };
	char buf[16];

	tap_eq_u64(term_fold(used, 6, 6, buf, sizeof buf), 1, "fits: 1 per");
	tap_eq_str(buf, " @??@@", "one glyph per region");
	tap_eq_u64(term_fold(used, 6, 3, buf, sizeof buf), 2, "3 columns: 2 "
	    "per glyph");
	tap_eq_str(buf, "+?@", "means, unknown only when all are");
	tap_eq_u64(term_fold(used, 6, 4, buf, sizeof buf), 2, "4 columns: 2 "
	    "per glyph");
	tap_eq_u64(term_fold(used, 6, 6, buf, 4), 1, "short buffer");
	tap_eq_str(buf, " @?", "short buffer: cut, terminated");
}

/*
 * Runs of unknown regions fold to one '?' each and take no room from the
 * others; the scale asked for is kept; the terminal's line at 80 columns
 * keeps the phase's name with 22 regions of memory and 28 not initialised
 * (the machine the issue was seen on), one region a glyph; a phase whose
 * later phases have no known length says the time left in the phase.
 */
static void
test_fold_runs(void)
{
	double used[10] = { 0, 1, -1, -1, -1, 1, -1, 0.5, -1, -1 };
	double many[50];
	struct term_progress tp = {
		.suite = "quick", .rep = 1, .nreps = 1, .phase = 1,
		.nphases = 4, .phase_name = "pagetest",
		.workload = "pagetest", .state = TERM_RUNNING,
		.progress = 0.77, .elapsed = 9, .left = 3,
		.left_in_phase = 1,
	};
	char buf[64], line[4096];
	int i;

	tap_eq_u64(term_fold_runs(used, 10, 10, 0, buf, sizeof buf), 1,
	    "runs: 1 per");
	tap_eq_str(buf, " @?@?+?", "a run of unknown regions is one '?', a "
	    "lone one stays");
	tap_eq_u64(term_fold_runs(used, 10, 10, 2, buf, sizeof buf), 2,
	    "the scale asked for is kept");
	tap_eq_str(buf, "+?@+?", "two a glyph, never across a run");
	for (i = 0; i < 50; i++)
		many[i] = i >= 6 && i < 28 ? 0.5 : -1;
	many[0] = many[1] = 0;
	term_progress_line(line, sizeof line, 79, 0, &tp, many, 50);
	tap_ok(strstr(line, "phase 1/4 pagetest running 77% 9s phase ~3s "
	    "left [") != NULL && strstr(line, "per glyph") == NULL &&
	    strlen(line) <= 79 && tp.per == 1, "80 columns: the phase's name, "
	    "the time left in the phase, one region a glyph: %s", line);
}

/*
 * A plain line that does not fit whole keeps the phase's name, dropping
 * first what tells least: the workload's name, the suite, an unknown time
 * left.  The phase named after its workload says it once.
 */
static void
test_plain_names(void)
{
	struct term_progress tp = {
		.suite = "quick", .rep = 1, .nreps = 1, .phase = 3,
		.nphases = 4, .phase_name = "page-cache",
		.workload = "page-cache-churn", .state = TERM_RUNNING,
		.progress = 0, .elapsed = 0, .left = -1,
	};
	double used[50] = { 0 };
	char line[4096];

	term_progress_line(line, sizeof line, 80, 1, &tp, used, 50);
	tap_ok(strstr(line, "phase 3/4 page-cache ") != NULL &&
	    strcspn(line, "\n") <= 80, "80 columns: the phase's name "
	    "kept, the workload's dropped: %.*s", (int)strcspn(line, "\n"),
	    line);
	term_progress_line(line, sizeof line, 200, 1, &tp, used, 50);
	tap_ok(strstr(line, "quick rep 1/1: phase 3/4 page-cache "
	    "(page-cache-churn) running 0% 0s time left unknown") != NULL,
	    "200 columns: everything");
	tp.phase_name = tp.workload = "pagetest";
	term_progress_line(line, sizeof line, 200, 1, &tp, used, 50);
	tap_ok(strstr(line, "phase 3/4 pagetest running") != NULL,
	    "a phase named after its workload names it once");
	tp.phase_name = "a-rather-long-phase-name-for-a-log";
	tp.workload = "page-cache-churn";
	term_progress_line(line, sizeof line, 70, 1, &tp, used, 50);
	tap_ok(strstr(line, "rep 1/1: phase 3/4 a-rather-long-phase-name-"
	    "for-a-log running 0% 0s") != NULL && strstr(line, "unknown") ==
	    NULL, "70 columns: the unknown time left goes before the phase's "
	    "name: %.*s", (int)strcspn(line, "\n"), line);
}

/* The sample table at width x height for n region keys. */
static void
test_table(int width, int height, int n)
{
	struct snapshot snap;
	struct snap_entry *e;
	char *text = NULL, *p, *nl, want[128];
	size_t len = 0;
	int i, lines = 0, widest = 0, rows_ok = 1, row = 0;
	FILE *f;

	snapshot_init(&snap);
	for (i = 0; i < n; i++) {
		e = snapshot_add(&snap, 0, i, "Normal");
		/* Every third has no memory, every fifth is empty. */
		e->present = i % 3 == 0 ? 0 : 1000;
		e->managed = e->present;
		e->free_pages = i % 3 == 0 ? 0 : i % 5 == 0 ? 1000 : 400;
	}
	f = open_memstream(&text, &len);
	region_table_print_fit(f, &snap, REGION_TABLE_BAR, width, height,
	    "# t=0.000s sample 1 source test (Ctrl-C stops)");
	fclose(f);
	for (p = text; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			break;
		lines++;
		if (nl - p > widest)
			widest = (int)(nl - p);
		/* Rows 3..: active first (used 60.0%). */
		if (lines >= 3 && strncmp(p, "  ", 2) == 0 && row++ < 5 &&
		    strstr(p, "60.0%") == NULL)
			rows_ok = 0;
	}
	tap_ok(widest <= width, "table %dx%d, %d regions: widest line %d",
	    width, height, n, widest);
	tap_ok(lines <= height, "table %dx%d, %d regions: %d lines", width,
	    height, n, lines);
	tap_ok(strncmp(text, "# t=", 4) == 0 && strstr(text, "\nnode ") !=
	    NULL, "table %dx%d: title and header shown", width, height);
	/* Narrower than a row without managed pages, used% is cut off. */
	tap_ok(width < 50 || rows_ok, "table %dx%d: regions with memory first",
	    width, height);
	snprintf(want, sizeof want, "%d regions: ", n);
	p = strstr(text, want);
	if (p == NULL) {
		snprintf(want, sizeof want, "/%d regions shown", n);
		p = strstr(text, want);
	}
	tap_ok(p != NULL, "table %dx%d, %d regions: summary line", width,
	    height, n);
	if (n > height - 3) {
		snprintf(want, sizeof want, "showing the first %d", height - 3);
		tap_ok(width < 70 || strstr(text, want) != NULL,
		    "table %dx%d, %d regions: says how many are shown", width,
		    height, n);
	}
	free(text);
	snapshot_free(&snap);
}

int
main(void)
{
	static const int widths[] = { 80, 40, 200 }, counts[] = { 50, 600 };
	size_t w, c;

	test_fold();
	test_fold_runs();
	for (w = 0; w < sizeof widths / sizeof widths[0]; w++)
		for (c = 0; c < sizeof counts / sizeof counts[0]; c++)
			test_line(widths[w], counts[c], TERM_RUNNING);
	test_line(80, 600, TERM_HOLDING);
	test_line(80, 50, TERM_SETTLING);
	test_line(10, 50, TERM_RUNNING);
	test_plain_names();
	test_table(79, 23, 50);
	test_table(79, 23, 600);
	test_table(40, 10, 50);
	test_table(59, 14, 51);
	test_table(199, 49, 12);
	return (tap_done());
}
