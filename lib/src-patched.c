/*
 * Source "patched": kernels with Ankita Garg's 2011 memory-region patches
 * (seeds 07 and 09), whose files name the region in every header:
 * "Node N, Region R, zone Z".  Regions are numbered per node by the kernel.
 */
#include "config.h"

#include "src-procfs.h"

/* Applies when zoneinfo headers carry a region. */
static int
src_patched_probe(struct source *src, char **reason)
{
	return (src_procfs_probe(src, SNAP_FORMAT_PATCHED, reason));
}

/* One sample: the kernel's own (node, region, zone) keys. */
static int
src_patched_read(struct source *src, struct snapshot *snap, int flags,
    char **cause)
{
	return (src_procfs_read(src, snap, flags, SNAP_FORMAT_PATCHED, cause));
}

/* meta.json details. */
static void
src_patched_describe(struct source *src, json_t *obj)
{
	json_object_set_new(obj, "format", json_string("patched"));
	src_procfs_describe(src, obj);
}

const struct source_ops src_patched_ops = {
	.name = "patched",
	.summary = "memory-region patched kernel (Node/Region/zone headers)",
	.probe = src_patched_probe,
	.open = src_procfs_open,
	.read = src_patched_read,
	.describe = src_patched_describe,
	.close = src_procfs_close
};
