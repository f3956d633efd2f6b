/*
 * Known-answer tests for analyze/stats.c.  The expected figures were
 * computed independently with SciPy 1.10 (Debian python3-scipy):
 * numpy.std(ddof=1), scipy.stats.t.ppf for the CI half-width,
 * scipy.stats.ttest_ind(equal_var=False) for Welch, and
 * scipy.stats.mannwhitneyu(alternative="two-sided", method="asymptotic",
 * use_continuity=True) for Mann-Whitney.
 */
#include "config.h"

#include <math.h>

#include "stats.h"
#include "tap.h"

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

	tap_ok(stats_mann_whitney(a, 5, b, 6, &u, &p) == 0, "mann-whitney: "
	    "runs");
	tap_near(u, 5.0, 1e-12, "mann-whitney: U (scipy)");
	tap_near(p, 0.08143973230450288, 1e-9, "mann-whitney: p (scipy)");
	stats_mann_whitney(c, 6, d, 7, &u, &p);
	tap_near(u, 1.5, 1e-12, "mann-whitney: U with ties (scipy)");
	tap_near(p, 0.0055035271473033425, 1e-9,
	    "mann-whitney: p with tie correction (scipy)");
	tap_ok(stats_mann_whitney(a, 5, b, 1, &u, &p) == -1,
	    "mann-whitney: refuses a group of one");
	stats_mann_whitney(same, 3, same, 3, &u, &p);
	tap_near(p, 1.0, 0, "mann-whitney: all ties give p = 1");
	return (tap_done());
}
