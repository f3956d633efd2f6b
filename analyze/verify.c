/*
 * regionbench verify's checks (verify.h): one results directory, or a
 * directory of repetitions checked child by child, with one line per
 * directory on the stream given.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/stat.h>

#include "csv-schema.h"
#include "log.h"
#include "meta.h"
#include "results.h"
#include "verify.h"

/* Where the verdicts go: lines on a stream, or objects in a JSON array. */
struct verify_out {
	FILE	*f;
	json_t	*runs;		/* NULL: lines on f */
};

/*
 * One directory's verdict ("whole", "damaged" or "no data"): the line
 * "DIR: MESSAGE", or an object with the same facts in fields.  status is
 * meta.json's (NULL: none), samples and regions -1 when not read.
 */
static void
verify_say(const struct verify_out *vo, const char *dir, const char *verdict,
    const char *status, int samples, int regions, const char *fmt, ...)
{
	va_list ap;
	char *message;

	va_start(ap, fmt);
	if (vasprintf(&message, fmt, ap) < 0)
		die(RB_EXIT_ENV, "out of memory");
	va_end(ap);
	if (vo->runs == NULL)
		fprintf(vo->f, "%s: %s\n", dir, message);
	else
		json_array_append_new(vo->runs, json_pack("{s:s, s:s, s:o, "
		    "s:o, s:o, s:s}", "dir", dir, "verdict", verdict,
		    "status", status != NULL ? json_string(status) :
		    json_null(), "samples", samples >= 0 ?
		    json_integer(samples) : json_null(), "regions",
		    regions >= 0 ? json_integer(regions) : json_null(),
		    "message", message));
	free(message);
}

/* Check that a time base never goes backwards. */
static int
verify_times(const struct results_times *tm, const char *file, char **why)
{
	int i;

	for (i = 1; i < tm->n; i++) {
		if (tm->t[i] < tm->t[i - 1]) {
			*why = xasprintf("%s: t_s goes backwards (%.3f after "
			    "%.3f)", file, tm->t[i], tm->t[i - 1]);
			return (-1);
		}
	}
	return (0);
}

/* Check that events.csv never goes backwards. */
static int
verify_events(const struct results *res, char **why)
{
	int i;

	for (i = 1; i < res->nevents; i++) {
		if (res->events[i].t < res->events[i - 1].t) {
			*why = xasprintf("events.csv: t_s goes backwards "
			    "(%.3f after %.3f)", res->events[i].t,
			    res->events[i - 1].t);
			return (-1);
		}
	}
	return (0);
}

/*
 * What the sink can never write: a complete run with a samples.csv whose
 * samples are not the count meta.json says, a sample repeated whole (the
 * same time, the same figures, the last write done twice), a zone with
 * more free pages than present ones (but on 2.6.39, see results.h), a run
 * with data but no events.csv.
 */
static int
verify_samples(const char *dir, const struct results *res, json_t *meta,
    const char *status, char **why)
{
	json_t *n = json_object_get(meta, "samples");
	struct stat st;
	json_int_t pus;
	size_t a, b, r;
	char *path;
	int s, gone;

	if (strcmp(status, "complete") == 0 && json_is_integer(n) &&
	    json_integer_value(n) != res->samples.n) {
		*why = xasprintf("samples.csv holds %d samples, meta.json "
		    "says %lld", res->samples.n,
		    (long long)json_integer_value(n));
		return (-1);
	}
	for (s = 1; s < res->samples.n; s++) {
		if (res->samples.t[s] != res->samples.t[s - 1])
			continue;
		a = (size_t)s * res->nregions;
		b = (size_t)(s - 1) * res->nregions;
		for (r = 0; r < (size_t)res->nregions; r++) {
			if (res->present[a + r] != res->present[b + r] ||
			    res->free[a + r] != res->free[b + r])
				break;
		}
		if (r == (size_t)res->nregions) {
			*why = xasprintf("samples.csv: the sample at t_s %.3f "
			    "is written twice", res->samples.t[s]);
			return (-1);
		}
	}
	/* vmstat's drift: at most 125 pages per CPU (mm/vmstat.c). */
	pus = json_integer_value(meta_get(meta, "topology.pus"));
	if (res->free_over_present != 0 && res->free_over_present_by >
	    (uint64_t)(pus > 0 && pus < 65536 ? pus : 65536) * 125) {
		*why = xasprintf("samples.csv:%ld: %llu more free pages than "
		    "present ones, more than the kernel's counters can drift",
		    res->free_over_present, (unsigned long long)
		    res->free_over_present_by);
		return (-1);
	}
	path = xasprintf("%s/%s", dir, csv_schema_table(CSV_EVENTS)->file);
	gone = lstat(path, &st) == -1 && errno == ENOENT;
	free(path);
	if (gone) {
		*why = xasprintf("%s is missing (every run writes it)",
		    csv_schema_table(CSV_EVENTS)->file);
		return (-1);
	}
	return (0);
}

/*
 * The worse of two verify outcomes: damage over no data over whole, so
 * one damaged repetition fails the whole parent.
 */
int
verify_worse(int a, int b)
{
	if (a == RB_EXIT_FAIL || b == RB_EXIT_FAIL)
		return (RB_EXIT_FAIL);
	if (a == RB_EXIT_NODATA || b == RB_EXIT_NODATA)
		return (RB_EXIT_NODATA);
	return (RB_EXIT_OK);
}

/*
 * A run stopped before its first sample (killed, interrupted or failed
 * before it): no data, which is not damage.  A run that says it completed
 * cannot have no data.  Returns -1 when the directory has data.
 */
static int
verify_no_data(const struct verify_out *vo, const char *dir,
    const char *status)
{
	if (!results_no_data(dir))
		return (-1);
	if (status != NULL && strcmp(status, "complete") == 0) {
		verify_say(vo, dir, "damaged", status, 0, -1, "damaged: "
		    "meta.json says complete, but no sample was written");
		return (RB_EXIT_FAIL);
	}
	verify_say(vo, dir, "no data", status, 0, -1, "%s", RESULTS_NO_DATA);
	return (RB_EXIT_NODATA);
}

/*
 * Tables a source may leave out (pagetype.csv and pageblocks.csv, which
 * the kpageflags source cannot fill) must be there unless meta.json's
 * files_omitted says why: a run that lost one is damaged.
 */
static int
verify_omitted(const char *dir, json_t *meta, char **why)
{
	static const enum csv_table may_omit[] = {
		CSV_PAGETYPE, CSV_PAGEBLOCKS
	};
	const char *file, *source = meta_get_string(meta, "source.name");
	char *path;
	json_t *omitted = json_object_get(meta, "files_omitted");
	struct stat st;
	size_t i;
	int gone;

	for (i = 0; i < sizeof may_omit / sizeof may_omit[0]; i++) {
		file = csv_schema_table(may_omit[i])->file;
		path = xasprintf("%s/%s", dir, file);
		gone = lstat(path, &st) == -1 && errno == ENOENT;
		free(path);
		if (gone && !json_is_string(json_object_get(omitted, file))) {
			*why = xasprintf("%s is missing, and meta.json's "
			    "files_omitted does not say why it was left out "
			    "(source %s)", file, source != NULL ? source :
			    "unknown");
			return (-1);
		}
	}
	return (0);
}

/* Verify one results directory: RB_EXIT_OK, _FAIL (damaged) or _NODATA. */
static int
verify_dir(const struct verify_out *vo, const char *dir)
{
	struct results *res = NULL;
	char *why = NULL;
	json_t *meta;
	const char *status;
	int rc = RB_EXIT_OK;

	if ((meta = meta_read(dir, &why)) == NULL) {
		verify_say(vo, dir, "damaged", NULL, -1, -1, "damaged: %s",
		    why);
		free(why);
		return (RB_EXIT_FAIL);
	}
	if ((status = meta_get_string(meta, "status")) == NULL) {
		verify_say(vo, dir, "damaged", NULL, -1, -1, "damaged: "
		    "meta.json has no status");
		json_decref(meta);
		return (RB_EXIT_FAIL);
	}
	if ((rc = verify_no_data(vo, dir, status)) >= 0) {
		json_decref(meta);
		return (rc);
	}
	rc = RB_EXIT_OK;
	if (verify_omitted(dir, meta, &why) != 0 ||
	    results_load(dir, &res, &why) != 0) {
		verify_say(vo, dir, "damaged", status, -1, -1, "damaged: %s",
		    why);
		free(why);
		json_decref(meta);
		return (RB_EXIT_FAIL);
	}
	if (verify_times(&res->samples, "samples.csv", &why) != 0 ||
	    verify_times(&res->buddy, "buddy.csv", &why) != 0 ||
	    verify_times(&res->pagetype, "pagetype.csv", &why) != 0 ||
	    verify_times(&res->pageblocks, "pageblocks.csv", &why) != 0 ||
	    verify_times(&res->placement, "placement.csv", &why) != 0 ||
	    verify_times(&res->references, "references.csv", &why) != 0 ||
	    verify_events(res, &why) != 0 ||
	    verify_samples(dir, res, meta, status, &why) != 0) {
		verify_say(vo, dir, "damaged", status, res->samples.n,
		    res->nregions, "damaged: %s", why);
		free(why);
		rc = RB_EXIT_FAIL;
	} else if (strcmp(status, "complete") == 0) {
		verify_say(vo, dir, "whole", status, res->samples.n,
		    res->nregions, "whole and complete: %d samples of %d "
		    "regions", res->samples.n, res->nregions);
	} else {
		verify_say(vo, dir, "whole", status, res->samples.n,
		    res->nregions, "whole, but not complete: status '%s'%s; "
		    "%d samples of %d regions", status, strcmp(status,
		    "running") == 0 ? " (the run was killed, or is still "
		    "going)" : "", res->samples.n, res->nregions);
	}
	results_free(res);
	json_decref(meta);
	return (rc);
}

/*
 * Verify a directory without meta.json: a parent of repetitions (each
 * child checked), or a run killed before it wrote meta.json (no data).
 * Returns the verdict, or -RB_EXIT_INPUT when it cannot be read.
 */
static int
verify_parent(const struct verify_out *vo, const char *dir, char **cause)
{
	char path[4096];
	struct dirent **de;
	struct stat st;
	int rc = RB_EXIT_OK, n = 0, i, nde;

	/* In name order: rep-01, rep-02, ... whatever the directory's. */
	if ((nde = scandir(dir, &de, NULL, alphasort)) == -1)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s", dir,
		    strerror(errno)));
	for (i = 0; i < nde; i++) {
		if (de[i]->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s/meta.json", dir,
		    de[i]->d_name);
		if (stat(path, &st) == -1)
			continue;
		snprintf(path, sizeof path, "%s%s%s", dir,
		    dir[0] != '\0' && dir[strlen(dir) - 1] == '/' ? "" : "/",
		    de[i]->d_name);
		rc = verify_worse(rc, verify_dir(vo, path));
		n++;
	}
	for (i = 0; i < nde; i++)
		free(de[i]);
	free(de);
	if (n > 0)
		return (rc);
	if ((rc = verify_no_data(vo, dir, NULL)) >= 0)
		return (rc);
	verify_say(vo, dir, "damaged", NULL, -1, -1, "damaged: no meta.json "
	    "(not a results directory)");
	return (RB_EXIT_FAIL);
}

/*
 * Verify a results directory or a directory of them, printing one line
 * per run on out; returns the verdict, or a negative exit code with a
 * cause when the directory cannot be read.
 */
int
verify_path(FILE *out, const char *dir, char **cause)
{
	struct verify_out vo = { out, NULL };

	if (results_is_run_dir(dir))
		return (verify_dir(&vo, dir));
	return (verify_parent(&vo, dir, cause));
}

/*
 * The same checks, each run's verdict appended to the JSON array runs
 * (docs/json.md) instead of printed.
 */
int
verify_path_json(json_t *runs, const char *dir, char **cause)
{
	struct verify_out vo = { NULL, runs };

	if (results_is_run_dir(dir))
		return (verify_dir(&vo, dir));
	return (verify_parent(&vo, dir, cause));
}
