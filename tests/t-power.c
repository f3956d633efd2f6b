/*
 * The power model (analyze/power.c): the INI file's checks and the rows it
 * adds to a summary, on the hand-made run tests/data/analyze/basic.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "power.h"
#include "tap.h"

/* Write text to a temporary INI file; returns its path. */
static char *
write_ini(const char *text)
{
	char *path = xstrdup("/tmp/t-power.XXXXXX");
	FILE *f;
	int fd;

	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL)
		die_errno(1, "mkstemp");
	fputs(text, f);
	fclose(f);
	return (path);
}

/* Load text as a power model; returns the exit code and keeps the cause. */
static int
load(const char *text, struct power_model *pm, char **cause)
{
	char *path = write_ini(text);
	int rc;

	*cause = NULL;
	rc = power_model_load(path, pm, cause);
	unlink(path);
	free(path);
	return (rc);
}

/* Bad files: each names what is wrong and exits 2. */
static void
test_bad(void)
{
	struct power_model pm;
	char *cause;

	tap_ok(load("[power]\nself_refresh_mw_per_gib = 100\n", &pm,
	    &cause) == -RB_EXIT_INPUT && strstr(cause, "needs both") != NULL,
	    "one key missing: needs both");
	free(cause);
	tap_ok(load("[power]\nself_refresh_mw_per_gib = 1\n"
	    "powered_down_mw_per_gib = 2\n", &pm, &cause) == -RB_EXIT_INPUT &&
	    strstr(cause, "larger") != NULL, "powered down above self refresh");
	free(cause);
	tap_ok(load("[power]\nself_refresh_mw_per_gib = -1\n", &pm,
	    &cause) == -RB_EXIT_INPUT && strstr(cause, ":2: ") != NULL,
	    "a negative number is refused with its line");
	free(cause);
	tap_ok(load("[power]\nself_refresh_mw_per_gib = 10\n"
	    "powered_down_mw_per_gib = 0\non_mw_per_gib = 5\n", &pm,
	    &cause) == -RB_EXIT_INPUT && strstr(cause, "on_mw_per_gib is "
	    "smaller") != NULL, "on below self refresh");
	free(cause);
	tap_ok(load("[dram]\nx = 1\n", &pm, &cause) == -RB_EXIT_INPUT &&
	    strstr(cause, "expected [power]") != NULL, "another section");
	free(cause);
	tap_ok(power_model_load("/nonexistent/pm.ini", &pm, &cause) ==
	    -RB_EXIT_INPUT && strstr(cause, "No such file") != NULL,
	    "a missing file says so");
	free(cause);
}

/*
 * The three-state rows on tests/data/analyze/references (tests/t-metrics.c
 * works out its states): fill's time-weighted bytes are on 512 MiB,
 * self-refresh (1024 x 1 s + 512 x 0.5 s) / 1.5 = 853.3 MiB and off
 * (512 x 1 s + 1024 x 0.5 s) / 1.5 = 682.7 MiB, of 2048 MiB.
 */
static void
test_three_states(const char *data)
{
	struct metrics_options mo;
	struct power_model pm;
	struct results *res;
	struct metrics *m;
	struct summary sum;
	char *dir, *cause = NULL;
	int i, fill = -1;

	tap_ok(load("[power]\non_mw_per_gib = 50\n"
	    "self_refresh_mw_per_gib = 10\npowered_down_mw_per_gib = 0\n",
	    &pm, &cause) == 0, "a three-state model loads");
	tap_near(pm.on_mw_per_gib, 50, 0, "on power as given");
	dir = xasprintf("%s/analyze/references", data);
	if (results_load(dir, &res, &cause) != 0 ||
	    metrics_compute(res, (metrics_options_default(&mo), &mo), &m,
	    &cause) != 0) {
		tap_ok(0, "load %s: %s", dir, cause);
		free(dir);
		return;
	}
	memset(&sum, 0, sizeof sum);
	power_summarize(res, m, &pm, &sum);
	tap_eq_u64(sum.n, 8, "four rows per phase with references");
	for (i = 0; i < sum.n; i++)
		if (strcmp(res->phases[sum.rows[i].phase], "fill") == 0 &&
		    fill < 0)
			fill = i;
	if (fill >= 0) {
		tap_eq_str(sum.rows[fill + 2].metric,
		    "power_model.self_refresh_share", "then the share in "
		    "self-refresh");
		tap_near(sum.rows[fill + 2].value, 1280.0 / 1.5 / 2048, 1e-12,
		    "fill: 853.3 of 2048 MiB could be in self-refresh");
		tap_eq_str(sum.rows[fill + 3].metric,
		    "power_model.three_state_saving_mw", "and the saving");
		tap_near(sum.rows[fill + 3].value, 1280.0 / 1.5 / 1024 * 40 +
		    1024.0 / 1.5 / 1024 * 50, 1e-9, "fill: 0.83 GiB x (50 - "
		    "10) + 0.67 GiB x (50 - 0) mW");
	}
	summary_free(&sum);
	metrics_free(m);
	results_free(res);
	free(dir);
}

int
main(void)
{
	const char *data = getenv("TESTDATA");
	struct metrics_options mo;
	struct power_model pm;
	struct results *res;
	struct metrics *m;
	struct summary sum;
	char *dir, *cause = NULL;

	test_bad();
	tap_ok(load("[power]\nself_refresh_mw_per_gib = 100\n"
	    "powered_down_mw_per_gib = 10\n", &pm, &cause) == 0,
	    "a good model loads");
	tap_near(pm.self_refresh_mw_per_gib, 100, 0, "self refresh power");
	tap_near(pm.powered_down_mw_per_gib, 10, 0, "powered down power");
	tap_near(pm.on_mw_per_gib, 200, 0, "on defaults to twice self refresh");

	dir = xasprintf("%s/analyze/basic", data != NULL ? data :
	    "tests/data");
	if (results_load(dir, &res, &cause) != 0 ||
	    metrics_compute(res, (metrics_options_default(&mo), &mo), &m,
	    &cause) != 0) {
		tap_ok(0, "load %s: %s", dir, cause);
		return (tap_done());
	}
	memset(&sum, 0, sizeof sum);
	power_summarize(res, m, &pm, &sum);
	tap_eq_u64(sum.n, 4, "two rows per phase");
	/*
	 * fill: empty pages 5000 (t=0, 1 s), 1000 (t=1, 1 s), 3000 (t=2,
	 * 0.5 s to phase_end): time-weighted 7500 / 2.5 = 3000 of the 7000
	 * present pages.
	 */
	/* Rows come phase by phase: fill's share, then its saving. */
	tap_eq_str(res->phases[sum.rows[0].phase], "fill", "fill first");
	tap_eq_str(sum.rows[0].metric, "power_model.powered_down_share",
	    "the share first");
	tap_near(sum.rows[0].value, 3000.0 / 7000, 1e-12,
	    "fill: empty share 3000 of 7000 pages");
	tap_eq_str(sum.rows[1].metric, "power_model.saving_mw",
	    "then the saving");
	tap_near(sum.rows[1].value, 3000.0 * 4096 / (1024.0 * 1024 * 1024) *
	    90, 1e-12, "fill: saving is empty GiB times (100 - 10) mW");
	tap_eq_str(sum.rows[0].unit, "ratio", "share is a ratio");
	tap_eq_str(sum.rows[1].unit, "mW", "saving is in mW");
	tap_ok(sum.rows[0].headline && sum.rows[1].headline,
	    "model rows are headline rows");
	summary_free(&sum);
	metrics_free(m);
	results_free(res);
	free(dir);
	test_three_states(data != NULL ? data : "tests/data");
	return (tap_done());
}
