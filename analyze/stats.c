/*
 * Descriptive statistics and two-sample tests over small groups of runs
 * (typically 3 to 10 repetitions).  GSL provides the t and normal
 * distributions and the binomial coefficients; the exact distribution of
 * the Mann-Whitney U is counted here.  A test returns -1 instead of a
 * p-value when the groups are too small for it, so no caller can print a
 * made-up one.
 */
#include "config.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "stats.h"

/*
 * GSL's default error handler aborts the program on a domain error; a
 * statistic of odd input must come back as NaN (no verdict) instead.
 */
static void
stats_gsl_quiet(void)
{
	static int done;

	if (!done) {
		gsl_set_error_handler_off();
		done = 1;
	}
}

/*
 * Is the change from a to b smaller than STATS_SAME_REL of their magnitude?
 * Such a change is rounding, not a difference between kernels: it is
 * reported as no change and never tested.
 */
int
stats_same(double a, double b)
{
	double scale = fmax(fabs(a), fabs(b));

	if (a == b)
		return (1);
	if (!isfinite(a) || !isfinite(b))
		return (0);
	return (fabs(a - b) <= STATS_SAME_REL * scale);
}

/*
 * Mean, sample stddev, range and the level (e.g. 0.95) confidence interval.
 * The sums are taken relative to the first value, so a group whose values
 * are all equal has exactly that value as its mean and a zero stddev.
 */
void
stats_describe(const double *x, int n, double level, struct stats_desc *d)
{
	double sum = 0, ss = 0, half;
	int i;

	d->n = n;
	d->mean = d->stddev = d->min = d->max = NAN;
	d->ci_low = d->ci_high = NAN;
	if (n <= 0)
		return;
	d->min = d->max = x[0];
	for (i = 0; i < n; i++) {
		sum += x[i] - x[0];
		if (x[i] < d->min)
			d->min = x[i];
		if (x[i] > d->max)
			d->max = x[i];
	}
	d->mean = x[0] + sum / n;
	if (d->mean < d->min)
		d->mean = d->min;
	if (d->mean > d->max)
		d->mean = d->max;
	if (n < 2)
		return;
	if (d->min == d->max) {
		d->stddev = 0;
		d->ci_low = d->ci_high = d->mean;
		return;
	}
	for (i = 0; i < n; i++)
		ss += (x[i] - d->mean) * (x[i] - d->mean);
	d->stddev = sqrt(ss / (n - 1));
	stats_gsl_quiet();
	half = gsl_cdf_tdist_Pinv(0.5 + level / 2, n - 1) * d->stddev /
	    sqrt(n);
	d->ci_low = d->mean - half;
	d->ci_high = d->mean + half;
}

/*
 * Welch's two-sided t-test with Welch-Satterthwaite degrees of freedom.
 * Two constant groups give p = 1 when equal (stats_same) and p = 0 when not
 * (the limit of the test as the variance vanishes).  Returns -1 when a group has fewer
 * than two values.
 */
int
stats_welch(const double *a, int na, const double *b, int nb, double *t,
    double *df, double *p)
{
	struct stats_desc da, db;
	double va, vb, se2;
	int same;

	if (na < 2 || nb < 2)
		return (-1);
	stats_describe(a, na, 0.95, &da);
	stats_describe(b, nb, 0.95, &db);
	va = da.stddev * da.stddev / na;
	vb = db.stddev * db.stddev / nb;
	se2 = va + vb;
	if (se2 == 0) {
		same = stats_same(da.mean, db.mean);
		*t = same ? 0 : (db.mean > da.mean ? INFINITY : -INFINITY);
		*df = na + nb - 2;
		*p = same ? 1.0 : 0.0;
		return (0);
	}
	*t = (db.mean - da.mean) / sqrt(se2);
	*df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
	/* A NaN or infinite value in a group gives no test, not a verdict. */
	if (!isfinite(*t) || !isfinite(*df) || *df <= 0)
		return (-1);
	stats_gsl_quiet();
	*p = 2 * gsl_cdf_tdist_Q(fabs(*t), *df);
	if (*p > 1)
		*p = 1;
	return (0);
}

static double	mw_exact_sf(int m, int n, int k);

/*
 * The difference of the means of b and a (b - a), its standard error and
 * Welch-Satterthwaite degrees of freedom, for confidence bounds of a
 * change.  Two constant groups have se 0 and df na + nb - 2.  Returns -1
 * when a group has fewer than two values or a figure is not finite.
 */
int
stats_welch_diff(const double *a, int na, const double *b, int nb,
    double *diff, double *se, double *df)
{
	struct stats_desc da, db;
	double va, vb;

	if (na < 2 || nb < 2)
		return (-1);
	stats_describe(a, na, 0.95, &da);
	stats_describe(b, nb, 0.95, &db);
	va = da.stddev * da.stddev / na;
	vb = db.stddev * db.stddev / nb;
	*diff = db.mean - da.mean;
	*se = sqrt(va + vb);
	if (*se == 0)
		*df = na + nb - 2;
	else
		*df = (va + vb) * (va + vb) / (va * va / (na - 1) +
		    vb * vb / (nb - 1));
	if (!isfinite(*diff) || !isfinite(*se) || !isfinite(*df) || *df <= 0)
		return (-1);
	return (0);
}

/* Sort helper for doubles. */
static int
double_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a < b ? -1 : a > b ? 1 : 0);
}

/*
 * One-sided confidence bounds at level 1 - alpha each for the shift of b
 * against a that goes with the Mann-Whitney test (Hodges-Lehmann): the
 * k-th smallest and k-th largest of the na * nb differences b_j - a_i,
 * with k the largest count for which P(U <= k - 1) < alpha under the null
 * hypothesis (exact up to STATS_MW_EXACT_MAX values a group, else the
 * normal approximation).  When no k reaches alpha at these group sizes
 * (3 against 3: P(U <= 0) = 0.05) the bounds are -inf and +inf: the test
 * cannot tell.  Returns -1 when a group has fewer than two values.
 */
int
stats_mw_shift_bounds(const double *a, int na, const double *b, int nb,
    double alpha, double *lo, double *hi)
{
	double *d, z;
	int i, j, k, n = na * nb;

	if (na < 2 || nb < 2)
		return (-1);
	*lo = -INFINITY;
	*hi = INFINITY;
	if (na <= STATS_MW_EXACT_MAX && nb <= STATS_MW_EXACT_MAX) {
		/* P(U <= k - 1) = P(U >= n - k + 1), by symmetry. */
		for (k = 0; k < n / 2 + 1 &&
		    mw_exact_sf(na, nb, n - k) < alpha; k++)
			;
	} else {
		stats_gsl_quiet();
		z = gsl_cdf_ugaussian_Qinv(alpha);
		k = (int)floor(n / 2.0 - z * sqrt(na * (double)nb *
		    (na + nb + 1) / 12));
	}
	if (k < 1)
		return (0);
	d = xcalloc(n, sizeof *d);
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];
	qsort(d, n, sizeof *d, double_cmp);
	*lo = d[k - 1];
	*hi = d[n - k];
	free(d);
	return (0);
}

/* One value and the group it came from, for ranking. */
struct ranked {
	double	 v;
	int	 from_a;
};

/* Sort helper for ranking. */
static int
ranked_cmp(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v;
	double b = ((const struct ranked *)y)->v;

	return (a < b ? -1 : a > b ? 1 : 0);
}

/*
 * P(U >= k) for U of a group of m values against a group of n under the
 * null hypothesis, ties ignored: the share of the C(m + n, m) orderings of
 * the two groups in which k or more (a, b) pairs have a above b.  The
 * counts follow N(i, j, u) = N(i - 1, j, u - j) + N(i, j - 1, u) (the largest
 * value is either an a, above all j b's, or a b); they stay below
 * C(40, 20) < 2^53 for groups of up to STATS_MW_EXACT_MAX, so doubles hold
 * them exactly.
 */
static double
mw_exact_sf(int m, int n, int k)
{
	double *prev, *cur, *swap, count = 0;
	int i, j, u, width = m * n + 1;

	if (k <= 0)
		return (1.0);
	if (k > m * n)
		return (0.0);
	prev = xcalloc((size_t)(n + 1) * width, sizeof *prev);
	cur = xcalloc((size_t)(n + 1) * width, sizeof *cur);
	for (j = 0; j <= n; j++)
		prev[j * width] = 1;	/* i = 0: one ordering, U = 0 */
	for (i = 1; i <= m; i++) {
		memset(cur, 0, (size_t)(n + 1) * width * sizeof *cur);
		cur[0] = 1;		/* j = 0 */
		for (j = 1; j <= n; j++) {
			for (u = 0; u <= i * j; u++) {
				cur[j * width + u] = cur[(j - 1) * width + u];
				if (u >= j)
					cur[j * width + u] +=
					    prev[j * width + u - j];
			}
		}
		swap = prev;
		prev = cur;
		cur = swap;
	}
	for (u = k; u < width; u++)
		count += prev[n * width + u];
	free(prev);
	free(cur);
	return (count / gsl_sf_choose(m + n, m));
}

/*
 * Two-sided Mann-Whitney U test, as scipy.stats.mannwhitneyu: with groups
 * of at most STATS_MW_EXACT_MAX values each, the exact distribution of U
 * (method="exact": p = 2 P(U >= floor(max(U1, U2))), ties ignored by the
 * distribution, capped at 1; values equal within STATS_SAME_REL are ties,
 * where SciPy's figures come from values equal to the last bit); larger
 * groups use the normal approximation with tie and continuity correction
 * (method="asymptotic").  *u is U of group a.  Returns -1 when a group has
 * fewer than two values.
 */
int
stats_mann_whitney(const double *a, int na, const double *b, int nb,
    double *u, double *p)
{
	struct ranked *all;
	double ra = 0, ties = 0, n, mu, var, z, umax;
	int i, j, k, tot = na + nb;

	if (na < 2 || nb < 2)
		return (-1);
	all = xcalloc(tot, sizeof *all);
	for (i = 0; i < na; i++) {
		all[i].v = a[i];
		all[i].from_a = 1;
	}
	for (i = 0; i < nb; i++)
		all[na + i].v = b[i];
	qsort(all, tot, sizeof *all, ranked_cmp);
	for (i = 0; i < tot; i = j) {
		/*
		 * Values within STATS_SAME_REL of the block's smallest are
		 * ties: run means of the same figures summed in another order
		 * differ in the last bits, and a 1-ULP difference is no rank.
		 */
		for (j = i + 1; j < tot && stats_same(all[i].v, all[j].v); j++)
			;
		/* Tied values share the mean of ranks i+1 .. j. */
		for (k = i; k < j; k++)
			if (all[k].from_a)
				ra += (i + 1 + j) / 2.0;
		ties += (double)(j - i) * (j - i) * (j - i) - (j - i);
	}
	free(all);
	n = tot;
	*u = ra - na * (na + 1) / 2.0;
	if (na <= STATS_MW_EXACT_MAX && nb <= STATS_MW_EXACT_MAX) {
		umax = fmax(*u, (double)na * nb - *u);
		*p = 2 * mw_exact_sf(na, nb, (int)floor(umax));
		if (*p > 1)
			*p = 1;
		return (0);
	}
	mu = na * (double)nb / 2;
	var = na * (double)nb / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (var <= 0) {
		*p = 1.0;
		return (0);
	}
	z = (fabs(*u - mu) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	*p = 2 * gsl_cdf_ugaussian_Q(z);
	if (*p > 1)
		*p = 1;
	return (0);
}

/*
 * Holm's step-down adjustment of m p-values tested together: sorted
 * ascending, the i-th smallest (from 0) is multiplied by m - i, each
 * adjusted value is at least the one before it, and none exceeds 1.  An
 * adjusted p below alpha rejects at a family-wise error rate of alpha,
 * whatever the dependence between the tests; with one rule's alpha it is
 * Holm's procedure exactly.  adjusted[] is in the order of p[]; every p
 * must be a number (a test that was not run is not in the family).
 */
void
stats_holm(const double *p, int m, double *adjusted)
{
	size_t *order;
	double running = 0, v;
	int i;

	if (m <= 0)
		return;
	order = xcalloc(m, sizeof *order);
	gsl_sort_index(order, p, 1, m);
	for (i = 0; i < m; i++) {
		v = p[order[i]] * (m - i);
		if (v > running)
			running = v;
		adjusted[order[i]] = running < 1 ? running : 1;
	}
	free(order);
}
