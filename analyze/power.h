/*
 * The power model of analyze --power-model: DRAM power per GiB on, in
 * self-refresh and powered down, read from an INI file, turned into
 * clearly labelled estimates of what empty regions (and, with DAMON's
 * references, idle ones) could save.  A model, not a measurement.
 */
#ifndef RB_POWER_H
#define RB_POWER_H

#include "metrics.h"

/* Twice self-refresh when the file gives no on_mw_per_gib (metrics.md). */
#define POWER_ON_DEFAULT_FACTOR	2.0

struct power_model {
	double	 on_mw_per_gib;
	double	 self_refresh_mw_per_gib;
	double	 powered_down_mw_per_gib;
};

int	 power_model_load(const char *path, struct power_model *pm,
	     char **cause);
void	 power_summarize(const struct results *res, const struct metrics *m,
	     const struct power_model *pm, struct summary *sum);

#endif
