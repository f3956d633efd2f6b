/*
 * What a database engine gives the results database (store.c): statements
 * with text parameters $1..$N (NULL is SQL NULL) and queries that hand each
 * row's columns to a callback as text.  One file per engine.  Also what
 * store.c shares with store-select.c: the open database and its queries.
 */
#ifndef RB_STORE_INT_H
#define RB_STORE_INT_H

typedef int (*store_row_fn)(void *arg, int ncols, const char *const *cols);

struct store_engine {
	const char	*name;
	/* target: the path (sqlite) or the whole URL (postgresql). */
	void		*(*open)(const char *target, char **cause);
	void		 (*close)(void *conn);
	int		 (*exec)(void *conn, const char *sql, int n,
			     const char *const *params, char **cause);
	int		 (*query)(void *conn, const char *sql, int n,
			     const char *const *params, store_row_fn row,
			     void *arg, char **cause);
	/*
	 * Start the one transaction of a load holding the database's write
	 * lock, so that concurrent loads wait for each other (busy timeout,
	 * advisory lock) instead of failing or interleaving.
	 */
	int		 (*begin)(void *conn, char **cause);
	/* Has the file been removed or replaced since it was opened? */
	int		 (*moved)(void *conn);
	/* target as messages show it (password masked), NULL: unknown. */
	char		*(*shown)(const char *target);
	/* SQL type of an auto-numbered key is not needed: keys are texts. */
};

extern const struct store_engine store_engine_sqlite;
extern const struct store_engine store_engine_postgresql;

/* An open database (store.c). */
struct store {
	const struct store_engine *engine;
	void		*conn;
	char		*url;		/* as messages show it */
	char		*target;	/* the path (sqlite) or the URL */
	int		 warned;	/* about the file's owner */
};

int	 store_version(struct store *st, long *version, char **cause);
int	 st_query(struct store *st, const char *sql, int n,
	     const char *const *params, store_row_fn row, void *arg,
	     char **cause);

#endif
