/*
 * Load runs into groups (compare-cell.c computes the statistics between
 * them).  Each run is loaded, reduced to its summary and released again,
 * so comparing many hour-long runs needs the memory of one.
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "log.h"
#include "store.h"

/*
 * Of group g's runs, how many were made in regionbench vm guests and how
 * many of those had a kernel that reported a bug; returns the first such
 * run, NULL when none.
 */
const struct compare_run *
compare_group_guests(const struct compare_group *g, int *guests,
    int *reports)
{
	const struct compare_run *first = NULL;
	int i;

	*guests = *reports = 0;
	for (i = 0; i < g->nruns; i++) {
		*guests += g->runs[i]->guest;
		if (g->runs[i]->guest_kernel_report != NULL && (*reports)++ == 0)
			first = g->runs[i];
	}
	return (first);
}

/*
 * Append the runs a "db:key=value,..." selection names, from the database
 * at url (NULL: STORE_DEFAULT_URL).
 */
static int
compare_add_selection(struct compare_set *set, const char *text,
    const struct metrics_options *opt, const char *url,
    struct compare_run ***runs, int *nruns, char **cause)
{
	struct metrics_options dflt;
	struct store_selector sel;
	struct store *st;
	struct compare_run **found;
	char *old;
	int nfound, i, rc;

	if (opt == NULL) {
		metrics_options_default(&dflt);
		opt = &dflt;
	}
	if ((rc = store_selector_parse(text, &sel, cause)) != 0)
		return (rc);
	if ((rc = store_open(url != NULL ? url : STORE_DEFAULT_URL, 0, &st,
	    cause)) != 0) {
		store_selector_free(&sel);
		return (rc);
	}
	rc = store_select_runs(st, &sel, opt, &found, &nfound, cause);
	store_close(st);
	store_selector_free(&sel);
	if (rc != 0) {
		/* Say which of the selections it was. */
		if (cause != NULL && *cause != NULL) {
			old = *cause;
			*cause = xasprintf("%s: %s", text, old);
			free(old);
		}
		return (rc);
	}
	for (i = 0; i < nfound; i++) {
		set->runs = xreallocarray(set->runs, set->nruns + 1,
		    sizeof *set->runs);
		set->runs[set->nruns++] = found[i];
		*runs = xreallocarray(*runs, *nruns + 1, sizeof **runs);
		(*runs)[(*nruns)++] = found[i];
	}
	free(found);
	return (0);
}

/*
 * Load the runs PATH stands for and append them to set->runs and to *runs
 * (the group being built).
 */
int
compare_add_path(struct compare_set *set, const char *path,
    const struct metrics_options *opt, const char *db,
    struct compare_run ***runs, int *nruns, char **cause)
{
	struct compare_run *run;
	char **dirs;
	int ndirs, i, rc;

	if (strncmp(path, STORE_SELECTOR_PREFIX, 3) == 0)
		return (compare_add_selection(set, path, opt, db, runs, nruns,
		    cause));
	if ((rc = compare_run_dirs(path, &dirs, &ndirs, cause)) != 0)
		return (rc);
	for (i = 0; i < ndirs; i++) {
		if (rc == 0 && (rc = compare_load_run(dirs[i], opt, &run,
		    cause)) == 0) {
			set->runs = xreallocarray(set->runs, set->nruns + 1,
			    sizeof *set->runs);
			set->runs[set->nruns++] = run;
			*runs = xreallocarray(*runs, *nruns + 1,
			    sizeof **runs);
			(*runs)[(*nruns)++] = run;
		}
		free(dirs[i]);
	}
	free(dirs);
	return (rc);
}

/* The group called name, created when absent. */
static struct compare_group *
group_get(struct compare_set *set, const char *name)
{
	int i;

	for (i = 0; i < set->ngroups; i++) {
		if (strcmp(set->groups[i].name, name) == 0)
			return (&set->groups[i]);
	}
	set->groups = xreallocarray(set->groups, set->ngroups + 1,
	    sizeof *set->groups);
	memset(&set->groups[set->ngroups], 0, sizeof *set->groups);
	set->groups[set->ngroups].name = xstrdup(name);
	return (&set->groups[set->ngroups++]);
}

/* Last path component without trailing slashes, for group names. */
static char *
dir_name(const char *path)
{
	size_t len = strlen(path);
	const char *start;

	while (len > 1 && path[len - 1] == '/')
		len--;
	start = path + len;
	while (start > path && start[-1] != '/')
		start--;
	return (xstrndup(start, path + len - start));
}

/* Index of a (phase, metric) key, or -1. */
static int
key_find(const struct compare_set *set, const char *phase,
    const char *metric)
{
	int i;

	for (i = 0; i < set->nkeys; i++) {
		if (strcmp(set->keys[i].metric, metric) == 0 &&
		    strcmp(set->keys[i].phase, phase) == 0)
			return (i);
	}
	return (-1);
}

/* Collect every (phase, metric) in group order. */
static void
compare_build_keys(struct compare_set *set)
{
	const struct summary_row *row;
	struct compare_run *run;
	struct compare_key *k;
	int g, i, j;

	for (g = 0; g < set->ngroups; g++) {
		for (i = 0; i < set->groups[g].nruns; i++) {
			run = set->groups[g].runs[i];
			for (j = 0; j < run->sum.n; j++) {
				row = &run->sum.rows[j];
				if (key_find(set, run->phases[row->phase],
				    row->metric) >= 0)
					continue;
				set->keys = xreallocarray(set->keys,
				    set->nkeys + 1, sizeof *set->keys);
				k = &set->keys[set->nkeys++];
				k->phase = run->phases[row->phase];
				k->metric = row->metric;
				k->unit = row->unit;
				k->headline = row->headline;
			}
		}
	}
}

/*
 * Are two runs one: the same run_id, or (for runs written before run ids)
 * the same directory?
 */
static int
same_run(const struct compare_run *a, const struct compare_run *b)
{
	if (a->run_id != NULL && b->run_id != NULL)
		return (strcmp(a->run_id, b->run_id) == 0);
	return (a->real != NULL && b->real != NULL &&
	    strcmp(a->real, b->real) == 0);
}

/* A run's id for messages. */
static const char *
run_name(const struct compare_run *run)
{
	return (run->run_id != NULL ? run->run_id : "without run_id");
}

/*
 * Count each run of group g once: a run named twice (the same directory
 * or selection twice, overlapping selections, a copy of a directory) is
 * one run, not more evidence.  The copies are dropped with a warning that
 * names them.
 */
static void
compare_group_dedupe(struct compare_set *set, struct compare_group *g)
{
	struct compare_run *run;
	int i, j, kept = 0;

	for (i = 0; i < g->nruns; i++) {
		run = g->runs[i];
		for (j = 0; j < kept && !same_run(g->runs[j], run); j++)
			;
		if (j == kept) {
			g->runs[kept++] = run;
			continue;
		}
		log_warnx("%s: %s is the same run as %s (run_id %s): counted "
		    "once", g->name, run->dir, g->runs[j]->dir, run_name(run));
		for (j = 0; j < set->nruns && set->runs[j] != run; j++)
			;
		if (j < set->nruns) {
			memmove(set->runs + j, set->runs + j + 1,
			    (set->nruns - j - 1) * sizeof *set->runs);
			set->nruns--;
		}
		compare_run_release(run);
	}
	g->nruns = kept;
}

const char *const compare_group_by_names[] = { "dir", "label", "kernel", NULL };

/* Load every path and group the runs. */
int
compare_load(char **paths, int npaths, enum compare_group_by by,
    const struct metrics_options *opt, const char *db,
    struct compare_set **out, char **cause)
{
	struct compare_set *set = xcalloc(1, sizeof *set);
	struct compare_group *g;
	struct compare_run **runs = NULL;
	const char *name;
	char *base;
	int i, j, nruns, rc;

	for (i = 0; i < npaths; i++) {
		runs = NULL;
		nruns = 0;
		if ((rc = compare_add_path(set, paths[i], opt, db, &runs,
		    &nruns, cause)) != 0) {
			free(runs);
			compare_free(set);
			return (rc);
		}
		base = dir_name(paths[i]);
		/* Each argument is its own group: keep names apart. */
		if (by == COMPARE_BY_DIR && compare_find_group(set, base) >=
		    0) {
			free(base);
			base = xstrdup(paths[i]);
			while (compare_find_group(set, base) >= 0) {
				char *old = base;

				base = xasprintf("%s#%d", old, i + 1);
				free(old);
			}
		}
		for (j = 0; j < nruns; j++) {
			if (by == COMPARE_BY_LABEL)
				name = runs[j]->label[0] != '\0' ?
				    runs[j]->label : "(no label)";
			else if (by == COMPARE_BY_KERNEL)
				name = runs[j]->kernel_release;
			else
				name = base;
			g = group_get(set, name);
			g->runs = xreallocarray(g->runs, g->nruns + 1,
			    sizeof *g->runs);
			g->runs[g->nruns++] = runs[j];
		}
		free(base);
		free(runs);
	}
	for (i = 0; i < set->ngroups; i++)
		compare_group_dedupe(set, &set->groups[i]);
	compare_build_keys(set);
	*out = set;
	return (0);
}

/* Load a baseline and a candidate group (for gate). */
int
compare_load_two(char **base, int nbase, char **cand, int ncand,
    const struct metrics_options *opt, const char *db,
    struct compare_set **out, char **cause)
{
	struct compare_set *set = xcalloc(1, sizeof *set);
	struct compare_group *g;
	int i, j, rc;

	group_get(set, "baseline");
	group_get(set, "candidate");
	for (i = 0; i < nbase + ncand; i++) {
		g = &set->groups[i < nbase ? 0 : 1];
		if ((rc = compare_add_path(set, i < nbase ? base[i] :
		    cand[i - nbase], opt, db, &g->runs, &g->nruns, cause)) !=
		    0) {
			compare_free(set);
			return (rc);
		}
	}
	compare_group_dedupe(set, &set->groups[0]);
	compare_group_dedupe(set, &set->groups[1]);
	/* A run on both sides would be compared with itself. */
	for (i = 0; i < set->groups[0].nruns; i++) {
		for (j = 0; j < set->groups[1].nruns; j++) {
			if (!same_run(set->groups[0].runs[i],
			    set->groups[1].runs[j]))
				continue;
			rc = fail_with(cause, RB_EXIT_INPUT, "run %s is both "
			    "baseline (%s) and candidate (%s): a run can be on "
			    "one side only", run_name(set->groups[0].runs[i]),
			    set->groups[0].runs[i]->dir,
			    set->groups[1].runs[j]->dir);
			compare_free(set);
			return (rc);
		}
	}
	compare_build_keys(set);
	*out = set;
	return (0);
}

/* Append "what: a (dir), b (dir)" when runs disagree on a property. */
static void
differ_append(char **text, const struct compare_set *set, const char *what,
    const char *(*get)(const struct compare_run *, char *, size_t))
{
	char a[64], b[64], *line, *old;
	int i, j, differ = 0;

	for (i = 1; i < set->nruns && !differ; i++)
		differ = strcmp(get(set->runs[0], a, sizeof a),
		    get(set->runs[i], b, sizeof b)) != 0;
	if (!differ)
		return;
	line = xasprintf("%s differs:", what);
	for (i = 0; i < set->nruns; i++) {
		/* List each distinct value once, with its first run. */
		for (j = 0; j < i; j++)
			if (strcmp(get(set->runs[i], a, sizeof a),
			    get(set->runs[j], b, sizeof b)) == 0)
				break;
		if (j < i)
			continue;
		old = line;
		line = xasprintf("%s%s %s (%s)", old, i > 0 ? ";" : "",
		    get(set->runs[i], a, sizeof a), set->runs[i]->dir);
		free(old);
	}
	old = *text;
	*text = xasprintf("%s%s%s", old != NULL ? old : "", old != NULL ?
	    "\n" : "", line);
	free(old);
	free(line);
}

static const char *
get_host(const struct compare_run *r, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return (r->host);
}

static const char *
get_region_size(const struct compare_run *r, char *buf, size_t len)
{
	if (r->region_size_bytes == 0)
		snprintf(buf, len, "native regions (%d)", r->nregions);
	else
		snprintf(buf, len, "%llu bytes",
		    (unsigned long long)r->region_size_bytes);
	return (buf);
}

static const char *
get_page_size(const struct compare_run *r, char *buf, size_t len)
{
	snprintf(buf, len, "%llu", (unsigned long long)r->page_size);
	return (buf);
}

static const char *
get_suite(const struct compare_run *r, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return (r->suite);
}

static const char *
get_shape(const struct compare_run *r, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return (r->shape);
}

static const char *
get_scan(const struct compare_run *r, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return (r->scan);
}

/*
 * Whether the runs' counts are equally exact: a sampled kpageflags scan
 * estimates every count, so its figures carry more noise than a full
 * scan's or a kernel's own.  Comparable, but worth saying; NULL when
 * they agree.
 */
char *
compare_scan_differences(const struct compare_set *set)
{
	char *text = NULL;

	differ_append(&text, set, "how counts were read", get_scan);
	return (text);
}

/*
 * Whether these runs ran the same suite: its name, and its phases with
 * their workloads.  One line per property that differs, or NULL.
 */
char *
compare_suite_differences(const struct compare_set *set)
{
	char *text = NULL;

	differ_append(&text, set, "suite", get_suite);
	differ_append(&text, set, "phases (workloads)", get_shape);
	return (text);
}

/*
 * What makes these runs not comparable (host, region size, page size), one
 * line per property, or NULL when they agree.
 */
char *
compare_differences(const struct compare_set *set)
{
	char *text = NULL;

	differ_append(&text, set, "host", get_host);
	differ_append(&text, set, "region size", get_region_size);
	differ_append(&text, set, "page size", get_page_size);
	return (text);
}

/* Index of a group by name, or -1. */
int
compare_find_group(const struct compare_set *set, const char *name)
{
	int i;

	for (i = 0; i < set->ngroups; i++) {
		if (strcmp(set->groups[i].name, name) == 0)
			return (i);
	}
	return (-1);
}

/* Free a set and its runs. */
void
compare_free(struct compare_set *set)
{
	int i;

	if (set == NULL)
		return;
	for (i = 0; i < set->nruns; i++)
		compare_run_release(set->runs[i]);
	free(set->runs);
	for (i = 0; i < set->ngroups; i++) {
		free(set->groups[i].name);
		free(set->groups[i].runs);
	}
	free(set->groups);
	free(set->keys);
	free(set);
}
