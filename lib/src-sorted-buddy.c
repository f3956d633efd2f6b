/*
 * Source "sorted-buddy": kernels with Srivatsa S. Bhat's 2012-13 memory
 * power management series, which keep regions inside zones and print a
 * per-region table in each zone of zoneinfo, per-region buddyinfo rows and
 * "R%3d" pagetypeinfo rows.  Region numbers restart at 0 in every zone, so
 * the same number in two zones is two different ranges of memory.  The rest
 * of regionbench sums the zones of a (node, region) as one physical range,
 * so regions are renumbered per node in zone order (DMA R0..Rn, then
 * DMA32 R0.., ...); the kernel's own number stays in zone_region.
 */
#include "config.h"

#include <string.h>

#include "src-procfs.h"

#define RENUMBER_NODES	1024	/* the parsers refuse higher node ids */
#define RENUMBER_ZONES	8	/* zone ranks from snapshot_zone_rank */

/* Applies when zoneinfo has "Per-region page stats" tables. */
static int
src_sorted_buddy_probe(struct source *src, char **reason)
{
	return (src_procfs_probe(src, SNAP_FORMAT_SORTED_BUDDY, reason));
}

/* The zone rank of an entry, or -1 when it falls outside the counts. */
static int
src_sorted_buddy_rank(const struct snap_entry *e)
{
	int rank = snapshot_zone_rank(e->zone);

	if (e->node < 0 || e->node >= RENUMBER_NODES ||
	    rank >= RENUMBER_ZONES)
		return (-1);
	return (rank);
}

/*
 * Give every (node, zone, kernel region) a region number unique in its
 * node: the zone's offset (regions of the lower zones of that node) plus
 * the kernel's number.  Two passes, no allocation.
 */
static void
src_sorted_buddy_renumber(struct snapshot *snap)
{
	static int count[RENUMBER_NODES][RENUMBER_ZONES];
	struct snap_entry *e;
	int i, rank, r, offset, n;

	memset(count, 0, sizeof count);
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if ((rank = src_sorted_buddy_rank(e)) < 0)
			continue;
		if (e->region + 1 > count[e->node][rank])
			count[e->node][rank] = e->region + 1;
	}
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if ((rank = src_sorted_buddy_rank(e)) < 0)
			continue;
		for (offset = 0, r = 0; r < rank; r++)
			offset += count[e->node][r];
		n = e->region;
		e->zone_region = n;
		e->region = offset + n;
	}
	snapshot_sort(snap);
}

/* One sample: one key per (node, zone, region) of the kernel's tables. */
static int
src_sorted_buddy_read(struct source *src, struct snapshot *snap, int flags,
    char **cause)
{
	int rc;

	rc = src_procfs_read(src, snap, flags, SNAP_FORMAT_SORTED_BUDDY,
	    cause);
	if (rc == 0)
		src_sorted_buddy_renumber(snap);
	return (rc);
}

/* meta.json details. */
static void
src_sorted_buddy_describe(struct source *src, json_t *obj)
{
	json_object_set_new(obj, "format", json_string("sorted-buddy"));
	json_object_set_new(obj, "regions_restart_per_zone", json_true());
	json_object_set_new(obj, "region_numbering", json_string("per node "
	    "in zone order; the kernel's number is regions.csv zone_region"));
	src_procfs_describe(src, obj);
}

const struct source_ops src_sorted_buddy_ops = {
	.name = "sorted-buddy",
	.summary = "sorted-buddy kernel (per-region tables inside zones)",
	.probe = src_sorted_buddy_probe,
	.open = src_procfs_open,
	.read = src_sorted_buddy_read,
	.describe = src_sorted_buddy_describe,
	.close = src_procfs_close
};
