/*
 * Reading one CSV file of a results directory (results-csv.h).  Built for
 * hour-long 10 Hz runs: one big read buffer, fields copied into one
 * reusable row arena, numbers parsed by hand with strtod only as the slow
 * path.
 */
#include "config.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input-file.h"
#include "results.h"
#include "results-csv.h"

#define READ_CHUNK	(1 << 20)

/*
 * The longest line (row) read: real rows are a few hundred bytes, event
 * details a few KiB; a longer one is damage or hostile, and without a
 * bound it costs its size twice in memory (libcsv's field, our copy).
 */
#define READ_LINE_MAX	(1 << 20)

/* Record an error once; later rows are ignored. */
void
reader_fail(struct reader *rd, const char *fmt, ...)
{
	va_list ap;
	char *what;

	if (rd->rc != 0)
		return;
	va_start(ap, fmt);
	what = xvasprintf(fmt, ap);
	va_end(ap);
	rd->rc = -RB_EXIT_INPUT;
	rd->cause = xasprintf("%s:%ld: %s", rd->path, rd->line, what);
	free(what);
}

/* libcsv field callback: map header names, copy wanted fields. */
static void
reader_cb_field(void *data, size_t len, void *opaque)
{
	struct reader *rd = opaque;
	int i, slot;

	if (rd->rc != 0)
		return;
	rd->row_bytes += len + 1;
	if (rd->row_bytes > READ_LINE_MAX) {
		rd->line++;
		reader_fail(rd, "line longer than %d KiB", READ_LINE_MAX >> 10);
		return;
	}
	if (!rd->header_done) {
		if (rd->nfile >= RESULTS_CSV_MAX_COLUMNS) {
			reader_fail(rd, "more than %d columns in the header",
			    RESULTS_CSV_MAX_COLUMNS);
			return;
		}
		rd->map[rd->nfile] = -1;
		for (i = 0; i < rd->ncols; i++) {
			if (strlen(rd->cols[i].name) == len &&
			    memcmp(rd->cols[i].name, data, len) == 0) {
				if (rd->have[i]) {
					reader_fail(rd, "column '%s' appears "
					    "twice in the header",
					    rd->cols[i].name);
					return;
				}
				rd->map[rd->nfile] = i;
				rd->have[i] = 1;
			}
		}
		rd->nfile++;
		return;
	}
	if (rd->field < rd->nfile && (slot = rd->map[rd->field]) >= 0) {
		if (rd->arena_len + len + 1 > rd->arena_size) {
			while (rd->arena_len + len + 1 > rd->arena_size)
				rd->arena_size *= 2;
			rd->arena = xreallocarray(rd->arena, 1,
			    rd->arena_size);
		}
		memcpy(rd->arena + rd->arena_len, data, len + 1);
		rd->off[slot] = rd->arena_len;
		rd->len[slot] = len;
		rd->arena_len += len + 1;
	}
	rd->field++;
}

/* libcsv row callback: check the header or hand one row over. */
static void
reader_cb_row(int term, void *opaque)
{
	struct reader *rd = opaque;
	int i;

	rd->line++;
	rd->row_bytes = 0;
	if (rd->rc != 0)
		return;
	if (!rd->header_done) {
		for (i = 0; i < rd->ncols; i++) {
			if (csv_schema_required(&rd->cols[i]) &&
			    !rd->have[i]) {
				reader_fail(rd, "header lacks column '%s' "
				    "(is this a regionbench results file?)",
				    rd->cols[i].name);
				return;
			}
		}
		rd->header_done = 1;
		rd->field = 0;
		return;
	}
	/*
	 * A killed run may leave half a line at the end: every row is
	 * written with its newline, so a last line without one is cut, even
	 * when it happens to have all its fields (a number cut short).
	 */
	if (term == -1 && rd->tolerate_cut) {
		rd->cut = 1;
		return;
	}
	if (rd->field != rd->nfile) {
		reader_fail(rd, "expected %d fields as in the header, got %d",
		    rd->nfile, rd->field);
		return;
	}
	rd->rows++;
	if (rd->row(rd, rd->ctx) != 0 && rd->rc == 0)
		reader_fail(rd, "row rejected");
	rd->field = 0;
	rd->arena_len = 0;
}

/* Feed the whole of fd through libcsv into rd's callbacks. */
static void
reader_feed(struct reader *rd, int fd)
{
	struct csv_parser parser;
	ssize_t got;
	char *buf;

	if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI |
	    CSV_APPEND_NULL) != 0)
		die(RB_EXIT_ENV, "csv_init: out of memory");
	buf = xmalloc(READ_CHUNK);
	for (;;) {
		got = read(fd, buf, READ_CHUNK);
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1) {
			rd->line++;
			reader_fail(rd, "read: %s", strerror(errno));
			break;
		}
		if (got == 0)
			break;
		if (csv_parse(&parser, buf, got, reader_cb_field,
		    reader_cb_row, rd) != (size_t)got) {
			rd->line++;
			reader_fail(rd, "not valid CSV (%s)",
			    csv_strerror(csv_error(&parser)));
		}
		/* A field still open, not yet handed over, counts too. */
		if (rd->rc == 0 && rd->row_bytes + parser.entry_pos >
		    READ_LINE_MAX) {
			rd->line++;
			reader_fail(rd, "line longer than %d KiB",
			    READ_LINE_MAX >> 10);
		}
		if (rd->rc != 0)
			break;
	}
	/* A quoted field left open at the end is a cut line too. */
	if (rd->rc == 0 && csv_fini(&parser, reader_cb_field, reader_cb_row,
	    rd) != 0 && rd->tolerate_cut && rd->header_done)
		rd->cut = 1;
	else if (rd->rc == 0 && csv_error(&parser) != CSV_SUCCESS) {
		rd->line++;
		reader_fail(rd, "not valid CSV at the end of the file (%s)",
		    csv_strerror(csv_error(&parser)));
	}
	if (rd->rc == 0 && !rd->header_done) {
		rd->line = 1;
		reader_fail(rd, "empty file: expected a header line");
	}
	csv_free(&parser);
	free(buf);
}

/*
 * Read one table of DIR through row(); a missing file the schema allows to
 * be absent reads as no rows.  Returns 0, or -RB_EXIT_INPUT with a cause.
 */
int
reader_run(const char *dir, enum csv_table table, int tolerate_cut,
    row_fn row, void *ctx, long *rows, char **cause)
{
	const struct csv_table_def *def = csv_schema_table(table);
	struct reader rd;
	char *path;
	int fd, rc;

	memset(&rd, 0, sizeof rd);
	path = xasprintf("%s/%s", dir, def->file);
	/* A link planted in the directory is not followed. */
	if ((fd = input_open(path, O_NOFOLLOW, cause)) < -1) {
		free(path);
		return (fd);
	}
	if (fd == -1) {
		rc = 0;
		if (errno == ELOOP)
			rc = fail_with(cause, RB_EXIT_INPUT, "%s: a symbolic "
			    "link, not followed in a results directory", path);
		else if (errno != ENOENT || !def->may_be_absent)
			rc = fail_with(cause, RB_EXIT_INPUT, "%s: %s", path,
			    strerror(errno));
		free(path);
		return (rc);
	}
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	rd.path = path;
	rd.cols = def->cols;
	rd.ncols = def->ncols;
	rd.row = row;
	rd.ctx = ctx;
	rd.tolerate_cut = tolerate_cut;
	rd.arena_size = 4096;
	rd.arena = xmalloc(rd.arena_size);
	reader_feed(&rd, fd);
	close(fd);
	free(rd.arena);
	if (rows != NULL)
		*rows += rd.rows;
	if (rd.rc == 0 && rd.cut)
		log_warnx("%s: dropped a cut-off last line (the run did not "
		    "complete)", path);
	free(path);
	if (rd.rc != 0 && cause != NULL)
		*cause = rd.cause;
	else
		free(rd.cause);
	return (rd.rc);
}

/* An empty numeric field: 0 where the schema allows it, else -1. */
static int
field_empty(struct reader *rd, int slot)
{
	if (csv_schema_empty_ok(&rd->cols[slot]))
		return (0);
	reader_fail(rd, "%s: expected a number, got an empty field",
	    rd->cols[slot].name);
	return (-1);
}

/*
 * Parse a non-negative integer field; empty gives RESULTS_UNKNOWN where the
 * schema allows an unknown value.
 */
int
field_u64(struct reader *rd, int slot, uint64_t *out)
{
	const char *s = reader_field(rd, slot);
	uint64_t v = 0;
	size_t i, len;

	if (s == NULL || (len = rd->len[slot]) == 0) {
		*out = RESULTS_UNKNOWN;
		return (field_empty(rd, slot));
	}
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - 9) / 10) {
			reader_fail(rd, "%s: expected a non-negative integer, "
			    "got '%.40s'", rd->cols[slot].name, s);
			return (-1);
		}
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return (0);
}

/* Parse an integer field within [0, max]. */
int
field_int(struct reader *rd, int slot, int max, int *out)
{
	uint64_t v;

	if (field_u64(rd, slot, &v) != 0)
		return (-1);
	if (v > (uint64_t)max) {
		reader_fail(rd, "%s: %llu is out of range (0 to %d)",
		    rd->cols[slot].name, (unsigned long long)v, max);
		return (-1);
	}
	*out = (int)v;
	return (0);
}

/* Parse a finite number (t_s, workload values); "%.3f" takes a fast path. */
int
field_double(struct reader *rd, int slot, double *out)
{
	const char *s = reader_field(rd, slot);
	double v = 0, scale = 1;
	size_t i = 0, len;
	char *end;

	if (s == NULL || (len = rd->len[slot]) == 0) {
		*out = NAN;
		return (field_empty(rd, slot));
	}
	while (i < len && s[i] >= '0' && s[i] <= '9' && i < 15)
		v = v * 10 + (s[i++] - '0');
	if (i > 0 && i < len && s[i] == '.') {
		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9' && scale < 1e15) {
			v = v * 10 + (s[i++] - '0');
			scale *= 10;
		}
	}
	if (i == len && i > 0) {
		*out = v / scale;
		return (0);
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(v)) {
		reader_fail(rd, "%s: expected a number, got '%.40s'",
		    rd->cols[slot].name, s);
		return (-1);
	}
	*out = v;
	return (0);
}
