/*
 * Source "zone": the fallback for a mainline kernel without root.  Each
 * populated (node, zone) is its own region, numbered 0, 1, ... in zone
 * order within each node.  Coarse, but every later stage works with it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "src-procfs.h"

/* Applies to mainline zoneinfo (no region headers or tables). */
static int
src_zone_probe(struct source *src, char **reason)
{
	return (src_procfs_probe(src, SNAP_FORMAT_PLAIN, reason));
}

/* One sample; the sorted entries are numbered per node as regions. */
static int
src_zone_read(struct source *src, struct snapshot *snap, int flags,
    char **cause)
{
	int i, r;

	if ((r = src_procfs_read(src, snap, flags, SNAP_FORMAT_PLAIN,
	    cause)) != 0)
		return (r);
	for (i = 0; i < snap->nentries; i++) {
		if (i > 0 && snap->entries[i - 1].node ==
		    snap->entries[i].node)
			snap->entries[i].region =
			    snap->entries[i - 1].region + 1;
		else
			snap->entries[i].region = 0;
	}
	return (0);
}

/* meta.json details. */
static void
src_zone_describe(struct source *src, json_t *obj)
{
	json_object_set_new(obj, "format", json_string("mainline"));
	json_object_set_new(obj, "regions", json_string("one per populated "
	    "zone, numbered in zone order per node"));
	src_procfs_describe(src, obj);
}

/*
 * When auto fell back to this source: one line saying that the regions
 * are whole zones and why no finer source applied (the kpageflags
 * source's reason, usually that it needs root).  NULL when the source
 * was asked for by name.
 */
static char *
src_zone_counting(const struct source *src)
{
	const char *why = NULL, *line;
	char *text;
	size_t len;

	if (src->why == NULL || strncmp(src->why, "auto", 4) != 0)
		return (NULL);
	for (line = src->passed_over; line != NULL && *line != '\0'; ) {
		if (strncmp(line, "kpageflags: ", 12) == 0) {
			why = line + 12;
			break;
		}
		if ((line = strchr(line, '\n')) != NULL)
			line++;
	}
	if (why == NULL)
		return (xstrdup("zone: regions are whole zones: no source "
		    "with finer regions applies here"));
	len = strcspn(why, "\n");
	text = xasprintf("zone: regions are whole zones, not emulated "
	    "regions: %.*s", (int)len, why);
	return (text);
}

const struct source_ops src_zone_ops = {
	.name = "zone",
	.summary = "mainline kernel: each populated zone is a region",
	.probe = src_zone_probe,
	.open = src_procfs_open,
	.read = src_zone_read,
	.describe = src_zone_describe,
	.close = src_procfs_close,
	.counting = src_zone_counting
};
