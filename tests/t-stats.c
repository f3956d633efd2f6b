/*
 * Known-answer tests for analyze/stats.c.  The expected figures were
 * computed independently with SciPy 1.10 (Debian python3-scipy):
 * numpy.std(ddof=1), scipy.stats.t.ppf for the CI half-width,
 * scipy.stats.ttest_ind(equal_var=False) for Welch.  The exact Mann-Whitney
 * p-values were counted by brute force (Python itertools.combinations over
 * every choice of ranks for the first group, p = 2 P(U >= max(U1, U2)) as
 * scipy.stats.mannwhitneyu(method="exact")) and checked against published
 * critical values of U (two-sided alpha 0.05: 2 for 5+5, 13 for 8+8, 23 for
 * 10+10, 127 for 20+20; Siegel & Castellan, Nonparametric Statistics, table
 * J).  The asymptotic figure for groups over 20 was computed with Python's
 * math.erfc from the normal approximation with continuity correction.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "compare.h"
#include "stats.h"
#include "tap.h"

/*
 * Two groups of n values with U of a equal to u and no ties: b is 1..n and
 * the first a values sit above as many b's as needed.
 */
static void
groups_with_u(int n, int u, double *a, double *b)
{
	int i, above;

	for (i = 0; i < n; i++) {
		b[i] = i + 1;
		above = u > n ? n : u;
		u -= above;
		a[i] = above + 0.5 + i * 1e-3;
	}
}

/* p of the exact test for two groups of n with U = u. */
static double
exact_p(int n, int u)
{
	double a[20], b[20], got_u, p;

	groups_with_u(n, u, a, b);
	if (stats_mann_whitney(a, n, b, n, &got_u, &p) != 0 || got_u != u)
		return (NAN);
	return (p);
}

/* Constant groups and changes below the relative 1e-9 are no change. */
static void
test_no_change(void)
{
	static const double tenth[] = { 0.1, 0.1, 0.1 };
	static const double occ[] = { 0.736, 0.736, 0.736, 0.736, 0.736,
	    0.736, 0.736 };
	static const double big[] = { 696468, 696468, 696468 };
	double base[3], cand[3], t, df, p;
	struct compare_cell cell;
	struct stats_desc desc;
	int i;

	/* (0.1 + 0.1 + 0.1) / 3 is 0.10000000000000002 in doubles. */
	stats_describe(tenth, 3, 0.95, &desc);
	tap_ok(desc.mean == 0.1, "describe: mean of equal values is exactly "
	    "the value (0.1 x 3)");
	tap_ok(desc.stddev == 0 && desc.ci_low == 0.1 && desc.ci_high == 0.1,
	    "describe: equal values have stddev 0 and a point interval");
	stats_describe(occ, 7, 0.95, &desc);
	tap_ok(desc.mean == 0.736 && desc.min == 0.736 && desc.max == 0.736,
	    "describe: mean of 0.736 x 7 is exactly 0.736");
	stats_describe(big, 3, 0.95, &desc);
	tap_ok(desc.mean == 696468, "describe: a constant count stays an "
	    "integer");

	tap_ok(stats_same(1.0, 1.0 + 5e-10), "same: 5e-10 relative is no "
	    "change");
	tap_ok(!stats_same(1.0, 1.0 + 2e-9), "same: 2e-9 relative is a "
	    "change");
	tap_ok(stats_same(0, 0) && !stats_same(0, 1e-300),
	    "same: zero equals only zero");

	/* Constant groups a few ulps apart: no change, no test. */
	for (i = 0; i < 3; i++) {
		base[i] = 0.1;
		cand[i] = 0.10000000000000002;
	}
	stats_welch(base, 3, cand, 3, &t, &df, &p);
	tap_near(p, 1.0, 0, "welch: constant groups one ulp apart give p = 1");
	compare_cell_values(base, 3, cand, 3, 0, COMPARE_WELCH, 0.05, &cell);
	tap_ok(cell.unchanged && cell.change_pct == 0 && !cell.tested &&
	    !cell.significant && isnan(cell.p), "cell: a change of one ulp is "
	    "no change, not tested");

	/* Noisy groups whose means differ by 3.7e-16 relative. */
	base[0] = 1.0 - 1e-12;
	base[1] = 1.0;
	base[2] = 1.0 + 1e-12;
	cand[0] = 1.0 - 1e-12;
	cand[1] = 1.0 + 1e-15;
	cand[2] = 1.0 + 1e-12;
	compare_cell_values(base, 3, cand, 3, 0, COMPARE_WELCH, 0.05, &cell);
	tap_ok(cell.unchanged && !cell.tested && !cell.significant,
	    "cell: a relative change of 3e-16 is not tested");

	/* A real change is still tested. */
	for (i = 0; i < 3; i++) {
		base[i] = 100 + i;
		cand[i] = 110 + i;
	}
	compare_cell_values(base, 3, cand, 3, 0, COMPARE_WELCH, 0.05, &cell);
	tap_ok(!cell.unchanged && cell.tested && cell.significant,
	    "cell: a 10%% change with small noise is tested and significant");
	tap_near(cell.change_pct, 100.0 * 10 / 101, 1e-9, "cell: change in %%");
}

/* The exact Mann-Whitney distribution for groups of up to 20. */
static void
test_mann_whitney_exact(void)
{
	static const double a[] = { 1, 2, 3, 4, 5 };
	static const double b[] = { 2, 4, 6, 8, 10, 12 };
	static const double c[] = { 1, 2, 2, 3, 3, 3 };
	static const double d[] = { 3, 4, 4, 5, 5, 5, 6 };
	static const double low3[] = { 1, 2, 3 };
	static const double high3[] = { 4, 5, 6 };
	double big_a[21], big_b[22], u, p;
	int i;

	tap_ok(stats_mann_whitney(a, 5, b, 6, &u, &p) == 0, "mann-whitney: "
	    "runs");
	tap_near(u, 5.0, 1e-12, "mann-whitney: U (scipy)");
	tap_near(p, 0.08225108225108226, 1e-12,
	    "mann-whitney exact: 5 vs 6, P(U >= 25) (brute force)");
	stats_mann_whitney(c, 6, d, 7, &u, &p);
	tap_near(u, 1.5, 1e-12, "mann-whitney: U with ties (scipy)");
	tap_near(p, 0.004662004662004662, 1e-12,
	    "mann-whitney exact: ties, U2 = 40.5 uses P(U >= 40) "
	    "(brute force)");
	stats_mann_whitney(low3, 3, high3, 3, &u, &p);
	tap_near(p, 0.1, 1e-12, "mann-whitney exact: 3 vs 3 fully apart "
	    "gives 2/20");

	tap_near(exact_p(5, 2), 0.031746031746031744, 1e-12,
	    "mann-whitney exact: 5+5, U = 2 (brute force)");
	tap_near(exact_p(5, 3), 0.05555555555555555, 1e-12,
	    "mann-whitney exact: 5+5, U = 3 (brute force)");
	tap_near(exact_p(8, 13), 0.049883449883449886, 1e-12,
	    "mann-whitney exact: 8+8, U = 13 (brute force)");
	tap_near(exact_p(8, 14), 0.06495726495726496, 1e-12,
	    "mann-whitney exact: 8+8, U = 14 (brute force)");
	tap_ok(exact_p(10, 23) <= 0.05 && exact_p(10, 24) > 0.05,
	    "mann-whitney exact: 10+10 critical U is 23 (table)");
	tap_ok(exact_p(20, 127) <= 0.05 && exact_p(20, 128) > 0.05,
	    "mann-whitney exact: 20+20 critical U is 127 (table)");
	tap_near(exact_p(20, 200), 1.0, 0, "mann-whitney exact: U = mn/2 "
	    "is capped at p = 1");

	/*
	 * Run means of the same figures summed in another order differ in
	 * the last bit (5/7 and 1/7 + 1/7 + 1/7 + 1/7 + 1/7): they are ties,
	 * as SciPy 1.10.1 counts the values equal to the bit
	 * (mannwhitneyu([.1, .2, 5/7, 5/7], [5/7, .8, .9, 1],
	 * method="exact"): U 1.0, p 0.05714285714285714; with the last 5/7
	 * one bit lower SciPy gives U 2.0, p 0.11428571428571428).
	 */
	{
		double five = 5.0 / 7, sum = 0;
		double ta[4] = { 0.1, 0.2, 0, 0 }, tb[4] = { 0, 0.8, 0.9, 1 };

		for (i = 0; i < 5; i++)
			sum += 1.0 / 7;
		ta[2] = ta[3] = five;
		tb[0] = sum;
		tap_ok(sum != five, "mann-whitney ties: 5/7 summed is 1 ULP "
		    "off (%.17g, %.17g)", sum, five);
		stats_mann_whitney(ta, 4, tb, 4, &u, &p);
		tap_near(u, 1.0, 0, "mann-whitney ties: values 1 ULP apart "
		    "are tied: U (scipy on equal values)");
		tap_near(p, 0.05714285714285714, 1e-12, "mann-whitney ties: "
		    "p (scipy on equal values)");
	}

	/* 21 and 22 values: the normal approximation. */
	for (i = 0; i < 21; i++)
		big_a[i] = i;
	for (i = 0; i < 22; i++)
		big_b[i] = i + 10.5;
	stats_mann_whitney(big_a, 21, big_b, 22, &u, &p);
	tap_near(u, 55, 0, "mann-whitney asymptotic: U (by hand)");
	tap_near(p, 2.007710026806375e-05, 1e-12,
	    "mann-whitney asymptotic: groups over 20 (math.erfc)");
}

/*
 * Holm's adjustment, worked by hand: sorted ascending, the i-th smallest
 * of m is multiplied by m - i, never below the one before, capped at 1.
 */
static void
test_holm(void)
{
	static const double four[] = { 0.01, 0.04, 0.03, 0.005 };
	static const double want4[] = { 0.03, 0.06, 0.06, 0.02 };
	static const double ties[] = { 0.02, 0.02, 0.02 };
	static const double big[] = { 0.6, 0.5 };
	static const double apart[] = { 0.04, 0.001 };
	double adj[4];
	int i, same;

	stats_holm(four, 4, adj);
	for (same = 1, i = 0; i < 4; i++)
		same &= fabs(adj[i] - want4[i]) < 1e-15;
	if (!tap_ok(same, "holm: 0.01 0.04 0.03 0.005 become 0.03 0.06 0.06 "
	    "0.02, in the order given"))
		tap_diag("got %g %g %g %g", adj[0], adj[1], adj[2], adj[3]);
	stats_holm(ties, 3, adj);
	tap_ok(fabs(adj[0] - 0.06) < 1e-15 && fabs(adj[1] - 0.06) < 1e-15 &&
	    fabs(adj[2] - 0.06) < 1e-15, "holm: three equal p-values of 0.02 "
	    "all become 0.06");
	stats_holm(big, 2, adj);
	tap_ok(adj[0] == 1 && adj[1] == 1, "holm: capped at 1");
	stats_holm(apart, 2, adj);
	tap_ok(fabs(adj[0] - 0.04) < 1e-15 && fabs(adj[1] - 0.002) < 1e-15,
	    "holm: the largest of two is left as it is, the smallest doubled");
	stats_holm(apart, 1, adj);
	tap_ok(adj[0] == 0.04, "holm: one test is not adjusted");
}

int
main(void)
{
	static const double a[] = { 1, 2, 3, 4, 5 };
	static const double b[] = { 2, 4, 6, 8, 10, 12 };
	static const double c[] = { 1, 2, 2, 3, 3, 3 };
	static const double d[] = { 3, 4, 4, 5, 5, 5, 6 };
	static const double x[] = { 1.02, 0.98, 1.01, 0.99, 1.00 };
	static const double y[] = { 1.50, 1.48, 1.52, 1.49, 1.51 };
	static const double thr_a[] = { 1000, 1010, 990 };
	static const double thr_b[] = { 900, 905, 895 };
	static const double same[] = { 2, 2, 2 };
	static const double other[] = { 3, 3, 3 };
	struct stats_desc desc;
	double t, df, p, u;

	stats_describe(a, 5, 0.95, &desc);
	tap_eq_u64(desc.n, 5, "describe: n");
	tap_near(desc.mean, 3.0, 1e-12, "describe: mean of 1..5");
	tap_near(desc.stddev, 1.5811388300841898, 1e-12,
	    "describe: sample stddev of 1..5 (scipy)");
	tap_near(desc.ci_low, 1.0367568385224393, 1e-9,
	    "describe: 95%% CI low, t(0.975, 4) (scipy)");
	tap_near(desc.ci_high, 4.9632431614775605, 1e-9,
	    "describe: 95%% CI high (scipy)");
	tap_near(desc.min, 1, 0, "describe: min");
	tap_near(desc.max, 5, 0, "describe: max");

	stats_describe(thr_a, 3, 0.95, &desc);
	tap_near(desc.ci_low, 975.1586228815625, 1e-8,
	    "describe: CI with n=3 uses t(0.975, 2) = 4.3027 (scipy)");

	stats_describe(a, 1, 0.95, &desc);
	tap_ok(desc.n == 1 && desc.mean == 1 && isnan(desc.stddev) &&
	    isnan(desc.ci_low), "describe: one value has a mean, no spread");

	tap_ok(stats_welch(a, 5, b, 6, &t, &df, &p) == 0, "welch: runs");
	tap_near(fabs(t), 2.3763541031440183, 1e-9, "welch: |t| (scipy)");
	tap_near(p, 0.04928433820673049, 1e-9, "welch: p (scipy)");

	stats_welch(c, 6, d, 7, &t, &df, &p);
	tap_near(df, 10.998889094612109, 1e-9,
	    "welch: Welch-Satterthwaite df (by hand from the variances)");
	tap_near(p, 0.0008987926261635361, 1e-10, "welch: p, ties (scipy)");

	stats_welch(x, 5, y, 5, &t, &df, &p);
	tap_near(p, 2.8344106450918018e-11, 1e-15,
	    "welch: tiny p stays accurate (scipy)");

	stats_welch(thr_a, 3, thr_b, 3, &t, &df, &p);
	tap_near(p, 0.0006514534283745337, 1e-10, "welch: n=3 (scipy)");

	tap_ok(stats_welch(a, 1, b, 6, &t, &df, &p) == -1,
	    "welch: refuses a group of one (no fake p-value)");
	stats_welch(same, 3, same, 3, &t, &df, &p);
	tap_near(p, 1.0, 0, "welch: identical constant groups give p = 1");
	stats_welch(same, 3, other, 3, &t, &df, &p);
	tap_near(p, 0.0, 0, "welch: different constant groups give p = 0");
	{
		double nan3[3] = { NAN, NAN, NAN };

		tap_ok(stats_welch(nan3, 3, nan3, 3, &t, &df, &p) == -1,
		    "welch: groups of NaN give no test (and never abort)");
	}

	tap_ok(stats_mann_whitney(a, 5, b, 1, &u, &p) == -1,
	    "mann-whitney: refuses a group of one");
	stats_mann_whitney(same, 3, same, 3, &u, &p);
	tap_near(p, 1.0, 0, "mann-whitney: all ties give p = 1");
	test_mann_whitney_exact();
	test_no_change();
	test_holm();
	return (tap_done());
}
