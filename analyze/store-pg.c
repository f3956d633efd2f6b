/*
 * The results database in PostgreSQL through libpq: what a team whose CI
 * runners store into one server uses.  Every statement goes with its
 * parameters apart from its text (PQexecParams).  URLs are parsed by
 * libpq's own conninfo parser, so what is masked in messages is exactly
 * what libpq takes for the password, however the URL spells its key.
 */
#include "config.h"

#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store-int.h"

/*
 * Concurrent loads take this transaction-level advisory lock first, so
 * that migrations and loads of the same run never race ("region" in
 * ASCII; any key other programs are unlikely to pick).
 */
#define PG_STORE_LOCK	"114101103105111110"

struct pg_conn {
	PGconn		*pg;
	char		*password;	/* as parsed, masked in messages */
};

/* Replace every occurrence of secret (when not empty) in text by ***. */
static char *
pg_mask(char *text, const char *secret)
{
	char *p, *next;
	size_t at = 0, n;

	if (secret == NULL || *secret == '\0')
		return (text);
	n = strlen(secret);
	while ((p = strstr(text + at, secret)) != NULL) {
		at = (size_t)(p - text);
		next = xasprintf("%.*s***%s", (int)at, text, p + n);
		free(text);
		text = next;
		at += 3;
	}
	return (text);
}

/*
 * A libpq message about a URL it could not parse quotes parts of that
 * URL (a token, a value, the whole URI), which may be the password: keep
 * the message, drop what it quotes.
 */
static char *
pg_unquote(const char *msg)
{
	char *out = xmalloc(strlen(msg) + 4), *o = out;
	const char *p = msg, *end;

	while (*p != '\0') {
		if (*p == '"' && (end = strchr(p + 1, '"')) != NULL) {
			memcpy(o, "\"***\"", 5);
			o += 5;
			p = end + 1;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
	return (out);
}

/* libpq's message without its trailing newline, the password masked. */
static void
pg_fail(char **cause, struct pg_conn *c, PGconn *pg, const char *what)
{
	char *msg = xstrdup(pg != NULL ? PQerrorMessage(pg) : "out of memory");
	size_t len = strlen(msg);

	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		msg[--len] = '\0';
	msg = pg_mask(msg, c != NULL ? c->password : NULL);
	fail_with(cause, RB_EXIT_ENV, "postgresql: %s: %s", what, msg);
	free(msg);
}

/* Notices (e.g. "relation exists, skipping") are not for users. */
static void
pg_quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* Parse url with libpq; NULL with a cause (nothing of the URL quoted). */
static PQconninfoOption *
pg_parse(const char *url, char **cause)
{
	PQconninfoOption *opts;
	char *err = NULL, *msg;

	if ((opts = PQconninfoParse(url, &err)) != NULL)
		return (opts);
	msg = pg_unquote(err != NULL ? err : "out of memory");
	msg[strcspn(msg, "\n")] = '\0';
	fail_with(cause, RB_EXIT_INPUT, "--db: not a libpq connection URI "
	    "(%s)", msg);
	free(msg);
	PQfreemem(err);
	return (NULL);
}

static void *
pg_open(const char *url, char **cause)
{
	PQconninfoOption *opts, *o;
	struct pg_conn *c;

	if ((opts = pg_parse(url, cause)) == NULL)
		return (NULL);
	c = xcalloc(1, sizeof *c);
	for (o = opts; o->keyword != NULL; o++) {
		if (strcmp(o->keyword, "password") == 0 && o->val != NULL)
			c->password = xstrdup(o->val);
	}
	PQconninfoFree(opts);
	c->pg = PQconnectdb(url);
	if (c->pg == NULL || PQstatus(c->pg) != CONNECTION_OK) {
		pg_fail(cause, c, c->pg, "cannot connect");
		PQfinish(c->pg);
		free(c->password);
		free(c);
		return (NULL);
	}
	PQsetNoticeProcessor(c->pg, pg_quiet, NULL);
	return (c);
}

static void
pg_close(void *conn)
{
	struct pg_conn *c = conn;

	PQfinish(c->pg);
	free(c->password);
	free(c);
}

static int
pg_query(void *conn, const char *sql, int n, const char *const *params,
    store_row_fn row, void *arg, char **cause)
{
	struct pg_conn *c = conn;
	PGresult *res;
	const char **cols;
	int r, i, nrows, ncols, ret = 0;

	res = PQexecParams(c->pg, sql, n, NULL, params, NULL, NULL, 0);
	if (res == NULL || (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)) {
		pg_fail(cause, c, c->pg, "statement failed");
		PQclear(res);
		return (-RB_EXIT_ENV);
	}
	nrows = PQntuples(res);
	ncols = PQnfields(res);
	cols = xcalloc(ncols + 1, sizeof *cols);
	for (r = 0; row != NULL && r < nrows && ret == 0; r++) {
		for (i = 0; i < ncols; i++)
			cols[i] = PQgetisnull(res, r, i) ? NULL :
			    PQgetvalue(res, r, i);
		ret = row(arg, ncols, cols);
	}
	free(cols);
	PQclear(res);
	return (ret);
}

static int
pg_exec(void *conn, const char *sql, int n, const char *const *params,
    char **cause)
{
	return (pg_query(conn, sql, n, params, NULL, NULL, cause));
}

/*
 * A transaction holding the store's advisory lock: a second load waits
 * for the first to commit, and then sees its schema and its runs (two
 * loads into an empty database would otherwise both create the tables,
 * and the same run from two jobs both insert it).
 */
static int
pg_begin(void *conn, char **cause)
{
	int rc;

	if ((rc = pg_exec(conn, "BEGIN", 0, NULL, cause)) != 0)
		return (rc);
	return (pg_exec(conn, "SELECT pg_advisory_xact_lock(" PG_STORE_LOCK
	    ")", 0, NULL, cause));
}

/* Append text to *out, percent-encoding all but unreserved characters. */
static void
pg_append_encoded(char **out, const char *text)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t len = strlen(*out);
	const unsigned char *p;
	char *o;

	*out = xreallocarray(*out, len + 3 * strlen(text) + 1, 1);
	o = *out + len;
	for (p = (const unsigned char *)text; *p != '\0'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p) != NULL)
			*o++ = (char)*p;
		else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o = '\0';
}

static void
pg_append(char **out, const char *text)
{
	char *old = *out;

	*out = xasprintf("%s%s", old, text);
	free(old);
}

/*
 * The URL rebuilt from what libpq parsed, every setting as a query
 * parameter and the password as ***: postgresql:///DB?host=...&user=...
 */
static char *
pg_shown(const char *url)
{
	PQconninfoOption *opts, *o;
	char *out, *err = NULL;
	int first = 1;

	if ((opts = PQconninfoParse(url, &err)) == NULL) {
		PQfreemem(err);
		return (NULL);
	}
	out = xstrdup("postgresql:///");
	for (o = opts; o->keyword != NULL; o++) {
		if (strcmp(o->keyword, "dbname") == 0 && o->val != NULL)
			pg_append_encoded(&out, o->val);
	}
	for (o = opts; o->keyword != NULL; o++) {
		if (o->val == NULL || strcmp(o->keyword, "dbname") == 0)
			continue;
		pg_append(&out, first ? "?" : "&");
		first = 0;
		pg_append(&out, o->keyword);
		pg_append(&out, "=");
		if (strcmp(o->keyword, "password") == 0)
			pg_append(&out, "***");
		else
			pg_append_encoded(&out, o->val);
	}
	PQconninfoFree(opts);
	return (out);
}

const struct store_engine store_engine_postgresql = {
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.exec = pg_exec,
	.query = pg_query,
	.begin = pg_begin,
	.shown = pg_shown,
};
