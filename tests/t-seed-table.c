/*
 * The seed table (analyze/seed-table.c) on the hand-made run
 * tests/data/analyze/basic: columns from the checkpoint events, free pages
 * per region, and the text, CSV and markdown layouts.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "seed-table.h"
#include "tap.h"

/* Print with one of the writers into a string. */
static char *
printed(void (*print)(FILE *, const struct results *),
    const struct results *res)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		die_errno(1, "open_memstream");
	print(f, res);
	fclose(f);
	return (text);
}

int
main(void)
{
	const char *data = getenv("TESTDATA");
	struct seed_table t;
	struct results *res;
	char *dir, *text, name[48], *cause = NULL;
	uint64_t *uninit, *saved;
	int nevents, i;

	dir = xasprintf("%s/analyze/basic", data != NULL ? data :
	    "tests/data");
	if (!tap_ok(results_load(dir, &res, &cause) == 0, "load %s", dir)) {
		tap_diag("%s", cause);
		return (tap_done());
	}
	seed_table_build(&t, res);
	tap_eq_u64(t.ncols, 3, "three checkpoints, three columns");
	tap_eq_str(t.cols[0].head, "start", "headings are the checkpoint "
	    "details");
	tap_eq_str(t.cols[2].head, "512MB", "the last checkpoint");
	/* ~480MB at t=0.9 falls between samples: the next one (t=1). */
	tap_eq_u64(t.cols[1].sample, 1, "a checkpoint maps to the sample "
	    "at or after it");
	tap_eq_u64(seed_table_pages(&t, 0, 0), 1500,
	    "region 0 at start: 1000 + 500 free over its two zones");
	tap_eq_u64(seed_table_pages(&t, 1, 1), 1000, "region 1 at ~480MB");
	tap_eq_u64(seed_table_pages(&t, 2, 2), 2000, "region 2 at 512MB");
	seed_table_row_name(&t, 3, name, sizeof name);
	tap_eq_str(name, "Region 3", "one node: rows are named by region");
	seed_table_free(&t);

	text = printed(seed_table_print_csv, res);
	tap_ok(strncmp(text, "node,region,start,~480MB,512MB\n0,0,1500,0,",
	    39) == 0, "CSV: header and the first row");
	free(text);
	text = printed(seed_table_print_markdown, res);
	tap_ok(strstr(text, "| | start | ~480MB | 512MB |\n|---|---:|---:|"
	    "---:|\n| Region 0 | 1500 | 0 |") != NULL, "markdown table");
	free(text);
	text = printed(seed_table_print_text, res);
	tap_ok(strstr(text, "\t| Region 1 | 2000  | 1000   | 0     |\n") !=
	    NULL, "text: columns as wide as their widest cell");
	free(text);

	/* Without checkpoint events: one column per sample. */
	nevents = res->nevents;
	res->nevents = 0;
	seed_table_build(&t, res);
	tap_eq_u64(t.ncols, res->samples.n, "no checkpoints: every sample");
	tap_eq_str(t.cols[1].head, "1.000s", "headed by its time");
	seed_table_free(&t);
	res->nevents = nevents;

	/* Region 4 has no memory; give it uninitialised pages. */
	text = printed(seed_table_print_text, res);
	tap_ok(strstr(text, "| Region 4 | hole  | hole   | hole  |\n") !=
	    NULL && strstr(text, "\thole: no memory in the region\n") !=
	    NULL, "text: a region without memory is a hole, not 0 free");
	free(text);
	uninit = xcalloc((size_t)res->samples.n * res->nregions,
	    sizeof *uninit);
	for (i = 0; i < res->samples.n; i++)
		uninit[(size_t)i * res->nregions + 4] = 100;
	saved = res->uninit;
	res->uninit = uninit;
	text = printed(seed_table_print_markdown, res);
	tap_ok(strstr(text, "| Region 4 | uninit | uninit | uninit |\n") !=
	    NULL && strstr(text, "uninit: memory the kernel has not "
	    "initialised yet") != NULL, "markdown: memory not initialised "
	    "yet is uninit");
	free(text);
	res->uninit = saved;
	free(uninit);
	results_free(res);
	free(dir);
	return (tap_done());
}
