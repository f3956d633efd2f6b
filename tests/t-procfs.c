/*
 * Golden tests of the /proc parsers and the text region sources: every
 * fixture set in tests/fixtures/proc is parsed and compared with its
 * expected.json, then opened through the source layer (auto and each
 * source by name).  Bad-input cases are in t-procfs-bad.c.
 */
#include "config.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "procfile.h"
#include "procfs.h"
#include "source.h"
#include "src-kpageflags.h"
#include "tap.h"

/* Index of a migratetype name in the snapshot, or -1. */
static int
mtype_index(const struct snapshot *snap, const char *name)
{
	int i;

	for (i = 0; i < snap->nmtypes; i++) {
		if (strcmp(snap->mtypes[i], name) == 0)
			return (i);
	}
	return (-1);
}

/* Collects mismatches of one zone into a diagnostic line. */
struct mismatch {
	char	 text[1024];
	size_t	 len;
};

static void __attribute__((format(printf, 2, 3)))
mismatch_add(struct mismatch *m, const char *fmt, ...)
{
	va_list ap;

	if (m->len >= sizeof m->text - 1)
		return;
	va_start(ap, fmt);
	m->len += vsnprintf(m->text + m->len, sizeof m->text - m->len, fmt, ap);
	va_end(ap);
	if (m->len > sizeof m->text - 1)
		m->len = sizeof m->text - 1;
}

/* Compare a u64 with an optional JSON integer field. */
static void
check_field(struct mismatch *m, json_t *zone, const char *key, uint64_t got)
{
	json_t *v = json_object_get(zone, key);

	if (v == NULL)
		return;
	if (!json_is_integer(v) || (uint64_t)json_integer_value(v) != got)
		mismatch_add(m, " %s=%llu want %lld;", key,
		    (unsigned long long)got, json_is_integer(v) ?
		    (long long)json_integer_value(v) : -1LL);
}

/* Compare one zone of expected.json with its entry. */
static void
check_zone(const char *set, struct snapshot *snap, json_t *zone)
{
	struct snap_entry *e;
	struct mismatch m = { .len = 0 };
	json_t *region, *buddy, *blocks, *v, *overflow;
	const char *name = json_string_value(json_object_get(zone, "zone"));
	const char *mt;
	int node = json_integer_value(json_object_get(zone, "node"));
	int reg, i, idx;
	uint32_t capped = 0;

	region = json_object_get(zone, "region");
	reg = region != NULL ? (int)json_integer_value(region) : -1;
	e = snapshot_find(snap, node, reg, name);
	if (!json_is_true(json_object_get(zone, "populated"))) {
		tap_ok(e == NULL, "%s: unpopulated node %d zone %s absent", set,
		    node, name);
		return;
	}
	if (!tap_ok(e != NULL, "%s: node %d region %d zone %s present", set,
	    node, reg, name))
		return;
	check_field(&m, zone, "free", e->free_pages);
	check_field(&m, zone, "present", e->present);
	check_field(&m, zone, "spanned", e->spanned);
	check_field(&m, zone, "start_pfn", e->start_pfn);
	check_field(&m, zone, "managed", e->managed);
	/* The per-CPU list pages: the count: lines of the zone's pagesets. */
	check_field(&m, zone, "pcp", e->pcp_pages);
	if (json_object_get(zone, "spanned") == NULL &&
	    e->spanned != SNAP_UNKNOWN)
		mismatch_add(&m, " spanned should be unknown;");
	if (json_object_get(zone, "managed") == NULL &&
	    e->managed != SNAP_UNKNOWN)
		mismatch_add(&m, " managed should be unknown;");
	buddy = json_object_get(zone, "buddy");
	if (buddy != NULL) {
		if ((int)json_array_size(buddy) != e->norders)
			mismatch_add(&m, " norders=%d want %zu;", e->norders,
			    json_array_size(buddy));
		json_array_foreach(buddy, i, v) {
			if (i < e->norders && (uint64_t)json_integer_value(v) !=
			    e->free_blocks[i])
				mismatch_add(&m, " buddy[%d]=%llu want %lld;",
				    i, (unsigned long long)e->free_blocks[i],
				    (long long)json_integer_value(v));
		}
	}
	blocks = json_object_get(zone, "blocks");
	if (blocks != NULL) {
		if (!e->has_mt_blocks)
			mismatch_add(&m, " no block counts;");
		json_object_foreach(blocks, mt, v) {
			idx = mtype_index(snap, mt);
			if (idx < 0)
				mismatch_add(&m, " no migratetype %s;", mt);
			else if (e->mt_blocks[idx] !=
			    (uint64_t)json_integer_value(v))
				mismatch_add(&m, " blocks[%s]=%llu want %lld;",
				    mt, (unsigned long long)e->mt_blocks[idx],
				    (long long)json_integer_value(v));
		}
	}
	if (!e->has_mt_free)
		mismatch_add(&m, " no free rows;");
	overflow = json_object_get(zone, "ptype_overflow");
	for (i = 0; i < snap->nmtypes; i++)
		capped |= e->mt_capped[i];
	if (overflow != NULL && json_is_true(overflow) != (capped != 0))
		mismatch_add(&m, " capped=%#x;", capped);
	if (!tap_ok(m.len == 0, "%s: node %d region %d zone %s figures", set,
	    node, reg, name))
		tap_diag("%s", m.text);
}

/* Parse one fixture set with the parsers and compare it. */
static void
check_set(const char *dir, const char *set)
{
	struct procfile zi, bi, pi;
	struct snapshot snap;
	json_error_t jerr;
	json_t *exp, *zones, *zone, *names, *v;
	char path[4200], *cause = NULL;
	enum snap_format want;
	int i, populated = 0, r, ok;

	snprintf(path, sizeof path, "%s/expected.json", dir);
	if ((exp = json_load_file(path, 0, &jerr)) == NULL) {
		tap_ok(0, "%s: expected.json loads (%s)", set, jerr.text);
		return;
	}
	procfile_init(&zi);
	procfile_init(&bi);
	procfile_init(&pi);
	snapshot_init(&snap);
	r = procfile_read(&zi, dir, "zoneinfo", &cause);
	if (r == 0)
		r = procfile_read(&bi, dir, "buddyinfo", &cause);
	if (r == 0)
		r = procfile_read(&pi, dir, "pagetypeinfo", &cause);
	if (r == 0)
		r = procfs_parse_zoneinfo(&snap, zi.path, zi.buf, zi.len,
		    &cause);
	if (r == 0)
		r = procfs_parse_buddyinfo(&snap, bi.path, bi.buf, bi.len,
		    &cause);
	if (r == 0)
		r = procfs_parse_pagetypeinfo(&snap, pi.path, pi.buf, pi.len,
		    &cause);
	if (!tap_ok(r == 0, "%s: the three files parse", set)) {
		tap_diag("%s", cause);
		free(cause);
		goto out;
	}
	if (!tap_ok(snap.nwarn == 0, "%s: no consistency warnings", set))
		for (i = 0; i < snap.nwarn; i++)
			tap_diag("%s", snap.warn[i]);
	want = strncmp(set, "patched", 7) == 0 ? SNAP_FORMAT_PATCHED :
	    strncmp(set, "sorted-buddy", 12) == 0 ?
	    SNAP_FORMAT_SORTED_BUDDY : SNAP_FORMAT_PLAIN;
	tap_eq_u64(snap.format, want, "%s: format detected", set);
	tap_eq_u64(snap.norders, json_integer_value(json_object_get(exp,
	    "orders")), "%s: order columns", set);
	tap_eq_u64(snap.pageblock_order, json_integer_value(json_object_get(
	    exp, "pageblock_order")), "%s: pageblock order", set);
	tap_ok(snap.has_pagetype, "%s: has_pagetype", set);
	names = json_object_get(exp, "migratetypes");
	ok = (int)json_array_size(names) == snap.nmtypes;
	json_array_foreach(names, i, v) {
		if (i >= snap.nmtypes ||
		    strcmp(snap.mtypes[i], json_string_value(v)) != 0)
			ok = 0;
	}
	tap_ok(ok, "%s: migratetype names in header order", set);
	zones = json_object_get(exp, "zones");
	json_array_foreach(zones, i, zone) {
		if (json_is_true(json_object_get(zone, "populated")))
			populated++;
		check_zone(set, &snap, zone);
	}
	tap_eq_u64(snap.nentries, populated, "%s: one entry per populated key",
	    set);
out:
	snapshot_free(&snap);
	procfile_free(&zi);
	procfile_free(&bi);
	procfile_free(&pi);
	json_decref(exp);
}

/*
 * The free pages a text source reports: zoneinfo's "pages free" plus the
 * per-CPU list pages (expected.json's free and pcp), which are free too.
 */
static void
check_source_free(const char *dir, const char *set, struct snapshot *snap)
{
	json_t *exp, *zone, *region;
	struct snap_entry *e;
	char path[4200];
	int i, j, ok = 1, seen = 0;

	snprintf(path, sizeof path, "%s/expected.json", dir);
	if ((exp = json_load_file(path, 0, NULL)) == NULL)
		return;
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		json_array_foreach(json_object_get(exp, "zones"), j, zone) {
			region = json_object_get(zone, "region");
			if (json_object_get(zone, "pcp") == NULL ||
			    json_integer_value(json_object_get(zone, "node")) !=
			    e->node || strcmp(json_string_value(
			    json_object_get(zone, "zone")), e->zone) != 0 ||
			    (region != NULL && json_integer_value(region) !=
			    e->region))
				continue;
			seen++;
			if (e->free_pages != (uint64_t)(json_integer_value(
			    json_object_get(zone, "free")) + json_integer_value(
			    json_object_get(zone, "pcp")))) {
				ok = 0;
				tap_diag("node %d zone %s: free %llu", e->node,
				    e->zone, (unsigned long long)e->free_pages);
			}
		}
	}
	if (seen > 0)
		tap_ok(ok, "%s: the source counts per-CPU pages as free", set);
	json_decref(exp);
}

/* The source layer on one fixture set: auto and every source by name. */
static void
check_sources(const char *dir, const char *set)
{
	struct source_config cfg;
	struct source src;
	struct snapshot snap;
	struct snap_entry *entries;
	const char *want;
	char *cause = NULL;
	int i, r, ok, capacity;

	want = strncmp(set, "patched", 7) == 0 ? "patched" :
	    strncmp(set, "sorted-buddy", 12) == 0 ? "sorted-buddy" : "zone";
	source_config_init(&cfg);
	snprintf(cfg.proc_root, sizeof cfg.proc_root, "%s", dir);
	snapshot_init(&snap);
	r = source_open(&src, "auto", &cfg, &cause);
	if (!tap_ok(r == 0, "%s: auto source opens", set)) {
		tap_diag("%s", cause);
		free(cause);
		return;
	}
	tap_eq_str(src.ops->name, want, "%s: auto picks %s", set, want);
	if (!tap_ok(src.why != NULL && strstr(src.why, want) != NULL,
	    "%s: why names the source", set))
		tap_diag("why: %s", src.why ? src.why : "(null)");
	r = source_read(&src, &snap, SOURCE_READ_PAGETYPE, &cause);
	if (!tap_ok(r == 0, "%s: source reads", set)) {
		tap_diag("%s", cause);
		free(cause);
		cause = NULL;
	}
	tap_ok(snap.t_ns != 0, "%s: sample time stamped", set);
	check_source_free(dir, set, &snap);
	tap_eq_u64(src.files_read, SOURCE_FILE_ZONEINFO |
	    SOURCE_FILE_BUDDYINFO | SOURCE_FILE_PAGETYPEINFO,
	    "%s: files_read names the three files", set);
	ok = snap.nentries > 0;
	for (i = 0; i < snap.nentries; i++) {
		if (snap.entries[i].region < 0)
			ok = 0;
		if (strcmp(want, "zone") == 0 && snap.entries[i].region !=
		    (i > 0 && snap.entries[i - 1].node == snap.entries[i].node ?
		    snap.entries[i - 1].region + 1 : 0))
			ok = 0;
		if (i > 0 && snap.entries[i - 1].node > snap.entries[i].node)
			ok = 0;
	}
	tap_ok(ok, "%s: every key has a region, sorted by node", set);
	entries = snap.entries;
	capacity = snap.capacity;
	r = source_read(&src, &snap, 0, &cause);
	tap_ok(r == 0 && snap.entries == entries && snap.capacity == capacity &&
	    src.files_read == (SOURCE_FILE_ZONEINFO | SOURCE_FILE_BUDDYINFO) &&
	    !snap.has_pagetype, "%s: second read reuses storage, no "
	    "pagetypeinfo unless asked", set);
	source_close(&src);
	for (i = 0; source_table[i] != NULL; i++) {
		r = source_open(&src, source_table[i]->name, &cfg, &cause);
		if (strcmp(source_table[i]->name, want) == 0)
			tap_ok(r == 0, "%s: source %s opens by name", set,
			    want);
		else if (strcmp(source_table[i]->name, "kpageflags") == 0)
			tap_ok(1, "%s: kpageflags not checked here", set);
		else if (tap_ok(r == -RB_EXIT_ENV && cause != NULL &&
		    strstr(cause, "does not apply") != NULL,
		    "%s: source %s refuses these files", set,
		    source_table[i]->name))
			;
		else
			tap_diag("r=%d %s", r, cause ? cause : "");
		if (r == 0)
			source_close(&src);
		free(cause);
		cause = NULL;
	}
	snapshot_free(&snap);
}

/* scandir order: fixture sets by name. */
static int
set_compare(const struct dirent **a, const struct dirent **b)
{
	return (strcmp((*a)->d_name, (*b)->d_name));
}

/* This machine's /proc through the zone source (a mainline kernel). */
static void
check_live(void)
{
	struct source_config cfg;
	struct source src;
	struct snapshot snap;
	uint64_t free_sum = 0;
	char *cause = NULL;
	int r, i;

	if (!procfile_readable("/proc", "zoneinfo")) {
		tap_ok(1, "# SKIP no readable /proc/zoneinfo");
		return;
	}
	source_config_init(&cfg);
	snapshot_init(&snap);
	if (!tap_ok((r = source_open(&src, "zone", &cfg, &cause)) == 0,
	    "live: zone source opens on /proc")) {
		tap_diag("%s", cause);
		free(cause);
		return;
	}
	for (i = 0; i < 3 && r == 0; i++)
		r = source_read(&src, &snap, i == 0 ? SOURCE_READ_PAGETYPE : 0,
		    &cause);
	if (!tap_ok(r == 0 && snap.nentries > 0 && snap.norders >= 11,
	    "live: three samples, %d zones, %d orders", snap.nentries,
	    snap.norders))
		tap_diag("%s", cause ? cause : "");
	for (i = 0; i < snap.nentries; i++)
		free_sum += snap.entries[i].free_pages;
	tap_ok(free_sum > 0, "live: %llu free pages",
	    (unsigned long long)free_sum);
	source_close(&src);
	snapshot_free(&snap);
	free(cause);
}

int
main(void)
{
	struct src_kpageflags_settings *kpf;
	struct source_config cfg;
	struct source src;
	struct dirent **list;
	const char *fixtures = getenv("FIXTURES");
	char dir[4096], *cause = NULL;
	int n, i, sets = 0, r;

	if (fixtures == NULL)
		fixtures = "tests/fixtures/proc";
	if ((n = scandir(fixtures, &list, NULL, set_compare)) < 0)
		tap_skip_all("no fixture directory (set FIXTURES)");
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof dir, "%s/%s", fixtures, list[i]->d_name);
		if (list[i]->d_name[0] != '.' &&
		    procfile_exists(dir, "expected.json")) {
			check_set(dir, list[i]->d_name);
			check_sources(dir, list[i]->d_name);
			sets++;
		}
		free(list[i]);
	}
	free(list);
	tap_ok(sets >= 10, "%d fixture sets checked (with sorted-buddy-3.12)",
	    sets);

	check_live();
	source_config_init(&cfg);
	r = source_open(&src, "no-such-source", &cfg, &cause);
	tap_ok(r == -RB_EXIT_INPUT && strstr(cause, "auto, patched, "
	    "sorted-buddy") != NULL, "unknown source name is bad input "
	    "listing the names: %s", cause);
	free(cause);
	tap_eq_str(source_lookup("zone")->name, "zone", "source_lookup");
	tap_ok(source_lookup("auto") == NULL, "auto is not a source");
	tap_eq_str(cfg.proc_root, "/proc", "default proc root");
	kpf = source_settings_new(&src_kpageflags_ops);
	tap_eq_u64(kpf->region_bytes, 512ULL << 20, "default region size");
	tap_eq_str(kpf->scan_threads_text, "auto", "default scan threads");
	source_settings_free(&src_kpageflags_ops, kpf);
	return (tap_done());
}
