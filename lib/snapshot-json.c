/*
 * Snapshots as JSON: what a source computed for one sample, kept in a
 * recording (DIR/NNNN/snapshot.json, docs/csv-schema.md) so that a replay
 * gives the figures of a source that cannot be computed again from the
 * recorded /proc text (kpageflags scans a binary file of the machine).
 * Every field the sinks write is kept; an unknown number is null.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "snapshot-json.h"
#include "units.h"

static const char *const snapshot_json_formats[] = {
	"unknown", "plain", "patched", "sorted-buddy"
};

/* A number, or null when unknown. */
static json_t *
snapshot_json_u64(uint64_t v)
{
	return (v == SNAP_UNKNOWN ? json_null() : json_integer((json_int_t)v));
}

/* An array of n numbers. */
static json_t *
snapshot_json_array(const uint64_t *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return (a);
}

/* One entry of a snapshot. */
static json_t *
snapshot_json_entry(const struct snapshot *snap, const struct snap_entry *e)
{
	json_t *o, *free_mt, *capped;
	int m;

	o = json_pack("{s:i, s:i, s:i, s:s, s:o, s:o, s:o, s:o, s:o, s:o, "
	    "s:o, s:o}",
	    "node", e->node, "region", e->region,
	    "zone_region", e->zone_region, "zone", e->zone,
	    "start_pfn", snapshot_json_u64(e->start_pfn),
	    "spanned", snapshot_json_u64(e->spanned),
	    "present", snapshot_json_u64(e->present),
	    "managed", snapshot_json_u64(e->managed),
	    "free_pages", snapshot_json_u64(e->free_pages),
	    "pcp_pages", snapshot_json_u64(e->pcp_pages),
	    "stat_slack", snapshot_json_u64(e->stat_slack),
	    "free_blocks", snapshot_json_array(e->free_blocks, e->norders));
	/* An exact count kept from an earlier sample keeps its age. */
	if (e->counted_ns != 0 && e->counted_ns <= snap->t_ns)
		json_object_set_new(o, "counted_age_ns",
		    json_integer((json_int_t)(snap->t_ns - e->counted_ns)));
	/* A sampled scan's estimate keeps its interval. */
	if (e->free_interval) {
		json_object_set_new(o, "free_pages_lo",
		    snapshot_json_u64(e->free_lo));
		json_object_set_new(o, "free_pages_hi",
		    snapshot_json_u64(e->free_hi));
	}
	if (e->has_mt_free) {
		free_mt = json_array();
		capped = json_array();
		for (m = 0; m < snap->nmtypes; m++) {
			json_array_append_new(free_mt, snapshot_json_array(
			    e->mt_free[m], snap->norders));
			json_array_append_new(capped,
			    json_integer(e->mt_capped[m]));
		}
		json_object_set_new(o, "mt_free", free_mt);
		json_object_set_new(o, "mt_capped", capped);
	}
	if (e->has_mt_blocks)
		json_object_set_new(o, "mt_blocks", snapshot_json_array(
		    e->mt_blocks, snap->nmtypes));
	if (e->has_used) {
		json_object_set_new(o, "used", snapshot_json_array(e->used,
		    SNAP_USED_NCLASS));
		json_object_set_new(o, "uninit", snapshot_json_u64(e->uninit));
	}
	return (o);
}

/* A snapshot as a JSON object (the caller owns it). */
json_t *
snapshot_to_json(const struct snapshot *snap)
{
	json_t *o, *a;
	int i;

	o = json_object();
	json_object_set_new(o, "format", json_string(
	    snapshot_json_formats[snap->format]));
	json_object_set_new(o, "norders", json_integer(snap->norders));
	json_object_set_new(o, "pageblock_order",
	    json_integer(snap->pageblock_order));
	json_object_set_new(o, "has_pagetype",
	    json_boolean(snap->has_pagetype));
	a = json_array();
	for (i = 0; i < snap->nmtypes; i++)
		json_array_append_new(a, json_string(snap->mtypes[i]));
	json_object_set_new(o, "migratetypes", a);
	a = json_array();
	for (i = 0; i < snap->nwarn; i++)
		json_array_append_new(a, json_string(snap->warn[i]));
	json_object_set_new(o, "warnings", a);
	json_object_set_new(o, "warnings_dropped",
	    json_integer(snap->warn_dropped));
	a = json_array();
	for (i = 0; i < snap->nentries; i++)
		json_array_append_new(a, snapshot_json_entry(snap,
		    &snap->entries[i]));
	json_object_set_new(o, "entries", a);
	return (o);
}

/* Read a number that may be null (unknown) into *v; -1 when malformed. */
static int
snapshot_json_get_u64(json_t *o, const char *key, uint64_t *v)
{
	json_t *j = json_object_get(o, key);

	if (j == NULL || json_is_null(j)) {
		*v = SNAP_UNKNOWN;
		return (0);
	}
	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return (-1);
	*v = (uint64_t)json_integer_value(j);
	return (0);
}

/* Read an array of at most max numbers; returns its length or -1. */
static int
snapshot_json_get_array(json_t *a, uint64_t *v, int max)
{
	size_t i;
	json_t *j;

	if (!json_is_array(a) || json_array_size(a) > (size_t)max)
		return (-1);
	json_array_foreach(a, i, j) {
		if (!json_is_integer(j) || json_integer_value(j) < 0)
			return (-1);
		v[i] = (uint64_t)json_integer_value(j);
	}
	return ((int)json_array_size(a));
}

/* An entry's migratetype figures (pagetypeinfo), when it has them. */
static int
snapshot_json_read_mt(const struct snapshot *snap, struct snap_entry *e,
    json_t *o, const char **what)
{
	json_t *j, *k;
	size_t m;

	if ((j = json_object_get(o, "mt_free")) != NULL) {
		*what = "mt_free is not one array of order counts per "
		    "migratetype";
		if (!json_is_array(j) || json_array_size(j) !=
		    (size_t)snap->nmtypes)
			return (-1);
		json_array_foreach(j, m, k) {
			if (snapshot_json_get_array(k, e->mt_free[m],
			    SNAP_MAX_ORDERS) < 0)
				return (-1);
		}
		k = json_object_get(o, "mt_capped");
		if (!json_is_array(k) || json_array_size(k) !=
		    (size_t)snap->nmtypes)
			return (-1);
		json_array_foreach(k, m, j) {
			if (!json_is_integer(j))
				return (-1);
			e->mt_capped[m] = (uint32_t)json_integer_value(j);
		}
		e->has_mt_free = 1;
	}
	if ((j = json_object_get(o, "mt_blocks")) != NULL) {
		*what = "mt_blocks is not one count per migratetype";
		if (snapshot_json_get_array(j, e->mt_blocks,
		    SNAP_MAX_MTYPES) != snap->nmtypes)
			return (-1);
		e->has_mt_blocks = 1;
	}
	return (0);
}

/* One entry back into snap; -1 with *what when malformed. */
static int
snapshot_json_read_entry(struct snapshot *snap, json_t *o, const char **what)
{
	struct snap_entry *e;
	json_t *j;
	const char *zone;
	int node, region, zone_region, n;

	*what = "an entry needs node, region, zone_region and zone";
	if (json_unpack(o, "{s:i, s:i, s:i, s:s}", "node", &node, "region",
	    &region, "zone_region", &zone_region, "zone", &zone) != 0 ||
	    strlen(zone) >= SNAP_NAME_LEN)
		return (-1);
	if (snapshot_find(snap, node, region, zone) != NULL) {
		*what = "a region key is listed twice";
		return (-1);
	}
	e = snapshot_add(snap, node, region, zone);
	e->zone_region = zone_region;
	*what = "a page count is not a non-negative integer or null";
	if (snapshot_json_get_u64(o, "start_pfn", &e->start_pfn) != 0 ||
	    snapshot_json_get_u64(o, "spanned", &e->spanned) != 0 ||
	    snapshot_json_get_u64(o, "present", &e->present) != 0 ||
	    snapshot_json_get_u64(o, "managed", &e->managed) != 0 ||
	    snapshot_json_get_u64(o, "free_pages", &e->free_pages) != 0 ||
	    snapshot_json_get_u64(o, "pcp_pages", &e->pcp_pages) != 0 ||
	    snapshot_json_get_u64(o, "stat_slack", &e->stat_slack) != 0)
		return (-1);
	/* Free pages and per-CPU figures are counts, never unknown. */
	if (e->free_pages == SNAP_UNKNOWN)
		e->free_pages = 0;
	if (e->pcp_pages == SNAP_UNKNOWN)
		e->pcp_pages = 0;
	if (e->stat_slack == SNAP_UNKNOWN)
		e->stat_slack = 0;
	*what = "free_blocks is not an array of at most 16 counts";
	if ((n = snapshot_json_get_array(json_object_get(o, "free_blocks"),
	    e->free_blocks, SNAP_MAX_ORDERS)) < 0)
		return (-1);
	e->norders = n;
	if (json_object_get(o, "free_pages_lo") != NULL ||
	    json_object_get(o, "free_pages_hi") != NULL) {
		*what = "free_pages_lo and free_pages_hi are not an interval "
		    "around free_pages";
		if (snapshot_json_get_u64(o, "free_pages_lo", &e->free_lo) !=
		    0 || snapshot_json_get_u64(o, "free_pages_hi",
		    &e->free_hi) != 0 || e->free_lo > e->free_pages ||
		    e->free_hi < e->free_pages || e->free_hi == SNAP_UNKNOWN)
			return (-1);
		e->free_interval = 1;
	}
	if ((j = json_object_get(o, "counted_age_ns")) != NULL) {
		*what = "counted_age_ns is not a count of nanoseconds";
		if (!json_is_integer(j) || json_integer_value(j) < 0 ||
		    (uint64_t)json_integer_value(j) >= snap->t_ns)
			return (-1);
		e->counted_ns = snap->t_ns - (uint64_t)json_integer_value(j);
	}
	if (snapshot_json_read_mt(snap, e, o, what) != 0)
		return (-1);
	if ((j = json_object_get(o, "used")) != NULL) {
		*what = "used is not one count per class of used pages";
		if (snapshot_json_get_array(j, e->used, SNAP_USED_NCLASS) !=
		    SNAP_USED_NCLASS)
			return (-1);
		e->has_used = 1;
		/* Recordings from before the uninit count have none. */
		*what = "uninit is not a page count";
		if (snapshot_json_get_u64(o, "uninit", &e->uninit) != 0)
			return (-1);
		if (e->uninit == SNAP_UNKNOWN)
			e->uninit = 0;
	}
	return (0);
}

/*
 * Fill snap (reset first) from what snapshot_to_json wrote; path names
 * the file in errors, which are input errors.
 */
int
snapshot_from_json(struct snapshot *snap, json_t *o, const char *path,
    char **cause)
{
	const char *what = "expected a JSON object", *format;
	json_t *a, *j;
	size_t i;
	int k;

	snapshot_reset(snap);
	/* Taken now: ages of kept counts are measured back from it. */
	snap->t_ns = units_now_ns();
	if (!json_is_object(o))
		goto bad;
	what = "format, norders, pageblock_order, migratetypes and entries "
	    "are needed";
	if (json_unpack(o, "{s:s, s:i, s:i}", "format", &format, "norders",
	    &snap->norders, "pageblock_order", &snap->pageblock_order) != 0)
		goto bad;
	for (k = 0; k < (int)(sizeof snapshot_json_formats /
	    sizeof snapshot_json_formats[0]); k++) {
		if (strcmp(snapshot_json_formats[k], format) == 0)
			break;
	}
	if (k == (int)(sizeof snapshot_json_formats /
	    sizeof snapshot_json_formats[0]) || snap->norders < 0 ||
	    snap->norders > SNAP_MAX_ORDERS) {
		what = "unknown format, or norders out of range";
		goto bad;
	}
	snap->format = k;
	snap->has_pagetype = json_is_true(json_object_get(o,
	    "has_pagetype"));
	a = json_object_get(o, "migratetypes");
	if (!json_is_array(a) || json_array_size(a) > SNAP_MAX_MTYPES)
		goto bad;
	json_array_foreach(a, i, j) {
		if (!json_is_string(j) || json_string_length(j) >=
		    SNAP_NAME_LEN)
			goto bad;
		snapshot_mtype(snap, json_string_value(j));
	}
	a = json_object_get(o, "warnings");
	if (json_is_array(a)) {
		json_array_foreach(a, i, j) {
			if (json_is_string(j))
				snapshot_warn(snap, "%s",
				    json_string_value(j));
		}
	}
	j = json_object_get(o, "warnings_dropped");
	if (json_is_integer(j) && json_integer_value(j) > 0 &&
	    json_integer_value(j) < 1000000)
		snap->warn_dropped += (int)json_integer_value(j);
	a = json_object_get(o, "entries");
	if (!json_is_array(a))
		goto bad;
	json_array_foreach(a, i, j) {
		if (snapshot_json_read_entry(snap, j, &what) != 0)
			return (fail_with(cause, RB_EXIT_INPUT,
			    "%s: entry %zu: %s", path, i + 1, what));
	}
	return (0);

bad:
	return (fail_with(cause, RB_EXIT_INPUT, "%s: %s", path, what));
}
