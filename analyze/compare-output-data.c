/*
 * compare's two data formats, CSV and JSON: every key and every
 * statistic of every group, for programs rather than people.  The text
 * and markdown tables are compare-output.c.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare-output.h"
#include "compare-output-int.h"
#include "log.h"
#include "output.h"
#include "summary.h"

/* The better direction as JSON spells it. */
static json_t *
compare_json_better(const struct compare_key *k)
{
	switch (metrics_better(k->metric, k->unit)) {
	case METRICS_BETTER_LOWER:
		return (json_string("lower"));
	case METRICS_BETTER_HIGHER:
		return (json_string("higher"));
	default:
		return (json_null());
	}
}

/* One CSV row: a key for one group. */
static void
compare_csv_row(FILE *f, const struct compare_key *k, const char *group,
    const struct compare_cell *c)
{
	const double v[] = { c->desc.mean, c->desc.stddev, c->desc.min,
	    c->desc.max, c->desc.ci_low, c->desc.ci_high, c->change_pct };
	size_t i;

	output_csv_field(f, k->phase);
	fputc(',', f);
	output_csv_field(f, k->metric);
	fputc(',', f);
	output_csv_field(f, k->unit);
	fputc(',', f);
	output_csv_field(f, group);
	fprintf(f, ",%d", c->desc.n);
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		fputc(',', f);
		output_csv_number(f, v[i]);
	}
	fputc(',', f);
	if (c->tested)
		output_csv_number(f, c->p);
	fprintf(f, ",%s\n", c->tested ? (c->significant ? "1" : "0") :
	    c->unchanged ? "0" : "");
}

/* CSV: every key, one row per group. */
void
compare_print_csv(FILE *f, const struct compare_set *set,
    const struct compare_output *o)
{
	struct compare_cell c;
	int i, g;

	fprintf(f, "phase,metric,unit,group,n,mean,stddev,min,max,ci_low,"
	    "ci_high,change_pct,p_value,significant\n");
	for (i = 0; i < set->nkeys; i++) {
		for (g = 0; g < set->ngroups; g++) {
			compare_cell(set, o->base, g, &set->keys[i], o->test,
			    o->alpha, &c);
			compare_csv_row(f, &set->keys[i], set->groups[g].name,
			    &c);
		}
	}
}

/* JSON number or null. */
static json_t *
compare_json_num(double v)
{
	return (isfinite(v) ? json_real(v) : json_null());
}

/* JSON: one group's statistics for one key (h: its harmonic cell). */
static json_t *
compare_json_cell(const char *group, const struct compare_cell *c,
    const struct compare_cell *h)
{
	json_t *jc = json_object();

	json_object_set_new(jc, "group", json_string(group));
	json_object_set_new(jc, "n", json_integer(c->desc.n));
	json_object_set_new(jc, "mean", compare_json_num(c->desc.mean));
	json_object_set_new(jc, "stddev", compare_json_num(c->desc.stddev));
	json_object_set_new(jc, "min", compare_json_num(c->desc.min));
	json_object_set_new(jc, "max", compare_json_num(c->desc.max));
	json_object_set_new(jc, "ci_low", compare_json_num(c->desc.ci_low));
	json_object_set_new(jc, "ci_high", compare_json_num(c->desc.ci_high));
	json_object_set_new(jc, "change_pct", compare_json_num(c->change_pct));
	json_object_set_new(jc, "p_value", c->tested ?
	    compare_json_num(c->p) : json_null());
	json_object_set_new(jc, "significant", c->tested ?
	    json_boolean(c->significant) : c->unchanged ? json_false() :
	    json_null());
	json_object_set_new(jc, "hmean", h != NULL ?
	    compare_json_num(h->desc.mean) : json_null());
	json_object_set_new(jc, "hmean_change_pct", h != NULL ?
	    compare_json_num(h->change_pct) : json_null());
	return (jc);
}

/* JSON: the groups and the runs in each. */
static json_t *
compare_json_groups(const struct compare_set *set)
{
	json_t *groups = json_array(), *runs;
	int g, i;

	for (g = 0; g < set->ngroups; g++) {
		runs = json_array();
		for (i = 0; i < set->groups[g].nruns; i++)
			json_array_append_new(runs,
			    json_string(set->groups[g].runs[i]->dir));
		json_array_append_new(groups, json_pack("{s:s, s:o}", "name",
		    set->groups[g].name, "runs", runs));
	}
	return (groups);
}

/* JSON: everything, with the groups and notes. */
int
compare_print_json(FILE *f, const struct compare_set *set,
    const struct compare_output *o)
{
	json_t *root, *metrics, *jm, *cells;
	struct compare_cell *c, *hcells;
	int i, g, rc, harmonic;

	root = json_object();
	json_object_set_new(root, "baseline",
	    json_string(set->groups[o->base].name));
	json_object_set_new(root, "test",
	    json_string(compare_test_name(o->test)));
	json_object_set_new(root, "alpha", json_real(o->alpha));
	json_object_set_new(root, "differences", o->differences != NULL ?
	    json_string(o->differences) : json_null());
	json_object_set_new(root, "groups", compare_json_groups(set));
	/* The headline metrics the text shows, unless --all. */
	json_object_set_new(root, "metrics_shown", json_string(o->all ?
	    "all" : "headline"));
	metrics = json_array();
	c = xcalloc(set->ngroups, sizeof *c);
	hcells = xcalloc(set->ngroups, sizeof *hcells);
	for (i = 0; i < set->nkeys; i++) {
		for (g = 0; g < set->ngroups; g++)
			compare_cell(set, o->base, g, &set->keys[i], o->test,
			    o->alpha, &c[g]);
		if (!compare_key_shown(set, &set->keys[i], c, o->all))
			continue;
		harmonic = compare_harmonic_cells(set, o, &set->keys[i],
		    hcells);
		cells = json_array();
		for (g = 0; g < set->ngroups; g++)
			json_array_append_new(cells,
			    compare_json_cell(set->groups[g].name, &c[g],
			    harmonic ? &hcells[g] : NULL));
		jm = json_pack("{s:s, s:s, s:s, s:o, s:b, s:o}", "phase",
		    set->keys[i].phase, "metric", set->keys[i].metric, "unit",
		    set->keys[i].unit, "better",
		    compare_json_better(&set->keys[i]), "headline",
		    metrics_compare_shown(set->keys[i].metric,
		    set->keys[i].unit, set->keys[i].headline), "groups", cells);
		json_array_append_new(metrics, jm);
	}
	free(hcells);
	free(c);
	json_object_set_new(root, "metrics", metrics);
	json_object_set(root, "notes", o->notes);
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return (rc != 0 ? -1 : 0);
}

