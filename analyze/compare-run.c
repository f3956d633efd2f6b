/*
 * One run reduced to what comparisons need (compare-run.h): loaded from
 * its results directory, or found below a directory of runs.  The
 * results database builds the same runs from its rows (store-select.c).
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

#include "compare-run.h"
#include "log.h"
#include "results.h"

/* Sort helper for names. */
static int
name_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* A workload row's phase and name, for sorting. */
struct shape_item {
	int		 phase;
	const char	*workload;
};

/* Order shape items by phase, then by workload name. */
static int
shape_item_cmp(const void *a, const void *b)
{
	const struct shape_item *x = a, *y = b;

	if (x->phase != y->phase)
		return (x->phase < y->phase ? -1 : 1);
	return (strcmp(x->workload, y->workload));
}

/*
 * What a run ran, for telling suites apart: "phase (workload, ...)" for
 * each phase in order, the workloads of workloads.csv sorted.  Built in
 * one pass over the sorted rows: a run may list 100 000 phases.
 */
char *
compare_run_shape(const struct results *res)
{
	struct shape_item *items;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int p, i, n = 0, at = 0, first;

	items = xcalloc(res->nwl_rows + 1, sizeof *items);
	for (i = 0; i < res->nwl_rows; i++) {
		if (res->wl_rows[i].phase < 0 ||
		    res->wl_rows[i].phase >= res->nphases)
			continue;
		items[n].phase = res->wl_rows[i].phase;
		items[n++].workload = res->wl_rows[i].workload;
	}
	qsort(items, n, sizeof *items, shape_item_cmp);
	if ((f = open_memstream(&text, &len)) == NULL)
		die_errno(RB_EXIT_ENV, "open_memstream");
	for (p = 0; p < res->nphases; p++) {
		fprintf(f, "%s%s (", p > 0 ? ", " : "", res->phases[p]);
		for (first = 1; at < n && items[at].phase == p; at++) {
			if (at > 0 && items[at - 1].phase == p &&
			    strcmp(items[at - 1].workload,
			    items[at].workload) == 0)
				continue;
			fprintf(f, "%s%s", first ? "" : " ", items[at].workload);
			first = 0;
		}
		fputc(')', f);
	}
	if (fclose(f) != 0)
		die(RB_EXIT_ENV, "open_memstream: out of memory");
	free(items);
	return (text);
}

/*
 * The run's id: meta.json's run_id, or for a run written before meta.json
 * had one, a stable id derived from what identifies it.
 */
char *
compare_run_id(const struct results *res)
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	char *text, hex[33];
	int i;

	if (res->run_id != NULL && res->run_id[0] != '\0')
		return (xstrdup(res->run_id));
	text = xasprintf("%s\n%s\n%s\n%s\n%s\n%s", res->host,
	    res->start_time != NULL ? res->start_time : "",
	    res->kernel_release, res->boot_id != NULL ? res->boot_id : "",
	    res->label, res->command != NULL ? res->command : "");
	sha256_init(&ctx);
	sha256_update(&ctx, strlen(text), (const uint8_t *)text);
	sha256_digest(&ctx, sizeof digest, digest);
	free(text);
	for (i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	return (xasprintf("legacy-%s", hex));
}

/* Load one run directory and keep its summary and identity. */
int
compare_load_run(const char *dir, const struct metrics_options *opt,
    struct compare_run **out, char **cause)
{
	struct compare_run *run;
	struct results *res;
	struct metrics *m;
	int rc, i;

	if ((rc = results_load(dir, &res, cause)) != 0)
		return (rc);
	if ((rc = metrics_compute(res, opt, &m, cause)) != 0) {
		results_free(res);
		return (rc);
	}
	run = xcalloc(1, sizeof *run);
	run->dir = xstrdup(dir);
	/* Copies of a run without an id are told apart by their paths. */
	run->run_id = res->run_id != NULL && res->run_id[0] != '\0' ?
	    xstrdup(res->run_id) : NULL;
	run->real = realpath(dir, NULL);
	run->label = xstrdup(res->label);
	run->host = xstrdup(res->host);
	run->kernel_release = xstrdup(res->kernel_release);
	run->boot_id = res->boot_id != NULL && res->boot_id[0] != '\0' ?
	    xstrdup(res->boot_id) : NULL;
	run->source = xstrdup(res->source != NULL ? res->source : "unknown");
	run->suite = xstrdup(res->suite != NULL ? res->suite : "(none)");
	run->scan = xstrdup(res->scan != NULL ? res->scan : "exact");
	run->shape = compare_run_shape(res);
	run->page_size = res->page_size;
	run->region_size_bytes = res->region_size_bytes;
	run->nregions = res->nregions;
	run->interval_s = isnan(res->interval_s) ? 0 : res->interval_s;
	run->nphases = res->nphases;
	run->phases = xcalloc(res->nphases + 1, sizeof *run->phases);
	for (i = 0; i < res->nphases; i++)
		run->phases[i] = xstrdup(res->phases[i]);
	run->guest = res->guest;
	if (res->guest_kernel_report != NULL)
		run->guest_kernel_report = xstrdup(res->guest_kernel_report);
	metrics_summarize(m, &run->sum);
	metrics_free(m);
	results_free(res);
	*out = run;
	return (0);
}

/* Free one run. */
void
compare_run_release(struct compare_run *run)
{
	int i;

	free(run->dir);
	free(run->run_id);
	free(run->real);
	free(run->label);
	free(run->host);
	free(run->kernel_release);
	free(run->boot_id);
	free(run->source);
	free(run->suite);
	free(run->scan);
	free(run->shape);
	for (i = 0; i < run->nphases; i++)
		free(run->phases[i]);
	free(run->phases);
	summary_free(&run->sum);
	free(run->guest_kernel_report);
	free(run);
}

/* Directories of runs nest at most this deep (a guard against loops). */
#define COMPARE_MAX_DEPTH	16

/* Append the run directories under path (not itself) to *dirs. */
static int
compare_walk(const char *path, int depth, char ***dirs, int *ndirs,
    char **cause)
{
	struct dirent *de;
	struct stat sb;
	char *child;
	DIR *d;
	int rc = 0;

	if ((d = opendir(path)) == NULL)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s", path,
		    strerror(errno)));
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		/* "results/" and "results" name the same children. */
		child = xasprintf("%s%s%s", path, path[0] != '\0' &&
		    path[strlen(path) - 1] == '/' ? "" : "/", de->d_name);
		if (results_is_run_dir(child)) {
			*dirs = xreallocarray(*dirs, *ndirs + 1,
			    sizeof **dirs);
			(*dirs)[(*ndirs)++] = child;
			continue;
		}
		if (stat(child, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			if (depth >= COMPARE_MAX_DEPTH)
				rc = fail_with(cause, RB_EXIT_INPUT, "%s: "
				    "directories nested deeper than %d (a "
				    "loop of links?)", child,
				    COMPARE_MAX_DEPTH);
			else
				rc = compare_walk(child, depth + 1, dirs,
				    ndirs, cause);
		}
		free(child);
	}
	closedir(d);
	return (rc);
}

/*
 * The run directories PATH stands for: itself when it is a run, else every
 * run below it at any depth (what `run --repeat N` makes, or a directory
 * of such directories), sorted by path.  A run directory's own
 * subdirectories are not searched.  The caller frees each name and the
 * array.
 */
int
compare_run_dirs(const char *path, char ***dirs, int *ndirs, char **cause)
{
	char **found = NULL;
	int nfound = 0, i, rc;

	if (results_is_run_dir(path)) {
		found = xcalloc(1, sizeof *found);
		found[nfound++] = xstrdup(path);
		*dirs = found;
		*ndirs = nfound;
		return (0);
	}
	if ((rc = compare_walk(path, 1, &found, &nfound, cause)) != 0) {
		for (i = 0; i < nfound; i++)
			free(found[i]);
		free(found);
		return (rc);
	}
	if (nfound == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: neither a results "
		    "directory (no meta.json) nor a directory with any below "
		    "it", path));
	qsort(found, nfound, sizeof *found, name_cmp);
	*dirs = found;
	*ndirs = nfound;
	return (0);
}
