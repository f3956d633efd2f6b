/*
 * The power model of analyze --power-model: DRAM refresh power per GiB in
 * self-refresh and powered down, read from an INI file, turned into
 * clearly labelled estimates of what empty regions could save.  A model,
 * not a measurement.
 */
#ifndef RB_POWER_H
#define RB_POWER_H

#include "metrics.h"

struct power_model {
	double	 self_refresh_mw_per_gib;
	double	 powered_down_mw_per_gib;
};

int	 power_model_load(const char *path, struct power_model *pm,
	     char **cause);
void	 power_summarize(const struct results *res, const struct metrics *m,
	     const struct power_model *pm, struct summary *sum);

#endif
