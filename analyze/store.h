/*
 * The results database: results directories loaded into SQLite (embedded,
 * the default) or PostgreSQL with one schema, so that runs from many
 * machines and months can be queried and compared.  See docs/database.md.
 *
 * A database is named by a URL: "sqlite:PATH" or "postgresql://..." (any
 * libpq connection URI).  Loading is idempotent (runs are keyed by the
 * run_id of meta.json) and transactional (one transaction per store_load
 * call: a failure leaves the database as it was).  Selections
 * ("db:kernel=6.1*,suite=quick,last=5") are parsed strictly and matched in
 * C; no text from a selector is ever part of an SQL statement.
 */
#ifndef RB_STORE_H
#define RB_STORE_H

#include "compare-run.h"
#include "metrics.h"

#define STORE_DEFAULT_URL	"sqlite:results/regionbench.db"
#define STORE_SCHEMA_VERSION	3
#define STORE_SELECTOR_PREFIX	"db:"

struct store;

/* What store_load did with one directory. */
struct store_loaded {
	int	 runs;		/* runs written (new or replaced) */
	int	 replaced;	/* of which were already in the database */
	int	 refused;	/* incomplete runs left out (no --partial) */
};

/* A selection of runs: each field NULL (or 0) when not given. */
struct store_selector {
	char	*kernel;	/* kernel release, fnmatch pattern */
	char	*suite;
	char	*label;
	char	*host;
	char	*source;
	char	*status;	/* default: complete */
	char	*run;		/* run_id, fnmatch pattern */
	int	 last;		/* the most recent N (by start time) */
};

int	 store_open(const char *url, int create, struct store **out,
	     char **cause);
int	 store_check_new(const char *url, char **dirs, int ndirs, int partial,
	     const struct metrics_options *mo, char **cause);
void	 store_close(struct store *st);
const char *store_describe(const struct store *st);
char	*store_url_shown(const char *url);
int	 store_load(struct store *st, char **dirs, int ndirs, int partial,
	     const struct metrics_options *mo, struct store_loaded *done,
	     char **cause);

int	 store_selector_parse(const char *text, struct store_selector *sel,
	     char **cause);
void	 store_selector_free(struct store_selector *sel);
int	 store_select_runs(struct store *st, const struct store_selector *sel,
	     const struct metrics_options *mo, struct compare_run ***runs,
	     int *nruns, char **cause);

/* store-dirs.c: every run below paths, for store and run --store. */
int	 store_dirs(const char *url, char **paths, int npaths, int partial,
	     uint64_t empty_tolerance, int quiet, char **cause);

#endif
