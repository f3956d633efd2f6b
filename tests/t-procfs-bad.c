/*
 * Bad and odd input for the /proc parsers.  Every directory under
 * tests/data/procfs/bad must fail with exit code 2 (RB_EXIT_INPUT) and a
 * message containing its "message" file; every one under warn/ must parse
 * and record that warning.  NUL bytes and megabyte lines are made here at
 * run time.  Then formats no fixture has: blank-named items, node_scanned,
 * capped ">100000" cells, arm64 with 14 orders, columns mapped by name,
 * the sorted-buddy v1 layout.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "procfile.h"
#include "procfs.h"
#include "source.h"
#include "tap.h"

/* Open the directory with auto and take one sample with pagetypeinfo. */
static int
sample_dir(const char *dir, struct snapshot *snap, char **cause)
{
	struct source_config cfg;
	struct source src;
	int r;

	source_config_init(&cfg);
	snprintf(cfg.proc_root, sizeof cfg.proc_root, "%s", dir);
	if ((r = source_open(&src, "auto", &cfg, cause)) != 0)
		return (r);
	r = source_read(&src, snap, SOURCE_READ_PAGETYPE, cause);
	source_close(&src);
	return (r);
}

/* Read the one-line "message" file of a case. */
static int
read_message(const char *dir, char *buf, size_t len)
{
	char path[4600];
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "%s/message", dir);
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	if (fgets(buf, (int)len, f) == NULL) {
		fclose(f);
		return (-1);
	}
	fclose(f);
	n = strlen(buf);
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return (0);
}

/* Has the snapshot a warning containing text? */
static int
has_warning(const struct snapshot *snap, const char *text)
{
	int i;

	for (i = 0; i < snap->nwarn; i++) {
		if (strstr(snap->warn[i], text) != NULL)
			return (1);
	}
	return (0);
}

/* scandir order: cases by name. */
static int
case_compare(const struct dirent **a, const struct dirent **b)
{
	return (strcmp((*a)->d_name, (*b)->d_name));
}

/* Run every case directory of TESTDATA/procfs/KIND. */
static int
run_cases(const char *testdata, const char *kind)
{
	struct snapshot snap;
	struct dirent **list;
	char top[4096], dir[4400], message[512], *cause;
	int n, i, r, ran = 0, k;

	snprintf(top, sizeof top, "%s/procfs/%s", testdata, kind);
	if ((n = scandir(top, &list, NULL, case_compare)) < 0)
		return (0);
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof dir, "%s/%s", top, list[i]->d_name);
		if (list[i]->d_name[0] == '.' ||
		    read_message(dir, message, sizeof message) != 0) {
			free(list[i]);
			continue;
		}
		snapshot_init(&snap);
		cause = NULL;
		r = sample_dir(dir, &snap, &cause);
		if (strcmp(kind, "bad") == 0) {
			if (!tap_ok(r == -RB_EXIT_INPUT && cause != NULL &&
			    strstr(cause, message) != NULL && strncmp(cause,
			    dir, strlen(dir)) == 0, "bad/%s: exit 2, %s",
			    list[i]->d_name, message))
				tap_diag("r=%d: %s", r, cause ? cause : "");
		} else {
			if (!tap_ok(r == 0 && has_warning(&snap, message),
			    "warn/%s: parses with warning: %s",
			    list[i]->d_name, message)) {
				tap_diag("r=%d: %s", r, cause ? cause : "");
				for (k = 0; k < snap.nwarn; k++)
					tap_diag("warning: %s", snap.warn[k]);
			}
		}
		free(cause);
		snapshot_free(&snap);
		free(list[i]);
		ran++;
	}
	free(list);
	return (ran);
}

/* Copy a fixture file into dir, optionally replacing it with data. */
static void
put_file(const char *dir, const char *name, const char *data, size_t len)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "w")) == NULL)
		die_errno(RB_EXIT_ENV, "%s", path);
	if (len > 0 && fwrite(data, 1, len, f) != len)
		die_errno(RB_EXIT_ENV, "%s", path);
	if (fclose(f) != 0)
		die_errno(RB_EXIT_ENV, "%s", path);
}

/* A copy of the 6.18 set in dir, one file replaced by a broken one. */
static void
runtime_case(const char *fixtures, const char *dir, const char *name,
    const char *data, size_t len, const char *want, const char *what)
{
	static const char *const files[] = {
		"zoneinfo", "buddyinfo", "pagetypeinfo"
	};
	struct procfile pf;
	struct snapshot snap;
	char src[4200], *cause = NULL;
	int i, r;

	procfile_init(&pf);
	snprintf(src, sizeof src, "%s/6.18", fixtures);
	for (i = 0; i < 3; i++) {
		if (procfile_read(&pf, src, files[i], &cause) != 0)
			die(RB_EXIT_ENV, "%s", cause);
		put_file(dir, files[i], pf.buf, pf.len);
	}
	procfile_free(&pf);
	put_file(dir, name, data, len);
	snapshot_init(&snap);
	r = sample_dir(dir, &snap, &cause);
	if (!tap_ok(r == -RB_EXIT_INPUT && cause != NULL &&
	    strstr(cause, want) != NULL, "%s: exit 2, %s", what, want))
		tap_diag("r=%d: %s", r, cause ? cause : "");
	free(cause);
	snapshot_free(&snap);
}

/* NUL bytes and megabyte lines, written to a temporary directory. */
static void
test_runtime_cases(const char *fixtures)
{
	static const char nul_zoneinfo[] =
	    "Node 0, zone      DMA\n  pages free     3840\n"
	    "        min      20\n        low  \0   25\n";
	static const char nul_buddyinfo[] =
	    "Node 0, zone      DMA      0      0\0     0\n";
	char dir[4096], path[4200], *big;
	size_t n = 3 << 20, len;
	const char *name;

	snprintf(dir, sizeof dir, "%s", tap_scratch_dir("t-procfs"));
	runtime_case(fixtures, dir, "zoneinfo", nul_zoneinfo,
	    sizeof nul_zoneinfo - 1, "zoneinfo:4: expected text, found a NUL "
	    "byte", "NUL byte in zoneinfo");
	runtime_case(fixtures, dir, "buddyinfo", nul_buddyinfo,
	    sizeof nul_buddyinfo - 1, "buddyinfo:1: expected text, found a "
	    "NUL byte", "NUL byte in buddyinfo");

	big = xmalloc(n + 64);
	len = (size_t)snprintf(big, 64, "Node 0, zone      DMA\n  pages ");
	memset(big + len, ' ', n);
	len += n;
	len += (size_t)snprintf(big + len, 64, "free 3840\n");
	runtime_case(fixtures, dir, "zoneinfo", big, len, "zoneinfo:2: "
	    "expected a line of at most 4096 bytes, found one of 3145",
	    "3 MiB line in zoneinfo");

	len = (size_t)snprintf(big, 64, "Node 0, zone      DMA ");
	while (len + 8 < n) {
		memcpy(big + len, "     1 ", 7);
		len += 7;
	}
	big[len++] = '\n';
	runtime_case(fixtures, dir, "buddyinfo", big, len, "buddyinfo:1: "
	    "expected a line of at most 4096 bytes", "3 MiB line in buddyinfo");

	memset(big, 'x', n);
	runtime_case(fixtures, dir, "pagetypeinfo", big, n, "pagetypeinfo:1: "
	    "expected a line of at most 4096 bytes", "3 MiB of text without "
	    "a newline in pagetypeinfo");
	free(big);

	for (name = "zoneinfo"; name != NULL; name = strcmp(name,
	    "zoneinfo") == 0 ? "buddyinfo" : strcmp(name, "buddyinfo") == 0 ?
	    "pagetypeinfo" : NULL) {
		snprintf(path, sizeof path, "%s/%s", dir, name);
		unlink(path);
	}
	rmdir(dir);
}

/* Without pagetypeinfo (mode 0400 for non-root on 5.4+) samples go on. */
static void
test_pagetype_missing(const char *fixtures)
{
	static const char *const files[] = { "zoneinfo", "buddyinfo" };
	struct source_config cfg;
	struct source src;
	struct snapshot snap;
	struct procfile pf;
	char dir[4096], from[4200], path[4200], *cause = NULL;
	int i, r1, r2, warn1, warn2;

	snprintf(dir, sizeof dir, "%s", tap_scratch_dir("t-procfs"));
	snprintf(from, sizeof from, "%s/6.18", fixtures);
	procfile_init(&pf);
	for (i = 0; i < 2; i++) {
		if (procfile_read(&pf, from, files[i], &cause) != 0)
			die(RB_EXIT_ENV, "%s", cause);
		put_file(dir, files[i], pf.buf, pf.len);
	}
	procfile_free(&pf);
	source_config_init(&cfg);
	snprintf(cfg.proc_root, sizeof cfg.proc_root, "%s", dir);
	snapshot_init(&snap);
	if (source_open(&src, "zone", &cfg, &cause) != 0)
		die(RB_EXIT_ENV, "%s", cause);
	r1 = source_read(&src, &snap, SOURCE_READ_PAGETYPE, &cause);
	warn1 = has_warning(&snap, "sampling without pagetypeinfo");
	tap_ok(r1 == 0 && warn1 && !snap.has_pagetype && src.files_read ==
	    (SOURCE_FILE_ZONEINFO | SOURCE_FILE_BUDDYINFO),
	    "missing pagetypeinfo: the sample goes on, with a warning");
	r2 = source_read(&src, &snap, SOURCE_READ_PAGETYPE, &cause);
	warn2 = has_warning(&snap, "sampling without pagetypeinfo");
	tap_ok(r2 == 0 && !warn2 && snap.nentries == 3,
	    "missing pagetypeinfo: warned once only");
	source_close(&src);
	snapshot_free(&snap);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* Parse zoneinfo, buddyinfo and (if given) pagetypeinfo text. */
static int
parse3(struct snapshot *snap, const char *zi, const char *bi, const char *pi,
    char **cause)
{
	int r;

	snapshot_reset(snap);
	if ((r = procfs_parse_zoneinfo(snap, "zoneinfo", zi, strlen(zi),
	    cause)) != 0 ||
	    (r = procfs_parse_buddyinfo(snap, "buddyinfo", bi, strlen(bi),
	    cause)) != 0)
		return (r);
	if (pi != NULL)
		r = procfs_parse_pagetypeinfo(snap, "pagetypeinfo", pi,
		    strlen(pi), cause);
	return (r);
}

/*
 * 4.14-style zoneinfo: a node 1 whose per-node block sits under Normal
 * after empty DMA/DMA32, a blank-named value-only line, node_scanned,
 * protection before the items, unknown lines, and a memoryless node 2.
 */
static void
test_zoneinfo_variants(void)
{
	static const char zi[] =
	    "Node 0, zone      DMA\n"
	    "  per-node stats\n"
	    "      nr_inactive_anon 10\n"
	    "      present_bogus 99\n"
	    "                   74240\n"
	    "  pages free     100\n"
	    "        min      1\n"
	    "        low      2\n"
	    "        high     3\n"
	    "   node_scanned  0\n"
	    "        spanned  4095\n"
	    "        present  3998\n"
	    "        managed  3977\n"
	    "        protection: (0, 2992, 32156, 32156)\n"
	    "      nr_free_pages 100\n"
	    "                   74240\n"
	    "  some_future_line: 12 34\n"
	    "weird column-zero text\n"
	    "  pagesets\n"
	    "    cpu: 0\n"
	    "              count: 7\n"
	    "              high:  0\n"
	    "              batch: 1\n"
	    "  vm stats threshold: 4\n"
	    "    cpu: 1\n"
	    "              count:    5\n"
	    "              high_min: 12\n"
	    "  node_unreclaimable:  0\n"
	    "  start_pfn:           1\n"
	    "  node_inactive_ratio: 0\n"
	    "Node 1, zone      DMA\n"
	    "  pages free     0\n"
	    "        min      0\n"
	    "        spanned  0\n"
	    "        present  0\n"
	    "        managed  0\n"
	    "        protection: (0, 0, 9000, 9000)\n"
	    "Node 1, zone   Normal\n"
	    "  per-node stats\n"
	    "      nr_inactive_anon 20\n"
	    "  pages free     2048\n"
	    "        spanned  4096\n"
	    "        present  4096\n"
	    "        managed  4000\n"
	    "  start_pfn:           1048576\n"
	    "Node 2, zone   Normal\n"
	    "  pages free     0\n"
	    "        spanned  0\n"
	    "        present  0\n"
	    "        managed  0\n";
	static const char bi[] =
	    "Node 0, zone      DMA      0      0      1      0      0      1"
	    "      1      0      0      0      0 \n"
	    "Node 1, zone   Normal      0      0      0      0      0      0"
	    "      0      0      0      0      2 \n";
	struct snapshot snap;
	struct snap_entry *e;
	char *cause = NULL;
	int r;

	snapshot_init(&snap);
	r = parse3(&snap, zi, bi, NULL, &cause);
	if (!tap_ok(r == 0, "4.14-style zoneinfo parses"))
		tap_diag("%s", cause);
	tap_eq_u64(snap.nentries, 2, "unpopulated and memoryless zones "
	    "skipped");
	e = snapshot_find(&snap, 0, -1, "DMA");
	tap_ok(e != NULL && e->free_pages == 100 && e->present == 3998 &&
	    e->spanned == 4095 && e->managed == 3977 && e->start_pfn == 1 &&
	    e->pcp_pages == 12, "per-node items, blank-named lines and "
	    "unknown lines do not disturb the zone figures");
	e = snapshot_find(&snap, 1, -1, "Normal");
	tap_ok(e != NULL && e->free_pages == 2048 && e->start_pfn == 1048576,
	    "per-node block under a zone that is not the node's first");
	if (!tap_ok(snap.nwarn == 0, "no warnings"))
		tap_diag("%s", snap.warn[0]);
	tap_eq_u64(snap.format, SNAP_FORMAT_PLAIN, "mainline format");
	free(cause);
	snapshot_free(&snap);
}

/* arm64 64 KiB pages: 14 orders, pageblock order 13, capped cells. */
static void
test_arm64_capped(void)
{
	static const char zi[] =
	    "Node 0, zone   Normal\n"
	    "  pages free     2100000\n"
	    "        spanned  262144\n"
	    "        present  262144\n"
	    "        managed  260000\n"
	    "        cma      0\n"
	    "  start_pfn:           8192\n";
	static const char bi[] =
	    "Node 0, zone   Normal 2100000      0      0      0      0      0"
	    "      0      0      0      0      0      0      0      0 \n";
	static const char pi[] =
	    "Page block order: 13\n"
	    "Pages per block:  8192\n"
	    "\n"
	    "Free pages count per migrate type at order       0      1      2"
	    "      3      4      5      6      7      8      9     10     11"
	    "     12     13 \n"
	    "Node    0, zone   Normal, type    Unmovable      0      0      0"
	    "      0      0      0      0      0      0      0      0      0"
	    "      0      0 \n"
	    "Node    0, zone   Normal, type      Movable >100000      0      0"
	    "      0      0      0      0      0      0      0      0      0"
	    "      0      0 \n"
	    "Node    0, zone   Normal, type  Reclaimable      0      0      0"
	    "      0      0      0      0      0      0      0      0      0"
	    "      0      0 \n"
	    "\n"
	    "Number of blocks type     Unmovable      Movable  Reclaimable \n"
	    "Node 0, zone   Normal            1           30            1 \n";
	struct snapshot snap;
	struct snap_entry *e;
	char *cause = NULL;
	int r, mv;

	snapshot_init(&snap);
	r = parse3(&snap, zi, bi, pi, &cause);
	if (!tap_ok(r == 0, "arm64 64K files parse"))
		tap_diag("%s", cause);
	tap_eq_u64(snap.norders, 14, "14 order columns");
	tap_eq_u64(snap.pageblock_order, 13, "pageblock order 13");
	e = &snap.entries[0];
	mv = snapshot_mtype(&snap, "Movable");
	tap_ok(e->mt_free[mv][0] == 100000 && e->mt_capped[mv] == 1,
	    ">100000 kept as 100000 with the capped bit");
	tap_eq_u64(snap.nwarn, 0, "capped order is not checked against "
	    "buddyinfo");
	free(cause);
	snapshot_free(&snap);
}

/* Columns of the blocks section are mapped by the names of its header. */
static void
test_columns_by_name(void)
{
	static const char zi[] =
	    "Node 0, zone      DMA\n  pages free     1\n        spanned  4096\n"
	    "        present  4000\n  start_pfn:           1\n";
	static const char bi[] =
	    "Node 0, zone      DMA      1      0 \n";
	static const char pi[] =
	    "Page block order: 1\nPages per block:  2\n\n"
	    "Free pages count per migrate type at order       0      1 \n"
	    "Node    0, zone      DMA, type    Unmovable      1      0 \n"
	    "Node    0, zone      DMA, type  Reclaimable      0      0 \n"
	    "Node    0, zone      DMA, type      Movable      0      0 \n"
	    "\n"
	    "Number of blocks type         Movable  Reclaimable    Unmovable"
	    "          CMA \n"
	    "Node 0, zone      DMA           10           20           30"
	    "           40 \n"
	    "\n"
	    "Number of mixed blocks        Movable  Reclaimable    Unmovable"
	    "          CMA \n"
	    "Node 0, zone      DMA            7            7            7"
	    "            7 \n";
	struct snapshot snap;
	struct snap_entry *e;
	char *cause = NULL;
	int r;

	snapshot_init(&snap);
	r = parse3(&snap, zi, bi, pi, &cause);
	if (!tap_ok(r == 0, "reordered block header parses"))
		tap_diag("%s", cause);
	e = &snap.entries[0];
	tap_ok(e->mt_blocks[snapshot_mtype(&snap, "Movable")] == 10 &&
	    e->mt_blocks[snapshot_mtype(&snap, "Reclaimable")] == 20 &&
	    e->mt_blocks[snapshot_mtype(&snap, "Unmovable")] == 30 &&
	    e->mt_blocks[snapshot_mtype(&snap, "CMA")] == 40,
	    "blocks mapped by header name, mixed blocks not taken");
	tap_eq_u64(snap.nmtypes, 4, "CMA added from the block header");
	free(cause);
	snapshot_free(&snap);
}

/* Sorted-buddy v1 (Nov 2012): "Zone mem region" sub-blocks. */
static void
test_sorted_buddy_v1(void)
{
	static const char zi[] =
	    "Node 0, zone   Normal\n"
	    "  pages free     300\n"
	    "        spanned  262144\n"
	    "        present  262144\n"
	    "\n"
	    "Zone mem region 0\n"
	    "  pages spanned\t131072\n"
	    "        present\t131072\n"
	    "        free\t100\n"
	    "\n"
	    "Zone mem region 1\n"
	    "  pages spanned\t131072\n"
	    "        present\t131072\n"
	    "        free\t200\n"
	    "Zone pages nr_free  300\n"
	    "    nr_free_pages 300\n"
	    "  start_pfn:         1048576\n";
	static const char bi[] =
	    "Node 0, zone   Normal \n"
	    "\t\t Region 0    100      0 \n"
	    "\t\t Region 1    200      0 \n";
	struct snapshot snap;
	char *cause = NULL;
	int r;

	snapshot_init(&snap);
	r = parse3(&snap, zi, bi, NULL, &cause);
	if (!tap_ok(r == 0, "sorted-buddy v1 parses"))
		tap_diag("%s", cause);
	tap_eq_u64(snap.format, SNAP_FORMAT_SORTED_BUDDY, "v1 is sorted-buddy");
	tap_ok(snap.nentries == 2 && snap.entries[1].region == 1 &&
	    snap.entries[1].spanned == 131072 &&
	    snap.entries[1].free_pages == 200 &&
	    snap.entries[1].free_blocks[0] == 200,
	    "v1 region figures and buddy rows");
	tap_eq_u64(snap.nwarn, 0, "no warnings");
	free(cause);
	snapshot_free(&snap);
}

int
main(void)
{
	const char *testdata = getenv("TESTDATA");
	const char *fixtures = getenv("FIXTURES");

	if (testdata == NULL)
		testdata = "tests/data";
	if (fixtures == NULL)
		fixtures = "tests/fixtures/proc";
	tap_ok(run_cases(testdata, "bad") >= 25, "bad-input cases ran");
	tap_ok(run_cases(testdata, "warn") >= 3, "warning cases ran");
	test_runtime_cases(fixtures);
	test_pagetype_missing(fixtures);
	test_zoneinfo_variants();
	test_arm64_capped();
	test_columns_by_name();
	test_sorted_buddy_v1();
	return (tap_done());
}
