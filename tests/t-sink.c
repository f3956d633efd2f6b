/*
 * Unit tests for the CSV sink: headers, rows of a hand-made snapshot read
 * back with libcsv, quoting, unknown values, refusal of a non-empty
 * directory and of planted symlinks, atomic meta files, tables left out,
 * and snapshots kept as JSON (recordings) writing the same rows.
 */
#include "config.h"

#include <csv.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic-file.h"
#include "log.h"
#include "sink-csv.h"
#include "snapshot-json.h"
#include "snapshot.h"
#include "tap.h"

struct rows {
	int	 nrows;
	int	 nfields;
	char	 fields[64][16][64];	/* first 64 rows, 16 fields */
	int	 row_fields[64];
};

/* libcsv field callback: keep the field. */
static void
on_field(void *s, size_t len, void *data)
{
	struct rows *r = data;

	(void)len;
	if (r->nrows < 64 && r->nfields < 16)
		snprintf(r->fields[r->nrows][r->nfields], 64, "%s",
		    s != NULL ? (char *)s : "");
	r->nfields++;
}

/* libcsv row callback. */
static void
on_row(int c, void *data)
{
	struct rows *r = data;

	(void)c;
	if (r->nrows < 64)
		r->row_fields[r->nrows] = r->nfields;
	r->nrows++;
	r->nfields = 0;
}

/* Parse a whole CSV file strictly; returns 0 when it parses. */
static int
read_csv(const char *dir, const char *name, struct rows *r)
{
	char path[4096], buf[65536];
	struct csv_parser p;
	size_t n;
	int rc = 0;
	FILE *f;

	memset(r, 0, sizeof *r);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	csv_init(&p, CSV_STRICT | CSV_APPEND_NULL | CSV_STRICT_FINI);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		if (csv_parse(&p, buf, n, on_field, on_row, r) != n)
			rc = -1;
	}
	if (csv_fini(&p, on_field, on_row, r) != 0)
		rc = -1;
	csv_free(&p);
	fclose(f);
	return (rc);
}

/* A snapshot with two keys, one without known start pfn. */
static void
make_snapshot(struct snapshot *snap)
{
	struct snap_entry *e;

	snapshot_init(snap);
	snap->norders = 3;
	e = snapshot_add(snap, 0, 0, "DMA32");
	e->start_pfn = 4096;
	e->spanned = 1000;
	e->present = 900;
	e->managed = 880;
	e->free_pages = 500;
	e->norders = 3;
	e->free_blocks[0] = 10;
	e->free_blocks[1] = 5;
	e->free_blocks[2] = 120;
	e = snapshot_add(snap, 0, 1, "Normal");
	e->present = 2000;
	e->free_pages = 2500;	/* free > present, as on 2.6.39 */
	e->norders = 3;
	e->has_used = 1;
	e->used[SNAP_USED_ANON] = 7;
	e->has_mt_blocks = 1;
	snap->nmtypes = 1;
	snprintf(snap->mtypes[0], SNAP_NAME_LEN, "Movable");
	e->mt_blocks[0] = 3;
	snapshot_warn(snap, "buddy total 1 != free 2, \"drift\"");
}

/* Does DIR/NAME hold the same bytes in both directories? */
static int
same_file(const char *a, const char *b, const char *name)
{
	char pa[4300], pb[4300], ba[65536], bb[65536];
	size_t na = 0, nb = 0;
	FILE *f;

	snprintf(pa, sizeof pa, "%s/%s", a, name);
	snprintf(pb, sizeof pb, "%s/%s", b, name);
	if ((f = fopen(pa, "r")) != NULL) {
		na = fread(ba, 1, sizeof ba, f);
		fclose(f);
	}
	if ((f = fopen(pb, "r")) != NULL) {
		nb = fread(bb, 1, sizeof bb, f);
		fclose(f);
	}
	return (na > 0 && na == nb && memcmp(ba, bb, na) == 0);
}

/* Write one snapshot as a run of one sample into dir. */
static int
write_run(const char *dir, const struct snapshot *snap)
{
	struct sink_csv sink;
	char *cause = NULL;
	int rc;

	if ((rc = sink_csv_open(&sink, dir, 0, &cause)) == 0)
		rc = sink_csv_sample(&sink, snap, 0.5, "p", 1, &cause);
	if (sink_csv_close(&sink, rc == 0 ? &cause : NULL) != 0)
		rc = -1;
	if (rc != 0)
		tap_diag("%s: %s", dir, cause ? cause : "failed");
	free(cause);
	return (rc);
}

/*
 * A snapshot kept as JSON and read back writes the same rows in every
 * table; a malformed one is refused naming the file and the entry.
 */
static void
test_json(const char *tmpl, struct snapshot *snap)
{
	static const char *const tables[] = {
		"regions.csv", "samples.csv", "buddy.csv", "pagetype.csv",
		"pageblocks.csv", "events.csv"
	};
	struct snap_entry *e = &snap->entries[0];
	struct snapshot back;
	char a[4200], b[4200], *cause = NULL;
	json_t *o;
	size_t i;
	int rc;

	/* Free blocks per migratetype, one count capped. */
	e->has_mt_free = 1;
	e->mt_free[0][0] = 4;
	e->mt_free[0][2] = 100000;
	e->mt_capped[0] = 1U << 2;
	snap->has_pagetype = 1;
	snap->pageblock_order = 9;
	snap->format = SNAP_FORMAT_PATCHED;
	e->zone_region = 2;
	o = snapshot_to_json(snap);
	snapshot_init(&back);
	rc = snapshot_from_json(&back, o, "s.json", &cause);
	if (!tap_ok(rc == 0, "json: the snapshot reads back (%s)",
	    cause ? cause : "ok"))
		return;
	tap_ok(back.format == SNAP_FORMAT_PATCHED && back.norders == 3 &&
	    back.pageblock_order == 9 && back.nwarn == 1,
	    "json: format, orders, pageblock order, warnings");
	snprintf(a, sizeof a, "%s/json-a", tmpl);
	snprintf(b, sizeof b, "%s/json-b", tmpl);
	if (write_run(a, snap) == 0 && write_run(b, &back) == 0) {
		for (i = 0; i < sizeof tables / sizeof tables[0]; i++)
			tap_ok(same_file(a, b, tables[i]), "json: the same %s "
			    "from the snapshot read back", tables[i]);
	}
	json_object_set_new(json_array_get(json_object_get(o, "entries"), 1),
	    "used", json_pack("[i]", 1));
	rc = snapshot_from_json(&back, o, "rec/0001/snapshot.json", &cause);
	tap_ok(rc == -RB_EXIT_INPUT && cause != NULL && strstr(cause,
	    "rec/0001/snapshot.json: entry 2: used") != NULL,
	    "json: a short used array is refused (%s)", cause ? cause : "");
	free(cause);
	json_decref(o);
	snapshot_free(&back);
}

/* Tables left out are never created, and their rows never buffered. */
static void
test_omit(const char *tmpl, const struct snapshot *snap)
{
	struct sink_csv sink;
	char dir[4200], path[4300], *cause = NULL;

	snprintf(dir, sizeof dir, "%s/omit", tmpl);
	tap_ok(sink_csv_open(&sink, dir, (1U << CSV_PAGETYPE) |
	    (1U << CSV_PAGEBLOCKS) | (1U << CSV_SAMPLES), &cause) == 0,
	    "omit: sink opens %s", dir);
	tap_ok(sink_csv_sample(&sink, snap, 0.0, "p", 1, &cause) == 0,
	    "omit: a sample with pageblock rows is written");
	tap_ok(sink.files[CSV_PAGEBLOCKS].len == 0, "omit: no rows kept for "
	    "pageblocks.csv");
	tap_ok(sink_csv_close(&sink, &cause) == 0, "omit: sink closes");
	snprintf(path, sizeof path, "%s/pagetype.csv", dir);
	tap_ok(access(path, F_OK) == -1, "omit: no pagetype.csv");
	snprintf(path, sizeof path, "%s/pageblocks.csv", dir);
	tap_ok(access(path, F_OK) == -1, "omit: no pageblocks.csv");
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	tap_ok(access(path, F_OK) == 0, "omit: samples.csv cannot be left "
	    "out");
	free(cause);
}

int
main(void)
{
	char tmpl[4096], dir[4200], *cause = NULL;
	struct sink_csv sink;
	struct snapshot snap;
	struct rows r;
	int i;

	snprintf(tmpl, sizeof tmpl, "%s", tap_scratch_dir("t-sink"));
	snprintf(dir, sizeof dir, "%s/run", tmpl);
	make_snapshot(&snap);

	tap_ok(sink_csv_open(&sink, dir, 0, &cause) == 0, "sink opens %s", dir);
	tap_ok(sink_csv_sample(&sink, &snap, 0.0, "phase,one", 1, &cause) ==
	    0, "first sample written");
	tap_ok(sink_csv_sample(&sink, &snap, 1.25, "phase,one", 0, &cause) ==
	    0, "second sample written without buddy rows");
	sink_csv_workload(&sink, "p", "pagetest", "total", "pages_per_s",
	    12345.5, "pages/s");
	sink_csv_references(&sink, 2.0, "phase,one", 0, 3, 134213632,
	    4096, -1.0);
	sink_csv_references(&sink, 2.0, "phase,one", 0, 4, 8192, 0, 3.0);
	tap_ok(sink_csv_close(&sink, &cause) == 0, "sink closes");

	tap_ok(read_csv(dir, "references.csv", &r) == 0,
	    "references.csv parses");
	tap_eq_u64(r.nrows, 3, "references.csv: header + 2 rows");
	tap_eq_str(r.fields[0][6], "idle_age_s", "references.csv header");
	tap_ok(strcmp(r.fields[1][1], "phase,one") == 0 &&
	    strcmp(r.fields[1][4], "134213632") == 0 &&
	    strcmp(r.fields[1][5], "4096") == 0 &&
	    r.fields[1][6][0] == '\0' && r.row_fields[1] == 7,
	    "references.csv: quoted phase, bytes, empty idle age");
	tap_eq_str(r.fields[2][6], "3.000", "references.csv: idle age in s");

	tap_ok(read_csv(dir, "regions.csv", &r) == 0, "regions.csv parses");
	tap_eq_u64(r.nrows, 3, "regions.csv: header + 2 keys once each");
	tap_eq_str(r.fields[0][0], "node", "regions.csv header");
	tap_eq_str(r.fields[2][3], "", "unknown start_pfn is an empty field");

	tap_ok(read_csv(dir, "samples.csv", &r) == 0, "samples.csv parses");
	tap_eq_u64(r.nrows, 5, "samples.csv: header + 2 keys x 2 samples");
	tap_eq_str(r.fields[1][1], "phase,one", "phase with a comma quoted");
	tap_eq_str(r.fields[3][0], "1.250", "t_s with millisecond resolution");
	tap_eq_str(r.fields[2][6], "2500", "free > present kept as printed");
	tap_eq_str(r.fields[2][8], "7", "anon class written when known");
	tap_eq_str(r.fields[1][8], "", "classes empty when unknown");
	for (i = 0; i < r.nrows && i < 64; i++) {
		if (r.row_fields[i] != 17)
			break;
	}
	tap_ok(i == r.nrows, "every samples.csv row has 17 fields");

	tap_ok(read_csv(dir, "buddy.csv", &r) == 0, "buddy.csv parses");
	tap_eq_u64(r.nrows, 7, "buddy rows only for the first sample");
	tap_eq_str(r.fields[3][6], "120", "order 2 blocks");

	tap_ok(read_csv(dir, "pageblocks.csv", &r) == 0,
	    "pageblocks.csv parses");
	tap_eq_str(r.fields[1][5], "Movable", "migratetype by name");

	tap_ok(read_csv(dir, "events.csv", &r) == 0, "events.csv parses");
	tap_eq_str(r.fields[1][2], "buddy total 1 != free 2, \"drift\"",
	    "warning with comma and quotes round-trips");

	tap_ok(read_csv(dir, "workloads.csv", &r) == 0 &&
	    strcmp(r.fields[1][4], "12345.5") == 0, "workload metric row");

	/*
	 * A sample that started before an event written in the meantime (a
	 * slow kpageflags scan across a phase_start): its warnings must not
	 * go back in time in events.csv.
	 */
	snprintf(dir, sizeof dir, "%s/order", tmpl);
	tap_ok(sink_csv_open(&sink, dir, 0, &cause) == 0, "sink opens %s", dir);
	sink_csv_event(&sink, 2.0, "phase_start", "b", "b", NULL);
	sink_csv_sample(&sink, &snap, 1.5, "a", 1, &cause);
	tap_ok(sink_csv_close(&sink, &cause) == 0, "sink closes");
	tap_ok(read_csv(dir, "events.csv", &r) == 0 && r.nrows == 3 &&
	    strcmp(r.fields[1][0], "2.000") == 0 &&
	    strtod(r.fields[2][0], NULL) >= 2.0,
	    "events.csv stays in time order (the warning after the "
	    "phase_start)");
	snprintf(dir, sizeof dir, "%s/run", tmpl);

	tap_ok(sink_csv_open(&sink, dir, 0, &cause) == -RB_EXIT_INPUT &&
	    strstr(cause, "not empty") != NULL,
	    "a non-empty results directory is refused");
	free(cause);
	cause = NULL;

	/* A symlink planted where meta.json will be renamed to is replaced,
	 * never followed: the target stays untouched. */
	{
		char target[4300], link_path[4300];
		struct stat st;

		snprintf(target, sizeof target, "%s/victim", tmpl);
		snprintf(link_path, sizeof link_path, "%s/meta.json", dir);
		close(open(target, O_WRONLY | O_CREAT, 0600));
		tap_ok(symlink(target, link_path) == 0, "symlink planted");
		tap_ok(atomic_file_write(link_path, "{}\n", 3, &cause) == 0,
		    "atomic write over a symlink");
		tap_ok(lstat(link_path, &st) == 0 && S_ISREG(st.st_mode),
		    "meta.json is now a regular file");
		tap_ok(stat(target, &st) == 0 && st.st_size == 0,
		    "the symlink's target was not written");
	}

	/* A planted samples.csv symlink in an empty-looking dir: O_EXCL
	 * refuses to create over it. */
	{
		char dir2[4300], link_path[4400];

		snprintf(dir2, sizeof dir2, "%s/run2", tmpl);
		mkdir(dir2, 0755);
		snprintf(link_path, sizeof link_path, "%s/samples.csv", dir2);
		symlink("/tmp/rb-should-not-exist", link_path);
		tap_ok(sink_csv_open(&sink, dir2, 0, &cause) < 0,
		    "a directory with a planted file is refused");
		tap_ok(access("/tmp/rb-should-not-exist", F_OK) == -1,
		    "the symlink was not followed");
		free(cause);
		cause = NULL;
	}
	test_omit(tmpl, &snap);
	test_json(tmpl, &snap);
	snapshot_free(&snap);
	return (tap_done());
}
