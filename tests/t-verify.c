/*
 * verify's checks (analyze/verify.c): the hand-made run
 * tests/data/analyze/basic is whole and complete, and so is the run with
 * DAMON's references.csv, while its damaged copy is damaged; a directory
 * with nothing in it has no data, and the verdicts combine worst first.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "tap.h"
#include "verify.h"

/* Verify dir, keeping what it printed in *text; returns the verdict. */
static int
verified(const char *dir, char **text, char **cause)
{
	size_t len = 0;
	FILE *f;
	int rc;

	*text = NULL;
	if ((f = open_memstream(text, &len)) == NULL)
		die_errno(1, "open_memstream");
	rc = verify_path(f, dir, cause);
	fclose(f);
	return (rc);
}

int
main(void)
{
	const char *data = getenv("TESTDATA");
	char *dir, *text, *cause = NULL, empty[4096];

	tap_eq_u64(verify_worse(RB_EXIT_OK, RB_EXIT_NODATA), RB_EXIT_NODATA,
	    "no data is worse than whole");
	tap_eq_u64(verify_worse(RB_EXIT_FAIL, RB_EXIT_NODATA), RB_EXIT_FAIL,
	    "damage is worse than no data");
	tap_eq_u64(verify_worse(RB_EXIT_OK, RB_EXIT_OK), RB_EXIT_OK,
	    "whole and whole is whole");

	dir = xasprintf("%s/analyze/basic", data != NULL ? data :
	    "tests/data");
	tap_eq_u64(verified(dir, &text, &cause), RB_EXIT_OK,
	    "the hand-made run is whole");
	tap_ok(strstr(text, "whole and complete: 5 samples of 5 regions") !=
	    NULL, "and says so with its size");
	free(text);
	free(dir);

	dir = xasprintf("%s/analyze/references", data != NULL ? data :
	    "tests/data");
	tap_eq_u64(verified(dir, &text, &cause), RB_EXIT_OK,
	    "a run with references.csv is whole");
	free(text);
	free(dir);
	dir = xasprintf("%s/analyze/references-bad", data != NULL ? data :
	    "tests/data");
	tap_eq_u64(verified(dir, &text, &cause), RB_EXIT_FAIL,
	    "more bytes referenced than monitored is damage");
	tap_ok(strstr(text, "references.csv:7: referenced_bytes") != NULL,
	    "named with file and line");
	free(text);
	free(dir);

	snprintf(empty, sizeof empty, "%s", tap_scratch_dir("t-verify"));
	tap_eq_u64(verified(empty, &text, &cause), RB_EXIT_NODATA,
	    "an empty directory has no data");
	free(text);
	rmdir(empty);
	tap_ok(verified(empty, &text, &cause) < 0 && cause != NULL,
	    "a directory that is gone is an error with a cause");
	free(text);
	free(cause);
	return (tap_done());
}
