/*
 * The statistics between groups of runs: a key's values in a group (one
 * per run, or per boot with the runs of a boot averaged), their means,
 * arithmetic or harmonic, and the test of a group against the baseline.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "log.h"

/* The values of one key in a group's runs (runs lacking it are skipped). */
int
compare_values(const struct compare_group *g, const struct compare_key *key,
    double *out)
{
	const struct compare_run *run;
	const struct summary_row *row;
	int i, j, n = 0;

	for (i = 0; i < g->nruns; i++) {
		run = g->runs[i];
		for (j = 0; j < run->sum.n; j++) {
			row = &run->sum.rows[j];
			/* NaN: the run has no such figure (a source that
			 * cannot tell), not a value to average. */
			if (strcmp(row->metric, key->metric) == 0 &&
			    strcmp(run->phases[row->phase], key->phase) == 0) {
				if (!isnan(row->value))
					out[n++] = row->value;
				break;
			}
		}
	}
	return (n);
}

/*
 * Clamp a cell's confidence interval to what its key can be: a count of
 * regions, pages, bytes or samples is never negative, a count of regions
 * never above the most regions a run of the group has, and a share lies
 * within 0 and 1.  A t-interval of a few skewed counts reaches beyond
 * both ([-2.0, 18.7] regions); the mean and the test are untouched.
 */
static void
compare_clamp(const struct compare_group *g, const struct compare_key *key,
    struct compare_cell *cell)
{
	static const char *const counts[] = { "regions", "pages", "bytes",
	    "samples", "overruns" };
	double lo = NAN, hi = NAN;
	size_t i;
	int r, most = 0;

	for (i = 0; i < sizeof counts / sizeof counts[0]; i++)
		if (strcmp(key->unit, counts[i]) == 0)
			lo = 0;
	if (strcmp(key->unit, "regions") == 0) {
		for (r = 0; r < g->nruns; r++)
			if (g->runs[r]->nregions > most)
				most = g->runs[r]->nregions;
		if (most > 0)
			hi = most;
	}
	if (strcmp(key->unit, "ratio") == 0 && strstr(key->metric, "share") !=
	    NULL) {
		lo = 0;
		hi = 1;
	}
	if (!isnan(lo) && cell->desc.ci_low < lo)
		cell->desc.ci_low = lo;
	if (!isnan(hi) && cell->desc.ci_high > hi)
		cell->desc.ci_high = hi;
}

/*
 * Describe a group for one key, one value per set->unit, and test it
 * against the baseline group.  A change smaller than STATS_SAME_REL of the
 * values is no change: its change_pct is 0 and no test is run, so rounding
 * is never significant.  The interval is clamped to the key's possible
 * range (compare_clamp).
 */
void
compare_cell(const struct compare_set *set, int base, int group,
    const struct compare_key *key, enum compare_test test, double alpha,
    struct compare_cell *cell)
{
	const struct compare_group *gb = &set->groups[base];
	const struct compare_group *gg = &set->groups[group];
	double *vb, *vg;
	int nb, ng;

	vb = xcalloc(gb->nruns + 1, sizeof *vb);
	vg = xcalloc(gg->nruns + 1, sizeof *vg);
	nb = compare_unit_values(gb, key, set->unit, 0, vb);
	ng = compare_unit_values(gg, key, set->unit, 0, vg);
	compare_cell_values(vb, nb, vg, ng, group == base, test, alpha, cell);
	compare_clamp(gg, key, cell);
	free(vb);
	free(vg);
}

/*
 * compare_cell with harmonic means (for rates): the test runs on the
 * reciprocals of the values, and desc.mean is the harmonic mean, the
 * reciprocal of their mean (the other statistics stay those of the
 * reciprocals' group, so callers print the mean only).  Returns -1, cell
 * untouched, when a value is not positive.
 */
int
compare_cell_harmonic(const struct compare_set *set, int base, int group,
    const struct compare_key *key, enum compare_test test, double alpha,
    struct compare_cell *cell)
{
	const struct compare_group *gb = &set->groups[base];
	const struct compare_group *gg = &set->groups[group];
	struct compare_cell c;
	double *vb, *vg, bmean;
	int nb, ng, i, rc = -1;

	vb = xcalloc(gb->nruns + 1, sizeof *vb);
	vg = xcalloc(gg->nruns + 1, sizeof *vg);
	nb = compare_unit_values(gb, key, set->unit, 1, vb);
	ng = compare_unit_values(gg, key, set->unit, 1, vg);
	if (nb > 0 && ng > 0) {
		compare_cell_values(vb, nb, vg, ng, group == base, test,
		    alpha, &c);
		for (bmean = 0, i = 0; i < nb; i++)
			bmean += vb[i];
		bmean = nb / bmean;
		c.desc.mean = 1 / c.desc.mean;
		if (!c.unchanged)
			c.change_pct = (c.desc.mean - bmean) / bmean * 100;
		*cell = c;
		rc = 0;
	}
	free(vb);
	free(vg);
	return (rc);
}

/*
 * The values of one key in a group, one per unit: per run, or per boot
 * (the mean of the runs that share a boot id; a run without one is its own
 * boot).  With reciprocal set each run's value is replaced by 1/value
 * before boots are averaged (for harmonic means).  Returns the number of
 * values, or -1 when reciprocal meets a value that is not positive.
 */
int
compare_unit_values(const struct compare_group *g,
    const struct compare_key *key, enum compare_unit unit, int reciprocal,
    double *out)
{
	const struct compare_run *run;
	const struct summary_row *row;
	const char **boot;
	double *sum, v;
	int *count, i, j, b, n = 0;

	boot = xcalloc(g->nruns + 1, sizeof *boot);
	sum = xcalloc(g->nruns + 1, sizeof *sum);
	count = xcalloc(g->nruns + 1, sizeof *count);
	for (i = 0; i < g->nruns; i++) {
		run = g->runs[i];
		for (j = 0; j < run->sum.n; j++) {
			row = &run->sum.rows[j];
			if (strcmp(row->metric, key->metric) == 0 &&
			    strcmp(run->phases[row->phase], key->phase) == 0)
				break;
		}
		if (j == run->sum.n || isnan(run->sum.rows[j].value))
			continue;
		v = run->sum.rows[j].value;
		if (reciprocal) {
			if (!(v > 0) || !isfinite(v)) {
				n = -1;
				break;
			}
			v = 1 / v;
		}
		b = n;
		if (unit == COMPARE_UNIT_BOOT && run->boot_id != NULL) {
			for (b = 0; b < n; b++)
				if (boot[b] != NULL &&
				    strcmp(boot[b], run->boot_id) == 0)
					break;
		}
		if (b == n) {
			boot[n] = unit == COMPARE_UNIT_BOOT ? run->boot_id :
			    NULL;
			n++;
		}
		sum[b] += v;
		count[b]++;
		/* Keep one run's value exact (stats_describe's rule). */
		out[b] = count[b] == 1 ? v : sum[b] / count[b];
	}
	free(boot);
	free(sum);
	free(count);
	return (n);
}

/*
 * The boots of a group's runs; *unknown counts runs without a boot id
 * (each counted as its own boot).
 */
int
compare_boots(const struct compare_group *g, int *unknown)
{
	int i, j, n = 0;

	*unknown = 0;
	for (i = 0; i < g->nruns; i++) {
		if (g->runs[i]->boot_id == NULL) {
			(*unknown)++;
			n++;
			continue;
		}
		for (j = 0; j < i; j++)
			if (g->runs[j]->boot_id != NULL &&
			    strcmp(g->runs[j]->boot_id, g->runs[i]->boot_id) ==
			    0)
				break;
		if (j == i)
			n++;
	}
	return (n);
}

/*
 * One sentence on what a value is: the unit of replication and, per
 * group, how many runs in how many boots.
 */
char *
compare_unit_note(const struct compare_set *set)
{
	char *text, *old;
	int g, boots, unknown;

	if (set->unit == COMPARE_UNIT_BOOT)
		text = xstrdup("unit: boot (runs repeated within one boot are "
		    "averaged to one value; --unit run counts each run)");
	else
		text = xstrdup("unit: run (each run counts as an independent "
		    "value, also runs repeated within one boot)");
	for (g = 0; g < set->ngroups; g++) {
		boots = compare_boots(&set->groups[g], &unknown);
		old = text;
		text = xasprintf("%s%s %s: %d run%s in %d boot%s", old,
		    g == 0 ? ";" : ",", set->groups[g].name,
		    set->groups[g].nruns, set->groups[g].nruns == 1 ? "" : "s",
		    boots, boots == 1 ? "" : "s");
		free(old);
		if (unknown > 0) {
			old = text;
			text = xasprintf("%s (%d without a boot id, each its "
			    "own boot)", old, unknown);
			free(old);
		}
	}
	return (text);
}

/*
 * compare_cell on values: vg (ng of them) against the baseline vb; self is
 * set when they are the baseline itself (described, never tested).
 */
void
compare_cell_values(const double *vb, int nb, const double *vg, int ng,
    int self, enum compare_test test, double alpha, struct compare_cell *cell)
{
	struct stats_desc db;
	double t, df, u;
	int rc;

	stats_describe(vg, ng, 0.95, &cell->desc);
	stats_describe(vb, nb, 0.95, &db);
	cell->change_pct = NAN;
	cell->unchanged = nb > 0 && ng > 0 && stats_same(db.mean,
	    cell->desc.mean);
	if (cell->unchanged)
		cell->change_pct = 0;
	else if (nb > 0 && ng > 0 && db.mean != 0)
		cell->change_pct = (cell->desc.mean - db.mean) /
		    fabs(db.mean) * 100;
	cell->p = NAN;
	cell->tested = 0;
	cell->significant = 0;
	if (self || cell->unchanged)
		return;
	if (test == COMPARE_MANN_WHITNEY)
		rc = stats_mann_whitney(vb, nb, vg, ng, &u, &cell->p);
	else
		rc = stats_welch(vb, nb, vg, ng, &t, &df, &cell->p);
	if (rc == 0) {
		cell->tested = 1;
		cell->significant = cell->p < alpha;
	}
}
