/*
 * The results database in SQLite, embedded: the default, a file next to
 * the results.  Statements are prepared once per text and reused while the
 * same text repeats, which is how store.c inserts rows.
 */
#include "config.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store-int.h"

struct sqlite_conn {
	sqlite3		*db;
	sqlite3_stmt	*stmt;		/* the last statement prepared */
	char		*stmt_sql;	/* and its text */
};

static void *
sqlite_open(const char *path, char **cause)
{
	struct sqlite_conn *c = xcalloc(1, sizeof *c);

	if (sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
		fail_with(cause, RB_EXIT_ENV, "sqlite:%s: %s%s", path,
		    c->db != NULL ? sqlite3_errmsg(c->db) : "out of memory",
		    errno == ENOENT ? " (its directory does not exist: run "
		    "where results/ is, or name the database with --db)" : "");
		sqlite3_close(c->db);
		free(c);
		return (NULL);
	}
	/* Another regionbench may be storing into the same file. */
	sqlite3_busy_timeout(c->db, 30000);
	return (c);
}

static void
sqlite_close(void *conn)
{
	struct sqlite_conn *c = conn;

	sqlite3_finalize(c->stmt);
	free(c->stmt_sql);
	sqlite3_close(c->db);
	free(c);
}

/* The statement for sql with params bound, or NULL with a cause. */
static sqlite3_stmt *
sqlite_bind(struct sqlite_conn *c, const char *sql, int n,
    const char *const *params, char **cause)
{
	int i;

	if (c->stmt == NULL || strcmp(c->stmt_sql, sql) != 0) {
		sqlite3_finalize(c->stmt);
		free(c->stmt_sql);
		c->stmt = NULL;
		c->stmt_sql = NULL;
		if (sqlite3_prepare_v2(c->db, sql, -1, &c->stmt, NULL) !=
		    SQLITE_OK) {
			fail_with(cause, RB_EXIT_ENV, "sqlite: %s",
			    sqlite3_errmsg(c->db));
			return (NULL);
		}
		c->stmt_sql = xstrdup(sql);
	} else {
		sqlite3_reset(c->stmt);
		sqlite3_clear_bindings(c->stmt);
	}
	for (i = 0; i < n; i++) {
		if (params[i] == NULL)
			sqlite3_bind_null(c->stmt, i + 1);
		else
			sqlite3_bind_text(c->stmt, i + 1, params[i], -1,
			    SQLITE_TRANSIENT);
	}
	return (c->stmt);
}

static int
sqlite_query(void *conn, const char *sql, int n, const char *const *params,
    store_row_fn row, void *arg, char **cause)
{
	struct sqlite_conn *c = conn;
	sqlite3_stmt *st;
	const char **cols = NULL;
	char (*num)[32];
	int rc, i, ncols, ret = 0;

	if ((st = sqlite_bind(c, sql, n, params, cause)) == NULL)
		return (-RB_EXIT_ENV);
	ncols = sqlite3_column_count(st);
	cols = xcalloc(ncols + 1, sizeof *cols);
	num = xcalloc(ncols + 1, sizeof *num);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (row == NULL)
			continue;
		for (i = 0; i < ncols; i++) {
			/*
			 * A REAL as the double it is: SQLite's text of it
			 * has 15 digits, which a value read back from a
			 * directory does not round to.
			 */
			if (sqlite3_column_type(st, i) == SQLITE_FLOAT) {
				snprintf(num[i], sizeof num[i], "%.17g",
				    sqlite3_column_double(st, i));
				cols[i] = num[i];
			} else
				cols[i] = (const char *)
				    sqlite3_column_text(st, i);
		}
		if ((ret = row(arg, ncols, cols)) != 0)
			break;
	}
	free(num);
	free(cols);
	if (ret == 0 && rc != SQLITE_DONE)
		ret = fail_with(cause, RB_EXIT_ENV, "sqlite: %s",
		    sqlite3_errmsg(c->db));
	sqlite3_reset(st);
	return (ret);
}

static int
sqlite_exec(void *conn, const char *sql, int n, const char *const *params,
    char **cause)
{
	return (sqlite_query(conn, sql, n, params, NULL, NULL, cause));
}

/*
 * BEGIN IMMEDIATE takes the write lock at once, where the busy timeout
 * applies: a deferred transaction that reads first and writes later fails
 * at once with "database is locked" when another writer got in between.
 */
static int
sqlite_begin(void *conn, char **cause)
{
	return (sqlite_exec(conn, "BEGIN IMMEDIATE", 0, NULL, cause));
}

/* Was the file unlinked or replaced since this connection opened it? */
static int
sqlite_moved(void *conn)
{
	struct sqlite_conn *c = conn;
	int moved = 0;

	if (sqlite3_file_control(c->db, "main", SQLITE_FCNTL_HAS_MOVED,
	    &moved) != SQLITE_OK)
		return (0);
	return (moved);
}

const struct store_engine store_engine_sqlite = {
	.name = "sqlite",
	.open = sqlite_open,
	.close = sqlite_close,
	.exec = sqlite_exec,
	.query = sqlite_query,
	.begin = sqlite_begin,
	.moved = sqlite_moved,
};
