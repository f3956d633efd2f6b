/*
 * Statistics for comparing groups of runs: description, Student-t
 * confidence intervals, Welch's t-test, the Mann-Whitney U test and Holm's
 * adjustment of p-values tested together.  The distributions come from
 * GSL; nothing here hand-rolls a special function.
 */
#ifndef RB_STATS_H
#define RB_STATS_H

/* Changes smaller than this, relative to the values, are no change. */
#define STATS_SAME_REL		1e-9

/* Mann-Whitney uses the exact distribution up to this many values a group. */
#define STATS_MW_EXACT_MAX	20

/* One group of values described. */
struct stats_desc {
	int		 n;
	double		 mean;
	double		 stddev;	/* n - 1; NAN when n < 2 */
	double		 min;
	double		 max;
	double		 ci_low;	/* Student t; NAN if n < 2 */
	double		 ci_high;
};

int	 stats_same(double a, double b);
void	 stats_describe(const double *x, int n, double level,
	     struct stats_desc *d);
int	 stats_welch(const double *a, int na, const double *b, int nb,
	     double *t, double *df, double *p);
int	 stats_welch_diff(const double *a, int na, const double *b, int nb,
	     double *diff, double *se, double *df);
int	 stats_mw_shift_bounds(const double *a, int na, const double *b,
	     int nb, double alpha, double *lo, double *hi);
int	 stats_mann_whitney(const double *a, int na, const double *b, int nb,
	     double *u, double *p);
void	 stats_holm(const double *p, int m, double *adjusted);

#endif
