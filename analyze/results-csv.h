/*
 * The CSV reader behind results.c: one file of a results directory through
 * libcsv (CSV_STRICT | CSV_APPEND_NULL), columns found by the header names
 * of csv-schema.h, each row's fields copied into one reusable arena (no
 * allocation per field) and handed to a row function, numbers parsed by
 * hand.  Errors name file:line.  Only for analyze/results*.c.
 */
#ifndef RB_RESULTS_CSV_H
#define RB_RESULTS_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "csv-schema.h"
#include "log.h"

#define RESULTS_CSV_MAX_COLUMNS	32

struct reader;
typedef int (*row_fn)(struct reader *, void *);

/* State of one CSV file being read. */
struct reader {
	const char		*path;
	const struct csv_column	*cols;
	int			 ncols;
	/* file column -> slot; slot -> offset and length in the arena */
	int			 map[RESULTS_CSV_MAX_COLUMNS];
	int			 nfile;		/* header columns */
	int			 field;		/* field in the row */
	int			 header_done;
	long			 line;
	char			*arena;
	size_t			 arena_len;
	size_t			 arena_size;
	size_t			 off[RESULTS_CSV_MAX_COLUMNS];
	size_t			 len[RESULTS_CSV_MAX_COLUMNS];
	int			 have[RESULTS_CSV_MAX_COLUMNS];
	row_fn			 row;
	void			*ctx;
	int			 rc;
	char			*cause;
	long			 rows;
	size_t			 row_bytes;	/* of the row so far */
	int			 tolerate_cut;	/* run incomplete */
	int			 cut;		/* dropped a cut row */
};

/* Field of slot i, or NULL when the column is absent from the file. */
static inline const char *
reader_field(struct reader *rd, int slot)
{
	if (!rd->have[slot])
		return (NULL);
	return (rd->arena + rd->off[slot]);
}

void	 reader_fail(struct reader *rd, const char *fmt, ...) RB_PRINTF(2, 3);
int	 reader_run(const char *dir, enum csv_table table, int tolerate_cut,
	     row_fn row, void *ctx, long *rows, char **cause);
int	 field_u64(struct reader *rd, int slot, uint64_t *out);
int	 field_int(struct reader *rd, int slot, int max, int *out);
int	 field_double(struct reader *rd, int slot, double *out);

/* Shared by results.c (the tables) and results-meta.c (meta.json). */
struct results;
int	 results_phase_intern(struct results *res, const char *name);
int	 results_meta_load(struct results *res, char **cause);
void	 results_guest_boot(struct results *res);
int	 results_read_tables(struct results *res, char **cause);

#endif
