/*
 * Snapshot storage.  Entries are kept in an array that only grows when a
 * sample has more keys than any before it, which after the first sample of
 * a run means never: the sampler's loop stays allocation-free.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "snapshot.h"

/* Prepare an empty snapshot. */
void
snapshot_init(struct snapshot *snap)
{
	memset(snap, 0, sizeof *snap);
	snap->pageblock_order = -1;
}

/* Release a snapshot's storage. */
void
snapshot_free(struct snapshot *snap)
{
	free(snap->entries);
	memset(snap, 0, sizeof *snap);
}

/* Forget every entry but keep the storage for the next sample. */
void
snapshot_reset(struct snapshot *snap)
{
	snap->nentries = 0;
	snap->format = SNAP_FORMAT_UNKNOWN;
	snap->norders = 0;
	snap->pageblock_order = -1;
	snap->nmtypes = 0;
	snap->has_pagetype = 0;
	snap->t_ns = 0;
	snap->nwarn = 0;
	snap->warn_dropped = 0;
}

/* Copy a snapshot, growing dst only when it is too small. */
void
snapshot_copy(struct snapshot *dst, const struct snapshot *src)
{
	struct snap_entry *entries = dst->entries;
	int capacity = dst->capacity;

	if (capacity < src->nentries) {
		capacity = src->nentries;
		entries = xreallocarray(entries, capacity, sizeof *entries);
	}
	*dst = *src;
	dst->entries = entries;
	dst->capacity = capacity;
	if (src->nentries > 0)
		memcpy(entries, src->entries, src->nentries * sizeof *entries);
}

/* Find the entry of a region key, or NULL. */
struct snap_entry *
snapshot_find(struct snapshot *snap, int node, int region, const char *zone)
{
	struct snap_entry *e;
	int i;

	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (e->node == node && e->region == region &&
		    strcmp(e->zone, zone) == 0)
			return (e);
	}
	return (NULL);
}

/* Append a zeroed entry for a region key (the caller checks duplicates). */
struct snap_entry *
snapshot_add(struct snapshot *snap, int node, int region, const char *zone)
{
	struct snap_entry *e;

	if (snap->nentries == snap->capacity) {
		snap->capacity = snap->capacity == 0 ? 16 : snap->capacity * 2;
		snap->entries = xreallocarray(snap->entries, snap->capacity,
		    sizeof *snap->entries);
	}
	e = &snap->entries[snap->nentries++];
	memset(e, 0, sizeof *e);
	e->node = node;
	e->region = region;
	e->zone_region = -1;
	snprintf(e->zone, sizeof e->zone, "%s", zone);
	e->start_pfn = SNAP_UNKNOWN;
	e->spanned = SNAP_UNKNOWN;
	e->present = SNAP_UNKNOWN;
	e->managed = SNAP_UNKNOWN;
	return (e);
}

/* Index of a migratetype name, added when new; -1 when the table is full. */
int
snapshot_mtype(struct snapshot *snap, const char *name)
{
	int i;

	for (i = 0; i < snap->nmtypes; i++) {
		if (strcmp(snap->mtypes[i], name) == 0)
			return (i);
	}
	if (snap->nmtypes == SNAP_MAX_MTYPES)
		return (-1);
	snprintf(snap->mtypes[snap->nmtypes], SNAP_NAME_LEN, "%s", name);
	return (snap->nmtypes++);
}

/* Rank of a zone name in the kernel's zone order (unknown names last). */
int
snapshot_zone_rank(const char *zone)
{
	static const char *const order[] = {
		"DMA", "DMA32", "Normal", "HighMem", "Movable", "Device"
	};
	size_t i;

	for (i = 0; i < sizeof order / sizeof order[0]; i++) {
		if (strcmp(order[i], zone) == 0)
			return ((int)i);
	}
	return ((int)(sizeof order / sizeof order[0]));
}

/* Order entries by node, region, then zone order (qsort callback). */
static int
entry_compare(const void *a, const void *b)
{
	const struct snap_entry *x = a, *y = b;
	int rx, ry;

	if (x->node != y->node)
		return (x->node < y->node ? -1 : 1);
	if (x->region != y->region)
		return (x->region < y->region ? -1 : 1);
	rx = snapshot_zone_rank(x->zone);
	ry = snapshot_zone_rank(y->zone);
	if (rx != ry)
		return (rx < ry ? -1 : 1);
	return (strcmp(x->zone, y->zone));
}

/*
 * Sort entries into (node, region, zone) order.  An insertion sort: the
 * entries arrive nearly sorted, and glibc's qsort allocates a buffer for
 * elements this large, which the sampler's loop must not do.
 */
void
snapshot_sort(struct snapshot *snap)
{
	struct snap_entry tmp;
	int i, j;

	for (i = 1; i < snap->nentries; i++) {
		if (entry_compare(&snap->entries[i - 1], &snap->entries[i]) <= 0)
			continue;
		tmp = snap->entries[i];
		for (j = i; j > 0 && entry_compare(&snap->entries[j - 1], &tmp) >
		    0; j--)
			snap->entries[j] = snap->entries[j - 1];
		snap->entries[j] = tmp;
	}
}

/* Record a consistency warning; extra ones are counted, not stored. */
void
snapshot_warn(struct snapshot *snap, const char *fmt, ...)
{
	va_list ap;

	if (snap->nwarn == SNAP_MAX_WARN) {
		snap->warn_dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(snap->warn[snap->nwarn++], SNAP_WARN_LEN, fmt, ap);
	va_end(ap);
}

/* Used pages of a key: present minus free, never below zero. */
uint64_t
snap_entry_used(const struct snap_entry *e)
{
	if (e->present == SNAP_UNKNOWN || e->free_pages >= e->present)
		return (0);
	return (e->present - e->free_pages);
}
