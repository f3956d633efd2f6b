/*
 * Descriptive statistics and two-sample tests over small groups of runs
 * (typically 3 to 10 repetitions).  GSL provides the t and normal
 * distributions; a test returns -1 instead of a p-value when the groups are
 * too small for it, so no caller can print a made-up one.
 */
#include "config.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "stats.h"

/* Mean, sample stddev, range and the level (e.g. 0.95) confidence interval. */
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
		sum += x[i];
		if (x[i] < d->min)
			d->min = x[i];
		if (x[i] > d->max)
			d->max = x[i];
	}
	d->mean = sum / n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (x[i] - d->mean) * (x[i] - d->mean);
	d->stddev = sqrt(ss / (n - 1));
	half = gsl_cdf_tdist_Pinv(0.5 + level / 2, n - 1) * d->stddev /
	    sqrt(n);
	d->ci_low = d->mean - half;
	d->ci_high = d->mean + half;
}

/*
 * Welch's two-sided t-test with Welch-Satterthwaite degrees of freedom.
 * Two constant groups give p = 1 when equal and p = 0 when not (the limit
 * of the test as the variance vanishes).  Returns -1 when a group has fewer
 * than two values.
 */
int
stats_welch(const double *a, int na, const double *b, int nb, double *t,
    double *df, double *p)
{
	struct stats_desc da, db;
	double va, vb, se2;

	if (na < 2 || nb < 2)
		return (-1);
	stats_describe(a, na, 0.95, &da);
	stats_describe(b, nb, 0.95, &db);
	va = da.stddev * da.stddev / na;
	vb = db.stddev * db.stddev / nb;
	se2 = va + vb;
	if (se2 == 0) {
		*t = da.mean == db.mean ? 0 : (db.mean > da.mean ? INFINITY :
		    -INFINITY);
		*df = na + nb - 2;
		*p = da.mean == db.mean ? 1.0 : 0.0;
		return (0);
	}
	*t = (db.mean - da.mean) / sqrt(se2);
	*df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
	*p = 2 * gsl_cdf_tdist_Q(fabs(*t), *df);
	if (*p > 1)
		*p = 1;
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
 * Two-sided Mann-Whitney U test, normal approximation with tie correction
 * and continuity correction (as scipy.stats.mannwhitneyu with
 * method="asymptotic").  *u is U of group a.  Returns -1 when a group has
 * fewer than two values.
 */
int
stats_mann_whitney(const double *a, int na, const double *b, int nb,
    double *u, double *p)
{
	struct ranked *all;
	double ra = 0, ties = 0, n, mu, var, z;
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
		for (j = i + 1; j < tot && all[j].v == all[i].v; j++)
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
