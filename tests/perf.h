/*
 * What the make perf benchmarks share.  Each prints key=value lines; a
 * figure is the median of its rounds, so one round disturbed by the
 * machine's other work does not move it.
 */
#ifndef RB_PERF_H
#define RB_PERF_H

#include <stddef.h>

#include <gsl/gsl_statistics_double.h>

/* The median of n values; reorders them. */
static inline double
perf_median(double *v, int n)
{
	return (gsl_stats_median(v, 1, (size_t)n));
}

#endif /* RB_PERF_H */
