/*
 * The results database in PostgreSQL through libpq: what a team whose CI
 * runners store into one server uses.  Every statement goes with its
 * parameters apart from its text (PQexecParams).
 */
#include "config.h"

#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store-int.h"

/* libpq's message without its trailing newline. */
static void
pg_fail(char **cause, PGconn *conn, const char *what)
{
	char *msg = xstrdup(PQerrorMessage(conn));
	size_t len = strlen(msg);

	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		msg[--len] = '\0';
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

static void *
pg_open(const char *url, char **cause)
{
	PGconn *conn;

	conn = PQconnectdb(url);
	if (conn == NULL || PQstatus(conn) != CONNECTION_OK) {
		pg_fail(cause, conn, "cannot connect");
		PQfinish(conn);
		return (NULL);
	}
	PQsetNoticeProcessor(conn, pg_quiet, NULL);
	return (conn);
}

static void
pg_close(void *conn)
{
	PQfinish(conn);
}

static int
pg_query(void *conn, const char *sql, int n, const char *const *params,
    store_row_fn row, void *arg, char **cause)
{
	PGresult *res;
	const char **cols;
	int r, i, nrows, ncols, ret = 0;

	res = PQexecParams(conn, sql, n, NULL, params, NULL, NULL, 0);
	if (res == NULL || (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)) {
		pg_fail(cause, conn, "statement failed");
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

const struct store_engine store_engine_postgresql = {
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.exec = pg_exec,
	.query = pg_query,
};
