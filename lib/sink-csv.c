/*
 * CSV sink.  Tables, headers and column order come from csv-schema.h.
 * Rows are formatted into a per-file buffer and written with one
 * write(2) per file per flush, so a run killed with SIGKILL leaves files that
 * end on a row boundary.  Files are created with O_EXCL|O_NOFOLLOW so a
 * symlink planted in the results directory is never followed.  Text fields
 * are quoted with libcsv only when they need it.
 */
#include "config.h"

#include <csv.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic-file.h"
#include "killpoint.h"
#include "log.h"
#include "sink-csv.h"

/* Make room for len more bytes in a file's row buffer. */
static void
sink_reserve(struct sink_file *f, size_t len)
{
	if (f->len + len <= f->cap)
		return;
	while (f->len + len > f->cap)
		f->cap = f->cap == 0 ? 65536 : f->cap * 2;
	f->buf = xreallocarray(f->buf, f->cap, 1);
}

/* Append formatted text to a file's row buffer. */
static void RB_PRINTF(2, 3)
sink_printf(struct sink_file *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	sink_reserve(f, 256);
	va_start(ap, fmt);
	n = vsnprintf(f->buf + f->len, f->cap - f->len, fmt, ap);
	va_end(ap);
	if ((size_t)n >= f->cap - f->len) {
		sink_reserve(f, (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(f->buf + f->len, f->cap - f->len, fmt, ap);
		va_end(ap);
	}
	f->len += (size_t)n;
}

/* Append a text field, quoted by libcsv when it holds , " CR LF or edges. */
static void
sink_text(struct sink_file *f, const char *s)
{
	size_t len = strlen(s), need;

	if (strpbrk(s, ",\"\r\n") == NULL && (len == 0 || (s[0] != ' ' &&
	    s[len - 1] != ' '))) {
		sink_reserve(f, len);
		memcpy(f->buf + f->len, s, len);
		f->len += len;
		return;
	}
	need = csv_write(NULL, 0, s, len);
	sink_reserve(f, need);
	csv_write(f->buf + f->len, need, s, len);
	f->len += need;
}

/* Append a number, or nothing when unknown. */
static void
sink_u64(struct sink_file *f, uint64_t v)
{
	if (v != SNAP_UNKNOWN)
		sink_printf(f, "%" PRIu64, v);
}

/* Append the t_s,phase,node,region,zone prefix of a row. */
static void
sink_key(struct sink_file *f, double t_s, const char *phase,
    const struct snap_entry *e)
{
	sink_printf(f, "%.3f,", t_s);
	sink_text(f, phase);
	sink_printf(f, ",%d,%d,", e->node, e->region);
	sink_text(f, e->zone);
}

/*
 * May an existing directory hold results written by this process?  Only
 * when nobody else can swap it for a link while it is written: owned by
 * this user, and not writable by others unless sticky.
 */
static int
sink_dir_trusted(const char *dir, const struct stat *st, char **cause)
{
	if (st->st_uid != geteuid())
		return (fail_with(cause, RB_EXIT_INPUT, "%s is owned by uid "
		    "%lu, not by this user: choose another --out", dir,
		    (unsigned long)st->st_uid));
	if ((st->st_mode & S_IWOTH) && !(st->st_mode & S_ISVTX))
		return (fail_with(cause, RB_EXIT_INPUT, "%s is writable by "
		    "others (mode %04o): choose another --out or chmod o-w",
		    dir, (unsigned)(st->st_mode & 07777)));
	return (0);
}

/*
 * Create a results directory and its parents.  An existing directory must
 * be empty, so that two runs never mix their rows, and trusted (above).
 */
int
sink_make_dir(const char *dir, char **cause)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int rc;

	if (*dir == '\0')
		return (fail_with(cause, RB_EXIT_INPUT, "the results directory "
		    "path is empty"));
	if ((rc = make_parent_dirs(dir, cause)) != 0)
		return (rc);
	if (mkdir(dir, 0755) == 0) {
		killpoint_op();
		return (0);
	}
	if (errno != EEXIST)
		return (fail_with(cause, RB_EXIT_ENV, "%s: mkdir: %s", dir,
		    strerror(errno)));
	if (lstat(dir, &st) == -1 || !S_ISDIR(st.st_mode))
		return (fail_with(cause, RB_EXIT_INPUT,
		    "%s exists and is not a directory", dir));
	if ((rc = sink_dir_trusted(dir, &st, cause)) != 0)
		return (rc);
	if ((d = opendir(dir)) == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", dir,
		    strerror(errno)));
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0) {
			closedir(d);
			return (fail_with(cause, RB_EXIT_INPUT,
			    "%s is not empty: choose another --out or remove "
			    "it", dir));
		}
	}
	closedir(d);
	return (0);
}

/*
 * Open the results directory and create every table with its header, but
 * regions.csv: that one appears whole with the first sample (header and
 * rows in one atomic replacement), so a directory without it is a run
 * stopped before its first sample, never a damaged one.  Tables in omit
 * (1 << CSV_*) are not created: their source never has rows for them, and
 * meta.json's files_omitted says why.
 */
int
sink_csv_open(struct sink_csv *sink, const char *dir, unsigned omit,
    char **cause)
{
	const struct csv_table_def *def;
	struct sink_file *f;
	struct stat st;
	int i, rc;

	memset(sink, 0, sizeof *sink);
	for (i = 0; i < CSV_NTABLES; i++)
		sink->files[i].fd = -1;
	sink->dirfd = -1;
	/* regions.csv and samples.csv are what makes a run. */
	sink->omit = omit & ~((1U << CSV_REGIONS) | (1U << CSV_SAMPLES));
	if ((rc = sink_make_dir(dir, cause)) != 0)
		return (rc);
	snprintf(sink->dir, sizeof sink->dir, "%s", dir);
	/*
	 * Held open from here on: every file is created relative to it, so
	 * renaming the directory or putting a link at its path mid-run
	 * changes nothing.  Checked again now that it cannot change.
	 */
	sink->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (sink->dirfd == -1)
		return (fail_with(cause, errno == ELOOP || errno == ENOTDIR ?
		    RB_EXIT_INPUT : RB_EXIT_ENV, "%s: %s", dir,
		    strerror(errno)));
	if (fstat(sink->dirfd, &st) == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: fstat: %s", dir,
		    strerror(errno)));
	if ((rc = sink_dir_trusted(dir, &st, cause)) != 0)
		return (rc);
	for (i = 0; i < CSV_NTABLES; i++) {
		f = &sink->files[i];
		def = csv_schema_table(i);
		if (sink->omit & (1U << i))
			continue;
		sink_printf(f, "%s\n", def->header);
		if (i == CSV_REGIONS)
			continue;
		f->fd = openat(sink->dirfd, def->file, O_WRONLY | O_CREAT |
		    O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (f->fd == -1)
			return (fail_with(cause, RB_EXIT_ENV, "%s/%s: %s", dir,
			    def->file, strerror(errno)));
		killpoint_op();
	}
	return (sink_csv_flush(sink, cause));
}

/* Is this region key already in regions.csv? Remember it if not. */
static int
sink_region_new(struct sink_csv *sink, const struct snap_entry *e)
{
	int i;

	for (i = 0; i < sink->nregions; i++) {
		if (sink->regions[i].node == e->node &&
		    sink->regions[i].region == e->region &&
		    strcmp(sink->regions[i].zone, e->zone) == 0)
			return (0);
	}
	if (sink->nregions == sink->region_cap) {
		sink->region_cap = sink->region_cap == 0 ? 64 :
		    sink->region_cap * 2;
		sink->regions = xreallocarray(sink->regions, sink->region_cap,
		    sizeof *sink->regions);
	}
	sink->regions[sink->nregions].node = e->node;
	sink->regions[sink->nregions].region = e->region;
	memcpy(sink->regions[sink->nregions].zone, e->zone, SNAP_NAME_LEN);
	sink->nregions++;
	return (1);
}

/* Add a zone of a region to regions.csv's rows (kept for rewrites). */
static void
sink_region_row(struct sink_file *f, const struct snap_entry *e)
{
	sink_printf(f, "%d,%d,", e->node, e->region);
	sink_text(f, e->zone);
	sink_printf(f, ",");
	sink_u64(f, e->start_pfn);
	sink_printf(f, ",");
	sink_u64(f, e->spanned);
	sink_printf(f, ",");
	sink_u64(f, e->present);
	sink_printf(f, ",");
	sink_u64(f, e->managed);
	sink_printf(f, ",");
	if (e->zone_region >= 0)
		sink_printf(f, "%d", e->zone_region);
	sink_printf(f, "\n");
}

/* One samples.csv row. */
static void
sink_samples_row(struct sink_file *f, double t_s, const char *phase,
    const struct snapshot *snap, const struct snap_entry *e)
{
	double at;

	int c;

	sink_key(f, t_s, phase, e);
	sink_printf(f, ",");
	sink_u64(f, e->present);
	sink_printf(f, ",%" PRIu64 ",", e->free_pages);
	sink_u64(f, e->managed);
	for (c = 0; c < SNAP_USED_NCLASS; c++) {
		sink_printf(f, ",");
		if (e->has_used)
			sink_u64(f, e->used[c]);
	}
	sink_printf(f, ",");
	if (e->has_used)
		sink_u64(f, e->uninit);
	/* Only a sampled scan's estimates have an interval. */
	if (e->free_interval)
		sink_printf(f, ",%" PRIu64 ",%" PRIu64 ",", e->free_lo,
		    e->free_hi);
	else
		sink_printf(f, ",,,");
	/*
	 * When the exact count was taken, on the t_s clock: t_s and the
	 * age each in whole milliseconds, as a replay has them.
	 */
	if (e->counted_ns != 0 && e->counted_ns <= snap->t_ns) {
		at = (double)llround(t_s * 1000) -
		    (double)llround((double)(snap->t_ns - e->counted_ns) / 1e6);
		sink_printf(f, "%.3f", at > 0 ? at / 1000 : 0);
	}
	sink_printf(f, "\n");
}

/* The buddy.csv rows of a key: free blocks per order. */
static void
sink_buddy_rows(struct sink_file *f, double t_s, const char *phase,
    const struct snap_entry *e)
{
	int o;

	for (o = 0; o < e->norders; o++) {
		sink_key(f, t_s, phase, e);
		sink_printf(f, ",%d,%" PRIu64 "\n", o, e->free_blocks[o]);
	}
}

/* The pagetype.csv rows of a key: free blocks per migratetype and order. */
static void
sink_pagetype_rows(struct sink_file *f, const struct snapshot *snap,
    double t_s, const char *phase, const struct snap_entry *e)
{
	int m, o;

	for (m = 0; m < snap->nmtypes; m++) {
		for (o = 0; o < snap->norders; o++) {
			sink_key(f, t_s, phase, e);
			sink_printf(f, ",");
			sink_text(f, snap->mtypes[m]);
			sink_printf(f, ",%d,%" PRIu64 ",%d\n", o,
			    e->mt_free[m][o], (e->mt_capped[m] >> o) & 1);
		}
	}
}

/* The pageblocks.csv rows of a key: pageblocks per migratetype. */
static void
sink_pageblocks_rows(struct sink_file *f, const struct snapshot *snap,
    double t_s, const char *phase, const struct snap_entry *e)
{
	int m;

	for (m = 0; m < snap->nmtypes; m++) {
		sink_key(f, t_s, phase, e);
		sink_printf(f, ",");
		sink_text(f, snap->mtypes[m]);
		sink_printf(f, ",%" PRIu64 "\n", e->mt_blocks[m]);
	}
}

/* The warnings a snapshot carries, as events. */
static void
sink_warnings(struct sink_csv *sink, const struct snapshot *snap,
    double t_s, const char *phase)
{
	char text[64];
	int i;

	for (i = 0; i < snap->nwarn; i++)
		sink_csv_event(sink, t_s, "warning", snap->warn[i], phase,
		    NULL);
	if (snap->warn_dropped > 0) {
		snprintf(text, sizeof text, "%d more warnings not recorded",
		    snap->warn_dropped);
		sink_csv_event(sink, t_s, "warning", text, phase, NULL);
	}
}

/*
 * Replace regions.csv with every key seen so far, before any row that
 * names a new key is written: readers never find a key regions.csv lacks.
 */
static int
sink_regions_commit(struct sink_csv *sink, char **cause)
{
	struct sink_file *f = &sink->files[CSV_REGIONS];
	char *why = NULL;

	if (sink->error != NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s", sink->error));
	if (atomic_file_writeat(sink->dirfd, sink->dir,
	    csv_schema_table(CSV_REGIONS)->file, f->buf, f->len, &why) != 0) {
		sink->error = why;
		return (fail_with(cause, RB_EXIT_ENV, "%s", sink->error));
	}
	return (0);
}

/* Add one snapshot's rows to every table it has data for, then flush. */
int
sink_csv_sample(struct sink_csv *sink, const struct snapshot *snap,
    double t_s, const char *phase, int with_buddy, char **cause)
{
	const struct snap_entry *e;
	int i, rc, new_keys = 0;

	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (sink_region_new(sink, e)) {
			sink_region_row(&sink->files[CSV_REGIONS], e);
			new_keys = 1;
		}
		sink_samples_row(&sink->files[CSV_SAMPLES], t_s, phase, snap,
		    e);
		if (with_buddy)
			sink_buddy_rows(&sink->files[CSV_BUDDY], t_s, phase,
			    e);
		if (e->has_mt_free && !(sink->omit & (1U << CSV_PAGETYPE)))
			sink_pagetype_rows(&sink->files[CSV_PAGETYPE], snap,
			    t_s, phase, e);
		if (e->has_mt_blocks &&
		    !(sink->omit & (1U << CSV_PAGEBLOCKS)))
			sink_pageblocks_rows(&sink->files[CSV_PAGEBLOCKS],
			    snap, t_s, phase, e);
	}
	sink_warnings(sink, snap, t_s, phase);
	if (new_keys && (rc = sink_regions_commit(sink, cause)) != 0)
		return (rc);
	return (sink_csv_flush(sink, cause));
}

/*
 * samples.csv rows of one snapshot on an open descriptor (a pipe, say),
 * its header first when asked: the same columns and quoting as the file.
 */
int
sink_csv_write_samples(int fd, const struct snapshot *snap, double t_s,
    const char *phase, int header, char **cause)
{
	struct sink_file f = { .fd = fd };
	int i, rc = 0;

	if (header)
		sink_printf(&f, "%s\n", csv_schema_table(CSV_SAMPLES)->header);
	for (i = 0; i < snap->nentries; i++)
		sink_samples_row(&f, t_s, phase, snap, &snap->entries[i]);
	if (f.len > 0 && atomic_write_all(fd, f.buf, f.len) == -1)
		rc = fail_with(cause, RB_EXIT_ENV, "write: %s",
		    strerror(errno));
	free(f.buf);
	return (rc);
}

/*
 * Add an event row (not flushed until the next flush or sample).  Rows
 * never go back in time: a sample that began before an event written in
 * the meantime (a slow scan across a phase_start) has its warnings stamped
 * with that event's time.
 */
int
sink_csv_event(struct sink_csv *sink, double t_s, const char *event,
    const char *detail, const char *phase, char **cause)
{
	struct sink_file *f = &sink->files[CSV_EVENTS];

	(void)cause;
	if (t_s < sink->last_event_t)
		t_s = sink->last_event_t;
	sink->last_event_t = t_s;
	sink_printf(f, "%.3f,", t_s);
	sink_text(f, event);
	sink_printf(f, ",");
	sink_text(f, detail != NULL ? detail : "");
	sink_printf(f, ",");
	sink_text(f, phase != NULL ? phase : "");
	sink_printf(f, "\n");
	return (0);
}

/* Add a placement row: a workload's pages in one region. */
int
sink_csv_placement(struct sink_csv *sink, double t_s, const char *phase,
    const char *workload, long pid, int node, int region, uint64_t pages)
{
	struct sink_file *f = &sink->files[CSV_PLACEMENT];

	sink_printf(f, "%.3f,", t_s);
	sink_text(f, phase);
	sink_printf(f, ",");
	sink_text(f, workload);
	sink_printf(f, ",%ld,%d,%d,%" PRIu64 "\n", pid, node, region, pages);
	return (0);
}

/* Add a workload metric row. */
int
sink_csv_workload(struct sink_csv *sink, const char *phase,
    const char *workload, const char *thread, const char *metric,
    double value, const char *unit)
{
	struct sink_file *f = &sink->files[CSV_WORKLOADS];

	sink_text(f, phase);
	sink_printf(f, ",");
	sink_text(f, workload);
	sink_printf(f, ",");
	sink_text(f, thread);
	sink_printf(f, ",");
	sink_text(f, metric);
	sink_printf(f, ",%.17g,", value);
	sink_text(f, unit);
	sink_printf(f, "\n");
	return (0);
}

/*
 * Add a references.csv row: what DAMON saw of a region in one aggregation
 * interval; idle_age_s < 0 leaves the age empty (no part was idle).
 */
int
sink_csv_references(struct sink_csv *sink, double t_s, const char *phase,
    int node, int region, uint64_t monitored, uint64_t referenced,
    double idle_age_s)
{
	struct sink_file *f = &sink->files[CSV_REFERENCES];

	if (sink->omit & (1U << CSV_REFERENCES))
		return (0);
	sink_printf(f, "%.3f,", t_s);
	sink_text(f, phase);
	sink_printf(f, ",%d,%d,%" PRIu64 ",%" PRIu64 ",", node, region,
	    monitored, referenced);
	if (idle_age_s >= 0)
		sink_printf(f, "%.3f", idle_age_s);
	sink_printf(f, "\n");
	return (0);
}

/*
 * Write every buffered row.  The first error is kept and returned again by
 * later calls, so a full disk stops the run with the file it hit.
 */
int
sink_csv_flush(struct sink_csv *sink, char **cause)
{
	struct sink_file *f;
	int i;

	if (sink->error != NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s", sink->error));
	for (i = 0; i < CSV_NTABLES; i++) {
		f = &sink->files[i];
		if (f->len == 0 || f->fd == -1)
			continue;
		if (atomic_write_all(f->fd, f->buf, f->len) == -1) {
			sink->error = xasprintf("%s/%s: write: %s", sink->dir,
			    csv_schema_table(i)->file, strerror(errno));
			return (fail_with(cause, RB_EXIT_ENV, "%s",
			    sink->error));
		}
		f->len = 0;
	}
	return (0);
}

/* Flush, sync and close every table. */
int
sink_csv_close(struct sink_csv *sink, char **cause)
{
	int i, rc;

	rc = sink_csv_flush(sink, cause);
	for (i = 0; i < CSV_NTABLES; i++) {
		if (sink->files[i].fd != -1) {
			if (rc == 0 && fsync(sink->files[i].fd) == -1)
				rc = fail_with(cause, RB_EXIT_ENV,
				    "%s/%s: fsync: %s", sink->dir,
				    csv_schema_table(i)->file, strerror(errno));
			killpoint_op();
			close(sink->files[i].fd);
			sink->files[i].fd = -1;
		}
		free(sink->files[i].buf);
		sink->files[i].buf = NULL;
	}
	if (sink->dirfd != -1) {
		fsync(sink->dirfd);
		killpoint_op();
		close(sink->dirfd);
		sink->dirfd = -1;
	}
	free(sink->regions);
	sink->regions = NULL;
	free(sink->error);
	sink->error = NULL;
	return (rc);
}
