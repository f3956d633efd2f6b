/*
 * How far the data of one phase can be trusted: samples the sampler
 * missed, the longest wait between two samples and how far the kpageflags
 * counts strayed from zoneinfo.  summary.csv carries the figures
 * (data_quality.*), analyze and run print them when they are not clean,
 * the report shows them and gate refuses to judge runs beyond its limits.
 */
#ifndef RB_QUALITY_H
#define RB_QUALITY_H

#include <stddef.h>

#include "metric-list.h"
#include "results.h"

/* Their names in summary.csv, from METRIC_LIST. */
#define QUALITY_OVERRUNS	METRIC_NAME(QUALITY_OVERRUNS)
#define QUALITY_MAX_GAP		METRIC_NAME(QUALITY_MAX_GAP)
#define QUALITY_KPF_ERROR	METRIC_NAME(QUALITY_KPF_ERROR)
#define QUALITY_MAX_COUNT_AGE	METRIC_NAME(QUALITY_MAX_COUNT_AGE)

/* The data-quality figures of one phase; NAN: unknown. */
struct quality {
	double		 overruns;	/* overrun events */
	double		 max_gap_s;	/* NAN with fewer than 2 samples */
	double		 kpf_error;	/* NAN unless the kpageflags source */
	/* The oldest exact count a sample used (scans in rotation); 0: none */
	double		 max_count_age_s;
};

void	 quality_phase(const struct results *res, int phase,
	     struct quality *q);
int	 quality_clean(const struct quality *q, double interval_s);
void	 quality_text(char *buf, size_t len, const struct quality *q);
double	 quality_kpf_error(const char *detail);

#endif
