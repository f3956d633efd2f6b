/*
 * Source "sorted-buddy": kernels with Srivatsa S. Bhat's 2012-13 memory
 * power management series, which keep regions inside zones and print a
 * per-region table in each zone of zoneinfo, per-region buddyinfo rows and
 * "R%3d" pagetypeinfo rows.  Region numbers restart at 0 in every zone, so
 * a key is (node, region, zone) and the same region number in two zones is
 * two different ranges of memory.
 */
#include "config.h"

#include "src-procfs.h"

/* Applies when zoneinfo has "Per-region page stats" tables. */
static int
src_sorted_buddy_probe(struct source *src, char **reason)
{
	return (src_procfs_probe(src, SNAP_FORMAT_SORTED_BUDDY, reason));
}

/* One sample: one key per (node, zone, region) of the kernel's tables. */
static int
src_sorted_buddy_read(struct source *src, struct snapshot *snap, int flags,
    char **cause)
{
	return (src_procfs_read(src, snap, flags, SNAP_FORMAT_SORTED_BUDDY,
	    cause));
}

/* meta.json details. */
static void
src_sorted_buddy_describe(struct source *src, json_t *obj)
{
	json_object_set_new(obj, "format", json_string("sorted-buddy"));
	json_object_set_new(obj, "regions_restart_per_zone", json_true());
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
