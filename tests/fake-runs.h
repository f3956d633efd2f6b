/*
 * Sets of runs made in memory for the compare and gate tests: each run is
 * what compare_load_run leaves of a results directory (its identity and
 * its summary rows), so every value a test compares is known exactly.
 * Every run has the phases fill and drain; compare_free releases a set.
 */
#ifndef RB_FAKE_RUNS_H
#define RB_FAKE_RUNS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "log.h"

/* One run called dir, from host testhost with 256 MiB regions. */
static inline struct compare_run *
fake_run(const char *dir, const char *label)
{
	struct compare_run *run = xcalloc(1, sizeof *run);

	run->dir = xstrdup(dir);
	run->label = xstrdup(label);
	run->host = xstrdup("testhost");
	run->kernel_release = xstrdup("6.18.0");
	run->source = xstrdup("kpageflags");
	run->page_size = 4096;
	run->region_size_bytes = 256 << 20;
	run->nregions = 8;
	run->nphases = 2;
	run->phases = xcalloc(3, sizeof *run->phases);
	run->phases[0] = xstrdup("fill");
	run->phases[1] = xstrdup("drain");
	return (run);
}

/* A new group name of nruns runs (called name-1, name-2, ...). */
static inline struct compare_group *
fake_group(struct compare_set *set, const char *name, int nruns)
{
	struct compare_group *g;
	struct compare_run *run;
	char dir[64];
	int i;

	set->groups = xreallocarray(set->groups, set->ngroups + 1,
	    sizeof *set->groups);
	g = &set->groups[set->ngroups++];
	memset(g, 0, sizeof *g);
	g->name = xstrdup(name);
	for (i = 0; i < nruns; i++) {
		snprintf(dir, sizeof dir, "%s-%d", name, i + 1);
		run = fake_run(dir, name);
		set->runs = xreallocarray(set->runs, set->nruns + 1,
		    sizeof *set->runs);
		set->runs[set->nruns++] = run;
		g->runs = xreallocarray(g->runs, g->nruns + 1,
		    sizeof *g->runs);
		g->runs[g->nruns++] = run;
	}
	return (g);
}

/*
 * Give run i of group g the value v[i] of phase/metric (NAN: the run lacks
 * it), and add the key to the set when it is new.  phase, metric and unit
 * must outlive the set (string literals).
 */
static inline void
fake_values(struct compare_set *set, int group, const char *phase,
    const char *metric, const char *unit, const double *v)
{
	struct compare_group *g = &set->groups[group];
	struct compare_run *run;
	struct summary_row *row;
	struct compare_key *k;
	int i;

	for (i = 0; i < g->nruns; i++) {
		if (isnan(v[i]))
			continue;
		run = g->runs[i];
		run->sum.rows = xreallocarray(run->sum.rows, run->sum.n + 1,
		    sizeof *run->sum.rows);
		row = &run->sum.rows[run->sum.n++];
		row->phase = strcmp(phase, "fill") == 0 ? 0 : 1;
		row->metric = xstrdup(metric);
		row->value = v[i];
		row->unit = xstrdup(unit);
		row->headline = 1;
	}
	for (i = 0; i < set->nkeys; i++) {
		if (strcmp(set->keys[i].phase, phase) == 0 &&
		    strcmp(set->keys[i].metric, metric) == 0)
			return;
	}
	set->keys = xreallocarray(set->keys, set->nkeys + 1,
	    sizeof *set->keys);
	k = &set->keys[set->nkeys++];
	k->phase = phase;
	k->metric = metric;
	k->unit = unit;
	k->headline = 1;
}

#endif
