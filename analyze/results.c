/*
 * Load a results directory: meta.json (results-meta.c), every CSV table
 * through the reader of results-csv.c, and figures stored straight into
 * dense per-sample arrays: one row function per table, in the order the
 * tables are read.
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv-schema.h"
#include "input-file.h"
#include "log.h"
#include "meta.h"
#include "results.h"
#include "results-csv.h"

/* FNV-1a of a phase name. */
static size_t
phase_hash(const char *name)
{
	size_t h = 2166136261u;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return (h);
}

/* The slot of name in the phase table: its index + 1, or a free one. */
static size_t
phase_slot(const struct results *res, const char *name)
{
	size_t mask = res->phase_nslots - 1, at = phase_hash(name) & mask;

	while (res->phase_slots[at] != 0 &&
	    strcmp(res->phases[res->phase_slots[at] - 1], name) != 0)
		at = (at + 1) & mask;
	return (at);
}

/*
 * Intern a phase name: a hash table, since a hostile meta.json may list
 * 100 000 phases (a linear search made that quadratic).
 */
int
results_phase_intern(struct results *res, const char *name)
{
	size_t at;
	int i;

	if ((size_t)res->nphases * 2 >= res->phase_nslots) {
		free(res->phase_slots);
		res->phase_nslots = res->phase_nslots == 0 ? 64 :
		    res->phase_nslots * 2;
		res->phase_slots = xcalloc(res->phase_nslots,
		    sizeof *res->phase_slots);
		for (i = 0; i < res->nphases; i++)
			res->phase_slots[phase_slot(res, res->phases[i])] =
			    i + 1;
	}
	at = phase_slot(res, name);
	if (res->phase_slots[at] != 0)
		return (res->phase_slots[at] - 1);
	res->phases = xreallocarray(res->phases, res->nphases + 1,
	    sizeof *res->phases);
	res->phases[res->nphases] = xstrdup(name);
	res->phase_slots[at] = res->nphases + 1;
	return (res->nphases++);
}

/* Index of region (node, region), or -1. */
int
results_region_index(const struct results *res, int node, int region)
{
	int lo = 0, hi = res->nregions - 1, mid;
	const struct results_region *r;

	while (lo <= hi) {
		mid = (lo + hi) / 2;
		r = &res->regions[mid];
		if (r->node == node && r->region == region)
			return (mid);
		if (r->node < node || (r->node == node && r->region < region))
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return (-1);
}

/* Does DIR look like one run (it has a meta.json)? */
int
results_is_run_dir(const char *dir)
{
	struct stat st;
	char *path = xasprintf("%s/meta.json", dir);
	int yes = stat(path, &st) == 0 && S_ISREG(st.st_mode);

	free(path);
	return (yes);
}

/*
 * Time the phase ended: its phase_end event, else a stop, interrupted or
 * failed event of that phase (`sample` writes only stop), or NAN.
 */
double
results_phase_end(const struct results *res, int phase)
{
	const struct results_event *e;
	double end = NAN;
	int i;

	for (i = 0; i < res->nevents; i++) {
		e = &res->events[i];
		if (e->phase != phase)
			continue;
		if (strcmp(e->event, "phase_end") == 0)
			return (e->t);
		if (isnan(end) && (strcmp(e->event, "stop") == 0 ||
		    strcmp(e->event, "interrupted") == 0 ||
		    strcmp(e->event, "failed") == 0))
			end = e->t;
	}
	return (end);
}

/*
 * Free blocks per order (RESULTS_MAX_ORDER values) of region r at buddy
 * sample s; orders up to res->buddy_orders - 1 are meaningful.
 */
const uint64_t *
results_buddy_at(const struct results *res, int s, int r)
{
	return (res->buddy_blocks + ((size_t)s * res->nregions + r) *
	    RESULTS_MAX_ORDER);
}

/*
 * Does DIR/NAME belong to a run that has no data yet?  meta.json and the
 * atomic writer's hidden temporary files do; so does a table that holds
 * only its header, or the start of it, if it is not regions.csv (written
 * with the first sample).  Anything else, or a row in a table that names regions, does
 * not.  Rows of events.csv and workloads.csv name no region and may come
 * before the first sample.
 */
static int
no_data_entry(const char *dir, const char *name)
{
	const struct csv_table_def *def;
	char *path, buf[4096], *nl;
	ssize_t n;
	int t, fd;

	if (name[0] == '.' || strcmp(name, "meta.json") == 0)
		return (1);
	for (t = 0; t < CSV_NTABLES; t++) {
		def = csv_schema_table(t);
		if (strcmp(name, def->file) == 0)
			break;
	}
	if (t == CSV_NTABLES || t == CSV_REGIONS)
		return (0);
	if (!csv_schema_names_region(def))
		return (1);
	path = xasprintf("%s/%s", dir, name);
	fd = input_open(path, O_NOFOLLOW, NULL);
	free(path);
	if (fd < 0)
		return (0);
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n < 0 || (size_t)n >= sizeof buf)
		return (0);
	/* Nothing after the header line (a header is far below 4 KiB). */
	if ((nl = memchr(buf, '\n', n)) != NULL)
		return (nl + 1 == buf + n);
	/* Or a header cut short by a kill in the middle of its write. */
	return ((size_t)n <= strlen(def->header) &&
	    memcmp(buf, def->header, n) == 0);
}

/*
 * Did the run stop before its first sample?  Then regions.csv was never
 * written (the sink writes it whole with the first sample) and no table
 * that names regions holds a row.  An empty directory (a kill right after
 * it was made) is such a run too.
 */
int
results_no_data(const char *dir)
{
	struct dirent *de;
	int yes = 1;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return (0);
	while (yes && (de = readdir(d)) != NULL)
		yes = no_data_entry(dir, de->d_name);
	closedir(d);
	return (yes);
}

/* Load the results directory DIR. */
int
results_load(const char *dir, struct results **out, char **cause)
{
	struct results *res = xcalloc(1, sizeof *res);
	int rc;

	res->dir = xstrdup(dir);
	if ((rc = results_meta_load(res, cause)) != 0)
		goto fail;
	results_guest_boot(res);
	if (results_no_data(dir)) {
		rc = fail_with(cause, RB_EXIT_INPUT, "%s: %s", dir,
		    RESULTS_NO_DATA);
		goto fail;
	}
	if ((rc = results_read_tables(res, cause)) != 0)
		goto fail;
	*out = res;
	return (0);
fail:
	results_free(res);
	return (rc);
}

/* Free a loaded results directory. */
void
results_free(struct results *res)
{
	int i;

	if (res == NULL)
		return;
	free(res->phase_slots);
	free(res->dir);
	free(res->label);
	free(res->host);
	free(res->kernel_release);
	free(res->boot_id);
	free(res->kernel_version);
	free(res->guest_kernel_sha256);
	free(res->guest_kernel_report);
	free(res->run_id);
	free(res->start_time);
	free(res->end_time);
	free(res->command);
	free(res->status);
	free(res->suite);
	free(res->source);
	free(res->scan);
	for (i = 0; i < res->nphases; i++)
		free(res->phases[i]);
	free(res->phases);
	free(res->regions);
	free(res->samples.t);
	free(res->samples.phase);
	free(res->present);
	free(res->free);
	free(res->used);
	for (i = 0; i < RESULTS_NCLASSES; i++)
		free(res->cls[i]);
	free(res->uninit);
	free(res->used_lo);
	free(res->count_age_ms);
	free(res->partial);
	free(res->buddy.t);
	free(res->buddy.phase);
	free(res->buddy_blocks);
	free(res->pageblocks.t);
	free(res->pageblocks.phase);
	free(res->pb_unmovable);
	free(res->pb_total);
	free(res->pagetype.t);
	free(res->pagetype.phase);
	free(res->pt_unmovable_free);
	free(res->placement.t);
	free(res->placement.phase);
	for (i = 0; i < res->nworkloads; i++)
		free(res->workloads[i]);
	free(res->workloads);
	free(res->placement_pages);
	free(res->references.t);
	free(res->references.phase);
	free(res->ref_monitored);
	free(res->ref_referenced);
	for (i = 0; i < res->nwl_rows; i++) {
		free(res->wl_rows[i].workload);
		free(res->wl_rows[i].thread);
		free(res->wl_rows[i].metric);
		free(res->wl_rows[i].unit);
	}
	free(res->wl_rows);
	for (i = 0; i < res->nevents; i++) {
		free(res->events[i].event);
		free(res->events[i].detail);
	}
	free(res->events);
	free(res);
}

