/*
 * The results database (store.h): the schema and its migrations, loading
 * results directories, and selecting runs back for compare and gate.  The
 * engines (store-sqlite.c, store-pg.c) only run statements; everything
 * that knows about runs is here, written once for both.  Every value
 * travels as a statement parameter, never inside the SQL text.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
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

/*
 * The schema, one list of statements per version: migrating from version
 * v applies steps v+1 ... STORE_SCHEMA_VERSION in one transaction.  Types
 * are those both engines take.
 */
static const char *const store_schema_v1[] = {
	"CREATE TABLE schema_version (version INTEGER NOT NULL)",
	"CREATE TABLE runs ("
	" run_id TEXT PRIMARY KEY,"
	" host TEXT NOT NULL,"
	" kernel_release TEXT NOT NULL,"
	" kernel_version TEXT,"
	" boot_id TEXT,"
	" suite TEXT,"
	" label TEXT NOT NULL,"
	" source TEXT,"
	" command TEXT,"
	" status TEXT NOT NULL,"
	" start_time TEXT,"
	" end_time TEXT,"
	" page_size BIGINT,"
	" region_size_bytes BIGINT,"
	" nregions INTEGER,"
	" shape TEXT NOT NULL,"
	" empty_tolerance_pages BIGINT NOT NULL,"
	" path TEXT,"
	" stored_at TEXT NOT NULL)",
	"CREATE INDEX runs_by_kernel ON runs (kernel_release, start_time)",
	"CREATE TABLE phases ("
	" run_id TEXT NOT NULL, idx INTEGER NOT NULL, phase TEXT NOT NULL,"
	" PRIMARY KEY (run_id, idx))",
	"CREATE TABLE summary_metrics ("
	" run_id TEXT NOT NULL, seq INTEGER NOT NULL, phase TEXT NOT NULL,"
	" metric TEXT NOT NULL, value DOUBLE PRECISION, unit TEXT NOT NULL,"
	" headline INTEGER NOT NULL,"
	" PRIMARY KEY (run_id, seq))",
	"CREATE INDEX summary_by_metric ON summary_metrics (metric, phase)",
	"CREATE TABLE region_samples ("
	" run_id TEXT NOT NULL, sample INTEGER NOT NULL,"
	" t_s DOUBLE PRECISION NOT NULL, phase TEXT,"
	" node INTEGER NOT NULL, region INTEGER NOT NULL,"
	" present_pages BIGINT, free_pages BIGINT, used_pages BIGINT,"
	" anon_pages BIGINT, file_pages BIGINT, slab_pages BIGINT,"
	" pgtable_pages BIGINT, other_pages BIGINT, uninit_pages BIGINT,"
	" used_pages_lo BIGINT,"
	" PRIMARY KEY (run_id, sample, node, region))",
	"CREATE TABLE workload_metrics ("
	" run_id TEXT NOT NULL, seq INTEGER NOT NULL, phase TEXT,"
	" workload TEXT NOT NULL, thread TEXT NOT NULL, metric TEXT NOT NULL,"
	" value DOUBLE PRECISION, unit TEXT NOT NULL,"
	" PRIMARY KEY (run_id, seq))",
	"CREATE TABLE events ("
	" run_id TEXT NOT NULL, seq INTEGER NOT NULL,"
	" t_s DOUBLE PRECISION NOT NULL, phase TEXT, event TEXT NOT NULL,"
	" detail TEXT,"
	" PRIMARY KEY (run_id, seq))",
	"INSERT INTO schema_version (version) VALUES (1)",
	NULL
};

/* 2: how the counts were read (results.scan), for compare's notes. */
static const char *const store_schema_v2[] = {
	"ALTER TABLE runs ADD COLUMN scan TEXT",
	NULL
};

/*
 * 3: whether the run was made in a regionbench vm boot and what that
 * boot's kernel reported, so a gate on stored runs checks the kernel as
 * one on directories does.
 */
static const char *const store_schema_v3[] = {
	"ALTER TABLE runs ADD COLUMN guest INTEGER",
	"ALTER TABLE runs ADD COLUMN guest_kernel_report TEXT",
	NULL
};

static const char *const *const store_migrations[STORE_SCHEMA_VERSION] = {
	store_schema_v1,
	store_schema_v2,
	store_schema_v3
};

/* The tables that hold a run's rows, for replacing a run. */
static const char *const store_run_tables[] = {
	"DELETE FROM phases WHERE run_id = $1",
	"DELETE FROM summary_metrics WHERE run_id = $1",
	"DELETE FROM region_samples WHERE run_id = $1",
	"DELETE FROM workload_metrics WHERE run_id = $1",
	"DELETE FROM events WHERE run_id = $1",
	"DELETE FROM runs WHERE run_id = $1",
	NULL
};

static int
st_exec(struct store *st, const char *sql, int n, const char *const *params,
    char **cause)
{
	return (st->engine->exec(st->conn, sql, n, params, cause));
}

/* Run a query through the engine, a row at a time. */
int
st_query(struct store *st, const char *sql, int n, const char *const *params,
    store_row_fn row, void *arg, char **cause)
{
	return (st->engine->query(st->conn, sql, n, params, row, arg, cause));
}

/* Row callbacks that keep the first column as a number or a text. */
static int
row_long(void *arg, int ncols, const char *const *cols)
{
	long *v = arg;

	if (ncols > 0 && cols[0] != NULL)
		*v = strtol(cols[0], NULL, 10);
	return (0);
}

static int
row_count(void *arg, int ncols, const char *const *cols)
{
	(void)ncols;
	(void)cols;
	(*(long *)arg)++;
	return (0);
}

/* The schema version, 0 for an empty database. */
int
store_version(struct store *st, long *version, char **cause)
{
	long tables = 0;
	int rc;

	*version = 0;
	if (st->engine == &store_engine_sqlite)
		rc = st_query(st, "SELECT name FROM sqlite_master WHERE "
		    "type = 'table' AND name = 'schema_version'", 0, NULL,
		    row_count, &tables, cause);
	else
		rc = st_query(st, "SELECT table_name FROM "
		    "information_schema.tables WHERE table_name = "
		    "'schema_version' AND table_schema = current_schema()", 0,
		    NULL, row_count, &tables, cause);
	if (rc != 0 || tables == 0)
		return (rc);
	*version = -1;
	if ((rc = st_query(st, "SELECT MAX(version) FROM schema_version", 0,
	    NULL, row_long, version, cause)) != 0)
		return (rc);
	if (*version < 1)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: schema_version "
		    "holds no version: not a regionbench database", st->url));
	return (0);
}

/* Bring the schema up to STORE_SCHEMA_VERSION (inside a transaction). */
static int
store_migrate(struct store *st, char **cause)
{
	const char *const *step;
	char v[24];
	const char *param[1] = { v };
	long version;
	int rc;

	if ((rc = store_version(st, &version, cause)) != 0)
		return (rc);
	if (version > STORE_SCHEMA_VERSION)
		return (fail_with(cause, RB_EXIT_ENV, "%s: schema version %ld "
		    "is newer than this regionbench's (%d): use a newer "
		    "regionbench", st->url, version, STORE_SCHEMA_VERSION));
	for (; version < STORE_SCHEMA_VERSION; version++) {
		for (step = store_migrations[version]; *step != NULL; step++) {
			if ((rc = st_exec(st, *step, 0, NULL, cause)) != 0)
				return (rc);
		}
		snprintf(v, sizeof v, "%ld", version + 1);
		if ((rc = st_exec(st, "UPDATE schema_version SET version = $1",
		    1, param, cause)) != 0)
			return (rc);
	}
	return (0);
}

/* The value of a hex digit, -1 for none. */
static int
hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/* Do the n bytes at key, percent-decoded, spell "password" (any case)? */
static int
key_is_password(const char *key, size_t n)
{
	const char *want = "password";
	size_t i;
	int hi, lo, c;

	for (i = 0; i < n; i++, want++) {
		c = (unsigned char)key[i];
		if (c == '%' && i + 2 < n &&
		    (hi = hex_value(key[i + 1])) >= 0 &&
		    (lo = hex_value(key[i + 2])) >= 0) {
			c = hi * 16 + lo;
			i += 2;
		}
		if (*want == '\0' || tolower(c) != *want)
			return (0);
	}
	return (*want == '\0');
}

/*
 * The URL as messages show it, for URLs libpq does not parse: a password
 * (user:PASSWORD@, or a key that spells password, percent-encoded or not)
 * becomes "***", since messages end up in CI logs.
 */
static char *
url_masked(const char *url)
{
	char *out = xstrdup(url), *auth, *end, *sign, *colon, *next;
	size_t at, key, n;

	if ((auth = strstr(out, "://")) != NULL) {
		auth += 3;
		end = auth + strcspn(auth, "/?");
		sign = memchr(auth, '@', end - auth);
		colon = sign != NULL ? memchr(auth, ':', sign - auth) : NULL;
		if (colon != NULL) {
			next = xasprintf("%.*s***%s", (int)(colon + 1 - out),
			    out, sign);
			free(out);
			out = next;
		}
	}
	/* Every key=value, after ?, & or a space (keyword/value strings). */
	for (at = 0; out[at] != '\0'; at++) {
		if (at > 0 && strchr("?& ", out[at - 1]) == NULL)
			continue;
		key = at;
		n = strcspn(out + key, "=& ");
		if (out[key + n] != '=' || !key_is_password(out + key, n))
			continue;
		at = key + n + 1;
		n = strcspn(out + at, "& ");
		next = xasprintf("%.*s***%s", (int)at, out, out + at + n);
		free(out);
		out = next;
		at += 2;
	}
	return (out);
}

/* The URL as messages show it, the password masked. */
char *
store_url_shown(const char *url)
{
	char *shown;

	if ((strncmp(url, "postgresql://", 13) == 0 ||
	    strncmp(url, "postgres://", 11) == 0) &&
	    (shown = store_engine_postgresql.shown(url)) != NULL)
		return (shown);
	return (url_masked(url));
}

/*
 * A SQLite database name that keeps what is stored in a file: not
 * ":memory:", not empty (a temporary database), not a "file:" URI (which
 * this SQLite may read as one, with mode=memory and the like).
 */
static int
sqlite_name_ok(const char *target, const char *shown, char **cause)
{
	if (*target == '\0' || strcmp(target, ":memory:") == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "--db %s: an in-memory "
		    "database keeps nothing: name a file, sqlite:PATH",
		    shown));
	if (strncmp(target, "file:", 5) == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "--db %s: SQLite URI "
		    "names are not taken: name a file, sqlite:PATH (a file "
		    "called file:... is sqlite:./file:...)", shown));
	return (0);
}

/*
 * Open the SQLite file.  A selection (create 0) never creates one: a
 * database that does not exist holds no runs.  A database owned by
 * another user is read with a warning: whoever owns it decides what it
 * holds.  No file is ever removed here: another store may have opened it
 * (a removed file's journal name would be shared with the next file's).
 */
static int
store_open_sqlite(struct store *st, int create, char **cause)
{
	struct stat sb;

	if (lstat(st->target, &sb) == -1 && errno == ENOENT && !create)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: no runs stored "
		    "yet, the file does not exist (regionbench store DIR --db "
		    "URL)", st->url));
	if (lstat(st->target, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    sb.st_uid != geteuid() && !st->warned) {
		st->warned = 1;
		log_warnx("%s is owned by uid %lu, not by this user: runs read "
		    "from it are whatever that user put there", st->url,
		    (unsigned long)sb.st_uid);
	}
	if ((st->conn = st->engine->open(st->target, cause)) == NULL)
		return (-RB_EXIT_ENV);
	return (0);
}

int
store_open(const char *url, int create, struct store **out, char **cause)
{
	struct store *st;
	int rc;

	st = xcalloc(1, sizeof *st);
	st->url = store_url_shown(url);
	if (strncmp(url, "sqlite:", 7) == 0) {
		st->engine = &store_engine_sqlite;
		st->target = xstrdup(url + 7);
		if ((rc = sqlite_name_ok(st->target, st->url, cause)) != 0)
			goto fail;
		if ((rc = store_open_sqlite(st, create, cause)) != 0)
			goto fail;
	} else if (strncmp(url, "postgresql://", 13) == 0 ||
	    strncmp(url, "postgres://", 11) == 0) {
		st->engine = &store_engine_postgresql;
		st->target = xstrdup(url);
		if ((st->conn = st->engine->open(st->target, cause)) == NULL) {
			rc = -RB_EXIT_ENV;
			if (cause != NULL && *cause != NULL &&
			    strncmp(*cause, "--db:", 5) == 0)
				rc = -RB_EXIT_INPUT;
			goto fail;
		}
	} else {
		rc = fail_with(cause, RB_EXIT_INPUT, "--db %s: expected "
		    "sqlite:PATH or postgresql://[user@][host][:port]/dbname "
		    "(a libpq URI)", st->url);
		goto fail;
	}
	*out = st;
	return (0);
fail:
	free(st->target);
	free(st->url);
	free(st);
	return (rc);
}

void
store_close(struct store *st)
{
	if (st == NULL)
		return;
	if (st->conn != NULL)
		st->engine->close(st->conn);
	free(st->target);
	free(st->url);
	free(st);
}

const char *
store_describe(const struct store *st)
{
	return (st->url);
}

/* ---- loading ---- */

/* Numbers as statement parameters: exact for integers, %.17g else. */
static char *
par_u64(uint64_t v)
{
	return (v == RESULTS_UNKNOWN ? NULL : xasprintf("%" PRIu64, v));
}

static char *
par_double(double v)
{
	if (isnan(v))
		return (xstrdup("NaN"));
	if (isinf(v))
		return (xstrdup(v > 0 ? "Infinity" : "-Infinity"));
	return (xasprintf("%.17g", v));
}

/* Run one insert whose parameters are owned strings, then free them. */
static int
store_insert(struct store *st, const char *sql, int n, char **params,
    char **cause)
{
	int i, rc;

	rc = st_exec(st, sql, n, (const char *const *)params, cause);
	for (i = 0; i < n; i++) {
		free(params[i]);
		params[i] = NULL;
	}
	return (rc);
}

static const char *
phase_name(const struct results *res, int phase)
{
	return (phase >= 0 && phase < res->nphases ? res->phases[phase] :
	    NULL);
}

static char *
dup_or_null(const char *s)
{
	return (s != NULL ? xstrdup(s) : NULL);
}

/* The run's own row, its phases and its summary. */
static int
store_insert_run(struct store *st, const char *id, const char *dir,
    const struct results *res, const struct summary *sum, const char *shape,
    const struct metrics_options *mo, char **cause)
{
	char *p[22], now[32];
	time_t t = time(NULL);
	struct tm tm;
	int i, rc;

	gmtime_r(&t, &tm);
	strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
	p[0] = xstrdup(id);
	p[1] = xstrdup(res->host);
	p[2] = xstrdup(res->kernel_release);
	p[3] = dup_or_null(res->kernel_version);
	p[4] = dup_or_null(res->boot_id);
	p[5] = dup_or_null(res->suite);
	p[6] = xstrdup(res->label);
	p[7] = dup_or_null(res->source);
	p[8] = dup_or_null(res->command);
	p[9] = xstrdup(res->status);
	p[10] = dup_or_null(res->start_time);
	p[11] = dup_or_null(res->end_time);
	p[12] = par_u64(res->page_size);
	p[13] = res->region_size_bytes != 0 ? par_u64(res->region_size_bytes) :
	    NULL;
	p[14] = xasprintf("%d", res->nregions);
	p[15] = xstrdup(shape);
	p[16] = par_u64(mo->empty_tolerance);
	p[17] = xstrdup(dir);
	p[18] = xstrdup(now);
	p[19] = dup_or_null(res->scan);
	p[20] = xasprintf("%d", res->guest);
	p[21] = dup_or_null(res->guest_kernel_report);
	if ((rc = store_insert(st, "INSERT INTO runs (run_id, host, "
	    "kernel_release, kernel_version, boot_id, suite, label, source, "
	    "command, status, start_time, end_time, page_size, "
	    "region_size_bytes, nregions, shape, empty_tolerance_pages, path, "
	    "stored_at, scan, guest, guest_kernel_report) VALUES ($1, $2, $3, "
	    "$4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, "
	    "$18, $19, $20, $21, $22)", 22, p, cause)) != 0)
		return (rc);
	for (i = 0; i < res->nphases; i++) {
		p[0] = xstrdup(id);
		p[1] = xasprintf("%d", i);
		p[2] = xstrdup(res->phases[i]);
		if ((rc = store_insert(st, "INSERT INTO phases (run_id, idx, "
		    "phase) VALUES ($1, $2, $3)", 3, p, cause)) != 0)
			return (rc);
	}
	for (i = 0; i < sum->n; i++) {
		p[0] = xstrdup(id);
		p[1] = xasprintf("%d", i);
		p[2] = xstrdup(res->phases[sum->rows[i].phase]);
		p[3] = xstrdup(sum->rows[i].metric);
		p[4] = par_double(sum->rows[i].value);
		p[5] = xstrdup(sum->rows[i].unit);
		p[6] = xasprintf("%d", sum->rows[i].headline);
		if ((rc = store_insert(st, "INSERT INTO summary_metrics "
		    "(run_id, seq, phase, metric, value, unit, headline) "
		    "VALUES ($1, $2, $3, $4, $5, $6, $7)", 7, p, cause)) != 0)
			return (rc);
	}
	return (0);
}

/* Every sample of every region, the workloads' metrics and the events. */
static int
store_insert_rows(struct store *st, const char *id, const struct results *res,
    char **cause)
{
	char *p[16];
	size_t at;
	int s, r, c, i, rc;

	for (s = 0; s < res->samples.n; s++) {
		for (r = 0; r < res->nregions; r++) {
			at = (size_t)s * res->nregions + r;
			p[0] = xstrdup(id);
			p[1] = xasprintf("%d", s);
			p[2] = par_double(res->samples.t[s]);
			p[3] = dup_or_null(phase_name(res,
			    res->samples.phase[s]));
			p[4] = xasprintf("%d", res->regions[r].node);
			p[5] = xasprintf("%d", res->regions[r].region);
			p[6] = par_u64(res->present[at]);
			p[7] = par_u64(res->free[at]);
			p[8] = par_u64(res->used[at]);
			for (c = 0; c < RESULTS_NCLASSES; c++)
				p[9 + c] = res->cls[c] != NULL ?
				    par_u64(res->cls[c][at]) : NULL;
			p[14] = res->uninit != NULL ? par_u64(res->uninit[at]) :
			    NULL;
			/* A sampled scan's fewest used pages; NULL: full. */
			p[15] = res->partial != NULL && res->partial[at] ?
			    par_u64(res->used_lo[at]) : NULL;
			if ((rc = store_insert(st, "INSERT INTO region_samples "
			    "(run_id, sample, t_s, phase, node, region, "
			    "present_pages, free_pages, used_pages, anon_pages, "
			    "file_pages, slab_pages, pgtable_pages, "
			    "other_pages, uninit_pages, used_pages_lo) VALUES "
			    "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
			    "$13, $14, $15, $16)", 16, p, cause)) != 0)
				return (rc);
		}
	}
	for (i = 0; i < res->nwl_rows; i++) {
		p[0] = xstrdup(id);
		p[1] = xasprintf("%d", i);
		p[2] = dup_or_null(phase_name(res, res->wl_rows[i].phase));
		p[3] = xstrdup(res->wl_rows[i].workload);
		p[4] = xstrdup(res->wl_rows[i].thread);
		p[5] = xstrdup(res->wl_rows[i].metric);
		p[6] = isnan(res->wl_rows[i].value) ? NULL :
		    par_double(res->wl_rows[i].value);
		p[7] = xstrdup(res->wl_rows[i].unit);
		if ((rc = store_insert(st, "INSERT INTO workload_metrics "
		    "(run_id, seq, phase, workload, thread, metric, value, "
		    "unit) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", 8, p,
		    cause)) != 0)
			return (rc);
	}
	for (i = 0; i < res->nevents; i++) {
		p[0] = xstrdup(id);
		p[1] = xasprintf("%d", i);
		p[2] = par_double(res->events[i].t);
		p[3] = dup_or_null(phase_name(res, res->events[i].phase));
		p[4] = xstrdup(res->events[i].event);
		p[5] = dup_or_null(res->events[i].detail);
		if ((rc = store_insert(st, "INSERT INTO events (run_id, seq, "
		    "t_s, phase, event, detail) VALUES ($1, $2, $3, $4, $5, "
		    "$6)", 6, p, cause)) != 0)
			return (rc);
	}
	return (0);
}

/* Load one run and compute its summary, as storing it needs. */
static int
store_prepare(const char *dir, int partial, const struct metrics_options *mo,
    struct results **out, struct summary *sum, char **cause)
{
	struct results *res;
	struct metrics *m;
	int rc;

	if ((rc = results_load(dir, &res, cause)) != 0)
		return (rc);
	if (strcmp(res->status, "complete") != 0 && !partial) {
		rc = fail_with(cause, RB_EXIT_INPUT, "%s: status %s, not "
		    "complete: not stored (--partial stores it anyway)", dir,
		    res->status);
		results_free(res);
		return (rc);
	}
	if ((rc = metrics_compute(res, mo, &m, cause)) != 0) {
		results_free(res);
		return (rc);
	}
	if (sum != NULL)
		metrics_summarize(m, sum);
	metrics_free(m);
	*out = res;
	return (0);
}

/*
 * Before the first store into a SQLite file that does not exist yet,
 * check every run as store_load would read it, so that bad input fails
 * before the file is made (it is never removed again: see
 * store_open_sqlite).
 */
int
store_check_new(const char *url, char **dirs, int ndirs, int partial,
    const struct metrics_options *mo, char **cause)
{
	struct results *res;
	struct stat sb;
	int i, rc;

	if (strncmp(url, "sqlite:", 7) != 0 || lstat(url + 7, &sb) == 0 ||
	    errno != ENOENT)
		return (0);
	for (i = 0; i < ndirs; i++) {
		if ((rc = store_prepare(dirs[i], partial, mo, &res, NULL,
		    cause)) != 0)
			return (rc);
		results_free(res);
	}
	return (0);
}

/* Load one run directory, replacing the run when it is already stored. */
static int
store_load_one(struct store *st, const char *dir, int partial,
    const struct metrics_options *mo, char ***ids, int *nids,
    struct store_loaded *done, char **cause)
{
	struct results *res;
	struct summary sum = { NULL, 0 };
	const char *param[1];
	char *id, *shape, *abs;
	long exists = 0;
	int i, rc;

	if ((rc = store_prepare(dir, partial, mo, &res, &sum, cause)) != 0)
		return (rc);
	id = compare_run_id(res);
	/* A run named twice in one call (store r1 r1, overlapping trees). */
	for (i = 0; i < *nids; i++) {
		if (strcmp((*ids)[i], id) == 0) {
			log_warnx("%s: run %s is already in this store (named "
			    "twice): stored once", dir, id);
			free(id);
			summary_free(&sum);
			results_free(res);
			return (0);
		}
	}
	*ids = xreallocarray(*ids, *nids + 1, sizeof **ids);
	(*ids)[(*nids)++] = xstrdup(id);
	shape = compare_run_shape(res);
	abs = realpath(dir, NULL);
	param[0] = id;
	rc = st_query(st, "SELECT run_id FROM runs WHERE run_id = $1", 1,
	    param, row_count, &exists, cause);
	for (i = 0; rc == 0 && exists && store_run_tables[i] != NULL; i++)
		rc = st_exec(st, store_run_tables[i], 1, param, cause);
	if (rc == 0)
		rc = store_insert_run(st, id, abs != NULL ? abs : dir, res,
		    &sum, shape, mo, cause);
	if (rc == 0)
		rc = store_insert_rows(st, id, res, cause);
	if (rc == 0) {
		done->runs++;
		done->replaced += exists != 0;
	}
	free(abs);
	free(shape);
	free(id);
	summary_free(&sum);
	results_free(res);
	return (rc);
}

/*
 * Begin the load's transaction holding the write lock.  A SQLite file
 * removed or replaced since it was opened is opened again, so that
 * nothing is written into a file no path names.
 */
static int
store_begin(struct store *st, char **cause)
{
	char *ignored = NULL;
	int tries, rc;

	for (tries = 0;; tries++) {
		rc = st->engine->begin(st->conn, &ignored);
		if (st->engine->moved == NULL || !st->engine->moved(st->conn)) {
			if (rc != 0 && cause != NULL) {
				*cause = ignored;
				ignored = NULL;
			}
			free(ignored);
			return (rc);
		}
		free(ignored);
		ignored = NULL;
		if (rc == 0)
			st_exec(st, "ROLLBACK", 0, NULL, &ignored);
		free(ignored);
		ignored = NULL;
		if (tries == 10)
			return (fail_with(cause, RB_EXIT_ENV, "%s: the file "
			    "keeps being removed or replaced while opened",
			    st->url));
		st->engine->close(st->conn);
		st->conn = NULL;
		if ((rc = store_open_sqlite(st, 1, cause)) != 0)
			return (rc);
	}
}

int
store_load(struct store *st, char **dirs, int ndirs, int partial,
    const struct metrics_options *mo, struct store_loaded *done,
    char **cause)
{
	char *ignored = NULL, **ids = NULL;
	int nids = 0, i, rc;

	memset(done, 0, sizeof *done);
	if ((rc = store_begin(st, cause)) != 0)
		return (rc);
	rc = store_migrate(st, cause);
	for (i = 0; rc == 0 && i < ndirs; i++)
		rc = store_load_one(st, dirs[i], partial, mo, &ids, &nids,
		    done, cause);
	if (rc == 0)
		rc = st_exec(st, "COMMIT", 0, NULL, cause);
	if (rc != 0) {
		st_exec(st, "ROLLBACK", 0, NULL, &ignored);
		free(ignored);
		memset(done, 0, sizeof *done);
	}
	for (i = 0; i < nids; i++)
		free(ids[i]);
	free(ids);
	return (rc);
}
