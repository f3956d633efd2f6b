/*
 * The power model: an INI file with one [power] section giving the power
 * per GiB of memory on, in self-refresh and powered down, and the
 * summary rows it yields per phase: the share of memory that could be
 * powered down and the saving in mW (two states: empty regions powered
 * down rather than kept in self-refresh), and with DAMON's references the
 * three-state figures (idle allocated regions in self-refresh, empty ones
 * off, rather than everything on).  Every figure it adds is named
 * power_model.* so that no table mistakes it for a measurement.
 */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input-file.h"
#include "log.h"
#include "power.h"

/* What the INI handler has seen so far. */
struct power_parse {
	struct power_model	*pm;
	int			 have_on;
	int			 have_self_refresh;
	int			 have_powered_down;
	char			*bad;
};

/* inih handler for the power model. */
static int
power_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct power_parse *pp = user;
	double *target;
	char *end;

	if (strcmp(section, "power") != 0)
		goto bad;
	if (strcmp(name, "on_mw_per_gib") == 0) {
		target = &pp->pm->on_mw_per_gib;
		pp->have_on = 1;
	} else if (strcmp(name, "self_refresh_mw_per_gib") == 0) {
		target = &pp->pm->self_refresh_mw_per_gib;
		pp->have_self_refresh = 1;
	} else if (strcmp(name, "powered_down_mw_per_gib") == 0) {
		target = &pp->pm->powered_down_mw_per_gib;
		pp->have_powered_down = 1;
	} else
		goto bad;
	*target = strtod(value, &end);
	if (end == value || *end != '\0' || !isfinite(*target) ||
	    *target < 0)
		goto bad;
	return (1);
bad:
	if (pp->bad == NULL)
		pp->bad = xasprintf("expected [power] with "
		    "self_refresh_mw_per_gib, powered_down_mw_per_gib and "
		    "optionally on_mw_per_gib (non-negative numbers), got "
		    "%s = %s", name, value);
	return (0);
}

/* Load the power model from an INI file; -RB_EXIT_INPUT with a cause. */
int
power_model_load(const char *path, struct power_model *pm, char **cause)
{
	struct power_parse pp;
	FILE *f;
	int rc;

	memset(pm, 0, sizeof *pm);
	memset(&pp, 0, sizeof pp);
	pp.pm = pm;
	if ((f = input_fopen(path, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	rc = ini_parse_file(f, power_handler, &pp);
	fclose(f);
	if (rc != 0)
		rc = fail_with(cause, RB_EXIT_INPUT, "%s:%d: %s", path, rc,
		    pp.bad != NULL ? pp.bad : "expected key = value");
	else if (!pp.have_self_refresh || !pp.have_powered_down)
		rc = fail_with(cause, RB_EXIT_INPUT, "%s: [power] needs both "
		    "self_refresh_mw_per_gib and powered_down_mw_per_gib",
		    path);
	else if (pm->powered_down_mw_per_gib > pm->self_refresh_mw_per_gib)
		rc = fail_with(cause, RB_EXIT_INPUT, "%s: "
		    "powered_down_mw_per_gib is larger than "
		    "self_refresh_mw_per_gib", path);
	else if (pp.have_on &&
	    pm->on_mw_per_gib < pm->self_refresh_mw_per_gib)
		rc = fail_with(cause, RB_EXIT_INPUT, "%s: on_mw_per_gib is "
		    "smaller than self_refresh_mw_per_gib", path);
	/* Most files give refresh figures only: on is a stated guess. */
	if (rc == 0 && !pp.have_on)
		pm->on_mw_per_gib = POWER_ON_DEFAULT_FACTOR *
		    pm->self_refresh_mw_per_gib;
	free(pp.bad);
	return (rc);
}

/* Mean present bytes of phase p over its samples (0 when it has none). */
static double
power_present_bytes(const struct results *res, int p)
{
	double total = 0;
	int s, r, n = 0;

	for (s = 0; s < res->samples.n; s++) {
		if (res->samples.phase[s] != p)
			continue;
		for (r = 0; r < res->nregions; r++)
			total += res->present[(size_t)s * res->nregions + r];
		n++;
	}
	return (n > 0 ? total / n * res->page_size : 0);
}

/*
 * The three-state rows of phase p, when the run has DAMON's references:
 * the share of the classified memory that could be in self-refresh
 * (allocated, not referenced), and the power saved by putting it there
 * and the empty memory off, against keeping all of it on.  Time-weighted
 * bytes of each state, over the samples that had a reading to join.
 */
static void
power_three_states(const struct metrics *m, const struct power_model *pm,
    int p, struct summary *sum)
{
	static const enum metric_id ids[3] = {
		METRIC_STATE_ON_BYTES, METRIC_STATE_SELF_REFRESH_BYTES,
		METRIC_STATE_OFF_BYTES
	};
	const double gib = 1024.0 * 1024 * 1024;
	const struct metric_series *s;
	struct metric_reduction red;
	double bytes[3], total = 0;
	int i;

	for (i = 0; i < 3; i++) {
		if ((s = metrics_find(m, metric_defs[ids[i]].name)) == NULL ||
		    metrics_reduce(m, s, p, &red) == 0)
			return;
		bytes[i] = red.twmean;
		total += red.twmean;
	}
	summary_add_metric(sum, p, METRIC_POWER_SELF_REFRESH_SHARE,
	    total > 0 ? bytes[1] / total : 0);
	summary_add_metric(sum, p, METRIC_POWER_THREE_STATE_SAVING_MW,
	    bytes[1] / gib * (pm->on_mw_per_gib -
	    pm->self_refresh_mw_per_gib) + bytes[2] / gib *
	    (pm->on_mw_per_gib - pm->powered_down_mw_per_gib));
}

/*
 * Append the model's rows per phase: the share of present memory that is
 * empty (could be powered down) and the refresh power that would save;
 * then, for runs with references, the three-state rows.
 */
void
power_summarize(const struct results *res, const struct metrics *m,
    const struct power_model *pm, struct summary *sum)
{
	const struct metric_series *empty = metrics_find(m,
	    METRIC_NAME(EMPTY_BYTES));
	struct metric_reduction red;
	double total, gib;
	int p;

	for (p = 0; p < res->nphases; p++) {
		if (metrics_reduce(m, empty, p, &red) == 0)
			continue;
		total = power_present_bytes(res, p);
		gib = red.twmean / (1024.0 * 1024 * 1024);
		summary_add_metric(sum, p, METRIC_POWER_POWERED_DOWN_SHARE,
		    total > 0 ? red.twmean / total : 0);
		summary_add_metric(sum, p, METRIC_POWER_SAVING_MW, gib *
		    (pm->self_refresh_mw_per_gib -
		    pm->powered_down_mw_per_gib));
		power_three_states(m, pm, p, sum);
	}
}
