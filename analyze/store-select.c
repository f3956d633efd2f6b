/*
 * Selecting stored runs: the db:key=value,... selector, matched against
 * the runs table, and the matching runs read back as the reduced runs
 * compare and gate take (struct compare_run), as a directory gives them.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "results.h"
#include "store.h"
#include "store-int.h"

/* Selector values: what names, releases and globs are made of. */
static int
selector_value_ok(const char *v)
{
	const char *p;

	if (*v == '\0' || strlen(v) > 256)
		return (0);
	for (p = v; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("._-+:*?~@", *p) !=
		    NULL))
			return (0);
	}
	return (1);
}

/*
 * "db:key=value,key=value,...": keys kernel, suite, label, host, source,
 * status, run (globs) and last (a count).  Strict: an unknown key, a key
 * given twice, an empty or odd value is refused, with what was expected.
 */
int
store_selector_parse(const char *text, struct store_selector *sel,
    char **cause)
{
	static const char *const keys[] = { "kernel", "suite", "label", "host",
	    "source", "status", "run", NULL };
	char *copy, *item, *save = NULL, *eq, **field, *end;
	int i, rc = 0;
	long n;

	memset(sel, 0, sizeof *sel);
	if (strncmp(text, STORE_SELECTOR_PREFIX, 3) != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "'%s': a database "
		    "selection starts with db:", text));
	copy = xstrdup(text + 3);
	for (item = strtok_r(copy, ",", &save); item != NULL && rc == 0;
	    item = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(item, '=')) == NULL) {
			rc = fail_with(cause, RB_EXIT_INPUT, "'%s': '%s' is "
			    "not key=value", text, item);
			break;
		}
		*eq++ = '\0';
		if (strcmp(item, "last") == 0) {
			errno = 0;
			n = strtol(eq, &end, 10);
			if (sel->last != 0 || *eq == '\0' || *end != '\0' ||
			    errno != 0 || n < 1 || n > 1000000)
				rc = fail_with(cause, RB_EXIT_INPUT, "'%s': "
				    "last=%s: expected a count from 1, once",
				    text, eq);
			else
				sel->last = (int)n;
			continue;
		}
		for (i = 0; keys[i] != NULL && strcmp(keys[i], item) != 0; i++)
			;
		if (keys[i] == NULL) {
			rc = fail_with(cause, RB_EXIT_INPUT, "'%s': unknown key "
			    "'%s' (keys: kernel, suite, label, host, source, "
			    "status, run, last)", text, item);
			break;
		}
		field = i == 0 ? &sel->kernel : i == 1 ? &sel->suite : i == 2 ?
		    &sel->label : i == 3 ? &sel->host : i == 4 ? &sel->source :
		    i == 5 ? &sel->status : &sel->run;
		if (*field != NULL)
			rc = fail_with(cause, RB_EXIT_INPUT, "'%s': %s given "
			    "twice", text, item);
		else if (!selector_value_ok(eq))
			rc = fail_with(cause, RB_EXIT_INPUT, "'%s': %s=%s: "
			    "expected letters, digits and . _ - + : * ? ~ @ "
			    "(at most 256)", text, item, eq);
		else
			*field = xstrdup(eq);
	}
	free(copy);
	if (rc != 0)
		store_selector_free(sel);
	return (rc);
}

void
store_selector_free(struct store_selector *sel)
{
	free(sel->kernel);
	free(sel->suite);
	free(sel->label);
	free(sel->host);
	free(sel->source);
	free(sel->status);
	free(sel->run);
	memset(sel, 0, sizeof *sel);
}

/* Does value (NULL: absent) match the selector's pattern (NULL: any)? */
static int
sel_match(const char *pattern, const char *value)
{
	if (pattern == NULL)
		return (1);
	return (fnmatch(pattern, value != NULL ? value : "", 0) == 0);
}

/* The columns of runs the selection reads, in this order. */
#define RUN_COLUMNS "run_id, host, kernel_release, boot_id, suite, label, " \
	"source, status, page_size, region_size_bytes, nregions, shape, " \
	"empty_tolerance_pages, start_time, scan, guest, guest_kernel_report"

enum { C_ID, C_HOST, C_KERNEL, C_BOOT, C_SUITE, C_LABEL, C_SOURCE, C_STATUS,
    C_PAGE, C_REGION, C_NREGIONS, C_SHAPE, C_TOLERANCE, C_START, C_SCAN,
    C_GUEST, C_GUEST_REPORT, C_N };

struct select_state {
	const struct store_selector *sel;
	const struct metrics_options *mo;
	struct compare_run **runs;
	int		 nruns;
	char		*mismatch;	/* a run stored with other options */
};

/* Keep one row of runs as a compare run when it matches. */
static int
select_row(void *arg, int ncols, const char *const *c)
{
	struct select_state *s = arg;
	const struct store_selector *sel = s->sel;
	struct compare_run *run;

	if (ncols < C_N || c[C_ID] == NULL)
		return (0);
	if (!sel_match(sel->kernel, c[C_KERNEL]) ||
	    !sel_match(sel->suite, c[C_SUITE]) ||
	    !sel_match(sel->label, c[C_LABEL]) ||
	    !sel_match(sel->host, c[C_HOST]) ||
	    !sel_match(sel->source, c[C_SOURCE]) ||
	    !sel_match(sel->status != NULL ? sel->status : "complete",
	    c[C_STATUS]) || !sel_match(sel->run, c[C_ID]))
		return (0);
	if (s->mismatch == NULL && c[C_TOLERANCE] != NULL &&
	    strtoull(c[C_TOLERANCE], NULL, 10) != s->mo->empty_tolerance)
		s->mismatch = xasprintf("run %s was stored with "
		    "--empty-tolerance %s", c[C_ID], c[C_TOLERANCE]);
	run = xcalloc(1, sizeof *run);
	run->dir = xasprintf("db:run=%s", c[C_ID]);
	run->run_id = xstrdup(c[C_ID]);
	run->host = xstrdup(c[C_HOST]);
	run->kernel_release = xstrdup(c[C_KERNEL]);
	run->boot_id = c[C_BOOT] != NULL && c[C_BOOT][0] != '\0' ?
	    xstrdup(c[C_BOOT]) : NULL;
	run->suite = xstrdup(c[C_SUITE] != NULL ? c[C_SUITE] : "(none)");
	run->label = xstrdup(c[C_LABEL] != NULL ? c[C_LABEL] : "");
	run->source = xstrdup(c[C_SOURCE] != NULL ? c[C_SOURCE] : "unknown");
	run->page_size = c[C_PAGE] != NULL ? strtoull(c[C_PAGE], NULL, 10) : 0;
	run->region_size_bytes = c[C_REGION] != NULL ?
	    strtoull(c[C_REGION], NULL, 10) : 0;
	run->nregions = c[C_NREGIONS] != NULL ? atoi(c[C_NREGIONS]) : 0;
	run->shape = xstrdup(c[C_SHAPE] != NULL ? c[C_SHAPE] : "");
	/* NULL: stored by a schema that did not record it. */
	run->scan = xstrdup(c[C_SCAN] != NULL ? c[C_SCAN] : "not recorded");
	/* NULL before schema 3: not known to be a guest run. */
	run->guest = c[C_GUEST] != NULL && atoi(c[C_GUEST]) == 1;
	if (c[C_GUEST_REPORT] != NULL)
		run->guest_kernel_report = xstrdup(c[C_GUEST_REPORT]);
	s->runs = xreallocarray(s->runs, s->nruns + 1, sizeof *s->runs);
	s->runs[s->nruns++] = run;
	return (0);
}

static int
phase_row(void *arg, int ncols, const char *const *c)
{
	struct compare_run *run = arg;

	if (ncols < 1 || c[0] == NULL)
		return (0);
	run->phases = xreallocarray(run->phases, run->nphases + 2,
	    sizeof *run->phases);
	run->phases[run->nphases++] = xstrdup(c[0]);
	run->phases[run->nphases] = NULL;
	return (0);
}

static int
summary_row(void *arg, int ncols, const char *const *c)
{
	struct compare_run *run = arg;
	struct summary_row *row;
	int p;

	if (ncols < 5 || c[0] == NULL || c[1] == NULL || c[3] == NULL)
		return (0);
	for (p = 0; p < run->nphases && strcmp(run->phases[p], c[0]) != 0; p++)
		;
	if (p == run->nphases)
		return (0);
	run->sum.rows = xreallocarray(run->sum.rows, run->sum.n + 1,
	    sizeof *run->sum.rows);
	row = &run->sum.rows[run->sum.n++];
	row->phase = p;
	row->metric = xstrdup(c[1]);
	row->value = c[2] != NULL ? strtod(c[2], NULL) : NAN;
	row->unit = xstrdup(c[3]);
	row->headline = c[4] != NULL && atoi(c[4]) != 0;
	return (0);
}

/*
 * The runs a selection names, oldest first (the last N by start time when
 * last=N), each with its phases and summary.  A selection that names no
 * run is an error: a comparison without evidence is no comparison.
 */
int
store_select_runs(struct store *st, const struct store_selector *sel,
    const struct metrics_options *mo, struct compare_run ***runs,
    int *nruns, char **cause)
{
	struct select_state s = { sel, mo, NULL, 0, NULL };
	const char *param[1];
	long version;
	int i, first, rc;

	if ((rc = store_version(st, &version, cause)) != 0)
		return (rc);
	if (version != STORE_SCHEMA_VERSION)
		return (fail_with(cause, version == 0 ? RB_EXIT_INPUT :
		    RB_EXIT_ENV, "%s: %s", st->url, version == 0 ? "no runs "
		    "stored yet (regionbench store DIR --db URL)" :
		    "schema version differs from this regionbench's: run "
		    "regionbench store to migrate it, or use a newer "
		    "regionbench"));
	if ((rc = st_query(st, "SELECT " RUN_COLUMNS " FROM runs ORDER BY "
	    "start_time, run_id", 0, NULL, select_row, &s, cause)) != 0)
		goto fail;
	first = sel->last > 0 && s.nruns > sel->last ? s.nruns - sel->last : 0;
	if (first > 0) {
		for (i = 0; i < first; i++)
			compare_run_release(s.runs[i]);
		memmove(s.runs, s.runs + first, (s.nruns - first) *
		    sizeof *s.runs);
		s.nruns -= first;
	}
	if (s.nruns == 0) {
		rc = fail_with(cause, RB_EXIT_INPUT, "no stored run matches "
		    "this selection in %s", st->url);
		goto fail;
	}
	if (s.mismatch != NULL) {
		rc = fail_with(cause, RB_EXIT_INPUT, "%s, compared with %" PRIu64
		    ": figures from the database are compared with the "
		    "options they were stored with", s.mismatch,
		    mo->empty_tolerance);
		goto fail;
	}
	for (i = 0; i < s.nruns; i++) {
		param[0] = s.runs[i]->dir + strlen("db:run=");
		if ((rc = st_query(st, "SELECT phase FROM phases WHERE run_id = "
		    "$1 ORDER BY idx", 1, param, phase_row, s.runs[i],
		    cause)) != 0 || (rc = st_query(st, "SELECT phase, metric, "
		    "value, unit, headline FROM summary_metrics WHERE run_id = "
		    "$1 ORDER BY seq", 1, param, summary_row, s.runs[i],
		    cause)) != 0)
			goto fail;
	}
	free(s.mismatch);
	*runs = s.runs;
	*nruns = s.nruns;
	return (0);
fail:
	for (i = 0; i < s.nruns; i++)
		compare_run_release(s.runs[i]);
	free(s.runs);
	free(s.mismatch);
	return (rc);
}
