/*
 * analyze/compare.c: groups of runs and the statistics between them.  The
 * runs are made in memory (tests/fake-runs.h) so every value is known;
 * loading, grouping and finding run directories use
 * tests/data/analyze/basic and scratch directories.
 *
 * The reference figures were computed independently with SciPy 1.10.1
 * (Debian python3-scipy), not with this program's GSL code:
 *   scipy.stats.ttest_ind(base, cand, equal_var=False)            Welch
 *   numpy.std(ddof=1) and scipy.stats.t.ppf(0.975, n - 1)         the CI
 * Mann-Whitney on groups of up to 20 uses the exact distribution of U (as
 * scipy.stats.mannwhitneyu(method="exact")): its p-values were counted by
 * brute force over every choice of ranks for the baseline (Python
 * itertools.combinations), p = 2 P(U >= floor(max(U1, U2))).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "fake-runs.h"
#include "log.h"
#include "tap.h"

/* A set of two groups compared on one key, fill/m. */
static struct compare_set *
set_two(const double *base, int nbase, const double *cand, int ncand)
{
	struct compare_set *set = xcalloc(1, sizeof *set);

	fake_group(set, "base", nbase);
	fake_group(set, "cand", ncand);
	fake_values(set, 0, "fill", "m", "ratio", base);
	fake_values(set, 1, "fill", "m", "ratio", cand);
	return (set);
}

/*
 * A shift of about 11%: Welch finds it (p = 0.00107440066692057), and so
 * does Mann-Whitney at 5% but not at 1% (complete separation of 4 and 4
 * values: U = 0, exact p = 2/70 = 0.02857142857142857).
 */
static void
test_shift(void)
{
	static const double base[] = { 10.0, 10.4, 9.8, 10.1 };
	static const double cand[] = { 11.0, 11.3, 10.9, 11.5 };
	struct compare_set *set = set_two(base, 4, cand, 4);
	struct compare_cell c;

	compare_cell(set, 0, 1, &set->keys[0], COMPARE_WELCH, 0.05, &c);
	tap_ok(c.tested, "shift, welch: tested (4 runs a side)");
	tap_near(c.p, 0.00107440066692057, 1e-9, "shift, welch: p (scipy)");
	tap_ok(c.significant, "shift, welch: significant at alpha 0.05");
	tap_near(c.change_pct, 10.91811414392061, 1e-9,
	    "shift: change +10.9%% of the baseline mean 10.075");
	tap_eq_u64(c.desc.n, 4, "shift: the candidate's n");
	tap_near(c.desc.mean, 11.175, 1e-12, "shift: the candidate's mean");
	tap_near(c.desc.stddev, 0.27537852736430507, 1e-12,
	    "shift: the candidate's sample stddev (numpy ddof=1)");
	tap_near(c.desc.ci_low, 10.736811311517425, 1e-9,
	    "shift: 95%% CI low, t(0.975, 3) (scipy)");
	tap_near(c.desc.ci_high, 11.613188688482577, 1e-9,
	    "shift: 95%% CI high (scipy)");

	compare_cell(set, 0, 1, &set->keys[0], COMPARE_MANN_WHITNEY, 0.05,
	    &c);
	tap_near(c.p, 0.02857142857142857, 1e-9,
	    "shift, mann-whitney: exact p 2/70 (brute force)");
	tap_ok(c.tested && c.significant, "shift, mann-whitney: "
	    "significant at alpha 0.05");
	compare_cell(set, 0, 1, &set->keys[0], COMPARE_MANN_WHITNEY, 0.01,
	    &c);
	tap_ok(c.tested && !c.significant, "shift, mann-whitney: not "
	    "significant at alpha 0.01");
	compare_cell(set, 0, 1, &set->keys[0], COMPARE_WELCH, 0.001, &c);
	tap_ok(!c.significant, "shift, welch: not significant at alpha "
	    "0.001 (p 0.00107)");

	compare_cell(set, 0, 0, &set->keys[0], COMPARE_WELCH, 0.05, &c);
	tap_ok(!c.tested && isnan(c.p) && !c.significant,
	    "the baseline against itself is described, not tested");
	tap_near(c.change_pct, 0, 0, "the baseline changes 0%% from itself");
	tap_near(c.desc.mean, 10.075, 1e-12, "the baseline's mean");
	compare_free(set);
}

/*
 * One outlier: the means are far apart but the spread is huge, so Welch
 * sees nothing (p = 0.28193828819972655) while the ranks are completely
 * separated (Mann-Whitney U = 0, exact p = 2/252 = 0.007936507936507936).
 */
static void
test_outlier(void)
{
	static const double base[] = { 1, 2, 3, 4, 5 };
	static const double cand[] = { 6, 7, 8, 9, 100 };
	struct compare_set *set = set_two(base, 5, cand, 5);
	struct compare_cell c;

	compare_cell(set, 0, 1, &set->keys[0], COMPARE_WELCH, 0.05, &c);
	tap_near(c.p, 0.28193828819972655, 1e-9, "outlier, welch: p (scipy)");
	tap_ok(c.tested && !c.significant, "outlier, welch: not significant");
	tap_near(c.change_pct, 766.6666666666667, 1e-9,
	    "outlier: change +766.7%% (mean 3 to 26)");
	compare_cell(set, 0, 1, &set->keys[0], COMPARE_MANN_WHITNEY, 0.05,
	    &c);
	tap_near(c.p, 0.007936507936507936, 1e-9,
	    "outlier, mann-whitney: exact p 2/252 (brute force)");
	tap_ok(c.tested && c.significant, "outlier, mann-whitney: "
	    "significant");
	compare_free(set);
}

/*
 * Ties across the groups: U = 4.5, so the exact test (which, as SciPy's,
 * counts the distribution without ties) gives p = 2 P(U >= 11) =
 * 0.4857142857142857; Welch p = 0.329486987166182.
 */
static void
test_ties(void)
{
	static const double base[] = { 1000, 1100, 900, 1000 };
	static const double cand[] = { 1100, 1300, 900, 1100 };
	struct compare_set *set = set_two(base, 4, cand, 4);
	struct compare_cell c;

	compare_cell(set, 0, 1, &set->keys[0], COMPARE_MANN_WHITNEY, 0.05,
	    &c);
	tap_near(c.p, 0.4857142857142857, 1e-9,
	    "ties, mann-whitney: exact p, U2 = 11.5 counted as 11 "
	    "(brute force)");
	tap_ok(!c.significant, "ties, mann-whitney: not significant");
	compare_cell(set, 0, 1, &set->keys[0], COMPARE_WELCH, 0.05, &c);
	tap_near(c.p, 0.329486987166182, 1e-9, "ties, welch: p (scipy)");
	tap_near(c.change_pct, 10, 1e-12, "ties: change +10%%");
	compare_free(set);
}

/* Groups too small to test, runs without the key, a zero baseline. */
static void
test_edges(void)
{
	static const double one[] = { 5 };
	static const double three[] = { 4, 6, 8 };
	static const double gaps[] = { 2, NAN, 4, NAN };
	static const double zeros[] = { 0, 0 };
	static const double some[] = { 1, 3 };
	struct compare_set *set;
	struct compare_cell c;
	double v[4];

	set = set_two(three, 3, one, 1);
	compare_cell(set, 0, 1, &set->keys[0], COMPARE_WELCH, 0.05, &c);
	tap_ok(!c.tested && isnan(c.p) && !c.significant, "a group of one "
	    "run is not tested (no fake p-value)");
	tap_near(c.change_pct, -16.666666666666668, 1e-9, "a group of one "
	    "still has a change: 5 against a mean of 6 is -16.7%%");
	tap_ok(c.desc.n == 1 && isnan(c.desc.stddev), "a group of one has "
	    "no spread");
	compare_cell(set, 0, 1, &set->keys[0], COMPARE_MANN_WHITNEY, 0.05,
	    &c);
	tap_ok(!c.tested, "mann-whitney does not test a group of one either");
	compare_free(set);

	set = set_two(gaps, 4, three, 3);
	tap_eq_u64(compare_values(&set->groups[0], &set->keys[0], v), 2,
	    "runs without the key are left out of the values");
	tap_ok(v[0] == 2 && v[1] == 4, "values in run order");
	compare_cell(set, 1, 0, &set->keys[0], COMPARE_WELCH, 0.05, &c);
	tap_ok(c.desc.n == 2 && c.desc.mean == 3 && c.tested, "the cell of "
	    "the gappy group uses its 2 values, tested against 3");
	compare_free(set);

	set = set_two(zeros, 2, some, 2);
	compare_cell(set, 0, 1, &set->keys[0], COMPARE_WELCH, 0.05, &c);
	tap_ok(isnan(c.change_pct), "a change from a zero baseline mean is "
	    "not a number");
	compare_free(set);
	set = set_two(zeros, 2, zeros, 2);
	compare_cell(set, 0, 1, &set->keys[0], COMPARE_WELCH, 0.05, &c);
	tap_near(c.change_pct, 0, 0, "zero against zero is no change");
	compare_free(set);
}

/* What makes runs not comparable, and groups by name. */
static void
test_differences(void)
{
	static const double v[] = { 1, 2 };
	struct compare_set *set = set_two(v, 2, v, 2);
	char *text;

	tap_ok(compare_differences(set) == NULL, "same host, region size "
	    "and page size: no differences");
	tap_eq_u64(compare_find_group(set, "cand"), 1, "find group cand");
	tap_ok(compare_find_group(set, "nope") == -1, "no group nope");

	free(set->runs[2]->host);
	set->runs[2]->host = xstrdup("otherhost");
	set->runs[3]->region_size_bytes = 0;
	text = compare_differences(set);
	tap_ok(text != NULL && strstr(text, "host differs: testhost "
	    "(base-1); otherhost (cand-1)") != NULL, "host differences name "
	    "each value once with its first run");
	tap_ok(text != NULL && strstr(text, "region size differs: 268435456 "
	    "bytes (base-1); native regions (8) (cand-2)") != NULL,
	    "region size differences say native regions");
	if (!tap_ok(text != NULL && strstr(text, "page size") == NULL,
	    "no page size line when page sizes agree"))
		tap_diag("got: %s", text != NULL ? text : "(none)");
	free(text);
	compare_free(set);
}

/* Make dir/name, with a meta.json when run is set. */
static void
make_dir(const char *dir, const char *name, int run)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (mkdir(path, 0700) != 0)
		perror(path);
	if (run) {
		snprintf(path, sizeof path, "%s/%s/meta.json", dir, name);
		if ((f = fopen(path, "w")) != NULL)
			fclose(f);
	}
}

/* compare_run_dirs: a run, a directory of runs, neither. */
static void
test_run_dirs(const char *basic)
{
	char top[4096], empty[4200], **dirs, *cause = NULL;
	int n, i;

	if (!tap_ok(compare_run_dirs(basic, &dirs, &n, &cause) == 0 &&
	    n == 1 && strcmp(dirs[0], basic) == 0, "a results directory "
	    "stands for itself"))
		return;
	free(dirs[0]);
	free(dirs);

	snprintf(top, sizeof top, "%s", tap_scratch_dir("t-compare"));
	make_dir(top, "rep-2", 1);
	make_dir(top, "rep-1", 1);
	make_dir(top, "notes", 0);
	make_dir(top, ".hidden", 1);
	make_dir(top, "empty", 0);
	if (tap_ok(compare_run_dirs(top, &dirs, &n, &cause) == 0 && n == 2,
	    "a directory of runs: its 2 run children (%d)", n)) {
		tap_ok(strstr(dirs[0], "/rep-1") != NULL &&
		    strstr(dirs[1], "/rep-2") != NULL, "sorted by name, "
		    "hidden and non-run children left out");
		for (i = 0; i < n; i++)
			free(dirs[i]);
		free(dirs);
	}
	snprintf(empty, sizeof empty, "%s/empty", top);
	tap_ok(compare_run_dirs(empty, &dirs, &n, &cause) == -RB_EXIT_INPUT &&
	    cause != NULL && strstr(cause, "neither a results directory") !=
	    NULL, "a directory without runs is bad input (%s)", cause);
	free(cause);
	cause = NULL;
	snprintf(empty, sizeof empty, "%s/missing", top);
	tap_ok(compare_run_dirs(empty, &dirs, &n, &cause) == -RB_EXIT_INPUT &&
	    cause != NULL && strstr(cause, "missing") != NULL, "a missing "
	    "directory is bad input naming it (%s)", cause);
	free(cause);
}

/* The figure of key phase/metric in the set's first group, or NAN. */
static double
first_value(const struct compare_set *set, const char *phase,
    const char *metric)
{
	double v[8];
	int k;

	for (k = 0; k < set->nkeys; k++) {
		if (strcmp(set->keys[k].phase, phase) == 0 &&
		    strcmp(set->keys[k].metric, metric) == 0 &&
		    compare_values(&set->groups[0], &set->keys[k], v) > 0)
			return (v[0]);
	}
	return (NAN);
}

/* compare_load and compare_load_two on the hand-made run. */
static void
test_load(const char *basic)
{
	struct metrics_options mo;
	struct compare_set *set;
	char *paths[2], *cause = NULL, alias[4200];
	int rc;

	metrics_options_default(&mo);
	snprintf(alias, sizeof alias, "%s/", basic);
	paths[0] = (char *)basic;
	paths[1] = alias;
	rc = compare_load(paths, 2, COMPARE_BY_DIR, &mo, NULL, &set, &cause);
	if (!tap_ok(rc == 0, "load by directory (%s)", cause ? cause : "ok"))
		return;
	tap_ok(set->nruns == 2 && set->ngroups == 2, "by directory: each "
	    "argument is a group");
	tap_eq_str(set->groups[0].name, "basic", "by directory: the first "
	    "group is named after its directory");
	tap_eq_str(set->groups[1].name, alias, "by directory: a second "
	    "'basic' is named by its whole path");
	/* t-metrics.c works this one out from the CSVs: (1+1.5+0.5)/2.5. */
	tap_near(first_value(set, "fill", "spread_index.twmean"), 1.2, 1e-12,
	    "the summary of a loaded run: fill spread_index.twmean");
	tap_ok(compare_differences(set) == NULL, "the same run twice has no "
	    "differences");
	compare_free(set);

	if (tap_ok(compare_load(paths, 2, COMPARE_BY_LABEL, &mo, NULL, &set,
	    &cause) == 0, "load by label")) {
		tap_ok(set->ngroups == 1 && set->groups[0].nruns == 1 &&
		    set->nruns == 1 &&
		    strcmp(set->groups[0].name, "vanilla") == 0, "by label: "
		    "one group 'vanilla', the run named twice counted once");
		compare_free(set);
	}
	if (tap_ok(compare_load(paths, 1, COMPARE_BY_KERNEL, &mo, NULL, &set,
	    &cause) == 0, "load by kernel")) {
		tap_eq_str(set->groups[0].name, "6.18.0", "by kernel: the "
		    "group is the kernel release");
		compare_free(set);
	}
	if (tap_ok(compare_load_two(&paths[0], 1, &paths[1], 1, &mo, NULL, &set,
	    &cause) == 0, "load baseline and candidate")) {
		tap_ok(set->ngroups == 2 &&
		    strcmp(set->groups[0].name, "baseline") == 0 &&
		    strcmp(set->groups[1].name, "candidate") == 0 &&
		    set->groups[0].nruns == 1 && set->groups[1].nruns == 1,
		    "baseline and candidate groups of one run each");
		compare_free(set);
	}
	paths[1] = "/nonexistent/run";
	tap_ok(compare_load(paths, 2, COMPARE_BY_DIR, &mo, NULL, &set, &cause) ==
	    -RB_EXIT_INPUT && cause != NULL, "a missing run fails the load "
	    "(%s)", cause ? cause : "no cause");
	free(cause);
}

int
main(void)
{
	const char *data = getenv("TESTDATA");
	char *basic;

	log_set_program("t-compare");
	log_set_quiet(1);
	basic = xasprintf("%s/analyze/basic", data != NULL ? data :
	    "tests/data");
	test_shift();
	test_outlier();
	test_ties();
	test_edges();
	test_differences();
	test_run_dirs(basic);
	test_load(basic);
	free(basic);
	return (tap_done());
}
