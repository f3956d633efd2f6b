/*
 * The region map as JSON, for recordings (docs/csv-schema.md): how a run
 * cut its emulated regions, kept so that a replay has the same map (meta's
 * region_size_bytes, the source's description) without the sysfs of the
 * machine it was recorded on.  Every array is kept whole.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "region-map-private.h"

#define RMJ_I(v)	((json_int_t)(v))

/* The map as a JSON object (the caller owns it). */
json_t *
region_map_to_json(const struct region_map *map)
{
	json_t *o, *a;
	int i;

	o = json_pack("{s:s, s:I, s:I, s:I, s:o}",
	    "mode", region_map_mode_name(map),
	    "page_size", RMJ_I(map->page_size),
	    "region_pages", RMJ_I(map->region_pages),
	    "block_pages", RMJ_I(map->block_pages),
	    "file", map->file != NULL ? json_string(map->file) : json_null());
	a = json_array();
	for (i = 0; i < map->nnodes; i++)
		json_array_append_new(a, json_pack("{s:i, s:I, s:I, s:i}",
		    "node", map->nodes[i].node,
		    "start_pfn", RMJ_I(map->nodes[i].start_pfn),
		    "end_pfn", RMJ_I(map->nodes[i].end_pfn),
		    "regions", map->nodes[i].nregions));
	json_object_set_new(o, "nodes", a);
	a = json_array();
	for (i = 0; i < map->nblocks; i++)
		json_array_append_new(a, json_pack("{s:i, s:i, s:I, s:I, s:b, "
		    "s:s}", "id", map->blocks[i].id,
		    "node", map->blocks[i].node,
		    "start_pfn", RMJ_I(map->blocks[i].start_pfn),
		    "end_pfn", RMJ_I(map->blocks[i].end_pfn),
		    "online", map->blocks[i].online,
		    "valid_zone", map->blocks[i].valid_zone));
	json_object_set_new(o, "blocks", a);
	a = json_array();
	for (i = 0; i < map->nregions; i++)
		json_array_append_new(a, json_pack("{s:i, s:i, s:I, s:I}",
		    "node", map->regions[i].node,
		    "region", map->regions[i].region,
		    "start_pfn", RMJ_I(map->regions[i].start_pfn),
		    "end_pfn", RMJ_I(map->regions[i].end_pfn)));
	json_object_set_new(o, "regions", a);
	a = json_array();
	for (i = 0; i < map->nzones; i++)
		json_array_append_new(a, json_pack("{s:i, s:s, s:I, s:I, s:b}",
		    "node", map->zones[i].node, "name", map->zones[i].name,
		    "start_pfn", RMJ_I(map->zones[i].start_pfn),
		    "end_pfn", RMJ_I(map->zones[i].end_pfn),
		    "partial", map->zones[i].partial));
	json_object_set_new(o, "zones", a);
	a = json_array();
	for (i = 0; i < map->nkeys; i++)
		json_array_append_new(a, json_pack("{s:i, s:i, s:i, s:i, s:I, "
		    "s:I}", "node", map->keys[i].node,
		    "region", map->keys[i].region, "span", map->keys[i].span,
		    "zone", map->keys[i].zone,
		    "start_pfn", RMJ_I(map->keys[i].start_pfn),
		    "end_pfn", RMJ_I(map->keys[i].end_pfn)));
	json_object_set_new(o, "keys", a);
	a = json_array();
	for (i = 0; i < map->nsegs; i++)
		json_array_append_new(a, json_pack("{s:I, s:I, s:i, s:i}",
		    "start_pfn", RMJ_I(map->segs[i].start_pfn),
		    "end_pfn", RMJ_I(map->segs[i].end_pfn),
		    "key", map->segs[i].key, "block", map->segs[i].block));
	json_object_set_new(o, "segs", a);
	return (o);
}

/* The array called key of o, allocated as *n elements of size each. */
static void *
region_map_json_array(json_t *o, const char *key, size_t size, int *n)
{
	json_t *a = json_object_get(o, key);

	*n = -1;
	if (!json_is_array(a) || json_array_size(a) > (1 << 24))
		return (NULL);
	*n = (int)json_array_size(a);
	return (xcalloc(*n > 0 ? *n : 1, size));
}

/* The map's nodes from recording.json. */
static int
rmj_read_nodes(struct region_map *map, json_t *o)
{
	json_int_t s, e;
	json_t *j;
	size_t i;

	if ((map->nodes = region_map_json_array(o, "nodes",
	    sizeof *map->nodes, &map->nnodes)) == NULL)
		return (-1);
	json_array_foreach(json_object_get(o, "nodes"), i, j) {
		if (json_unpack(j, "{s:i, s:I, s:I, s:i}", "node",
		    &map->nodes[i].node, "start_pfn", &s, "end_pfn", &e,
		    "regions", &map->nodes[i].nregions) != 0)
			return (-1);
		map->nodes[i].start_pfn = (uint64_t)s;
		map->nodes[i].end_pfn = (uint64_t)e;
	}
	return (0);
}

/* The map's blocks from recording.json. */
static int
rmj_read_blocks(struct region_map *map, json_t *o)
{
	const char *name;
	json_int_t s, e;
	json_t *j;
	size_t i;
	int b;

	if ((map->blocks = region_map_json_array(o, "blocks",
	    sizeof *map->blocks, &map->nblocks)) == NULL)
		return (-1);
	json_array_foreach(json_object_get(o, "blocks"), i, j) {
		if (json_unpack(j, "{s:i, s:i, s:I, s:I, s:b, s:s}", "id",
		    &map->blocks[i].id, "node", &map->blocks[i].node,
		    "start_pfn", &s, "end_pfn", &e, "online", &b,
		    "valid_zone", &name) != 0 || strlen(name) >= SNAP_NAME_LEN)
			return (-1);
		map->blocks[i].start_pfn = (uint64_t)s;
		map->blocks[i].end_pfn = (uint64_t)e;
		map->blocks[i].online = b;
		snprintf(map->blocks[i].valid_zone, SNAP_NAME_LEN, "%s", name);
	}
	return (0);
}

/* The map's regions from recording.json. */
static int
rmj_read_regions(struct region_map *map, json_t *o)
{
	json_int_t s, e;
	json_t *j;
	size_t i;

	if ((map->regions = region_map_json_array(o, "regions",
	    sizeof *map->regions, &map->nregions)) == NULL)
		return (-1);
	json_array_foreach(json_object_get(o, "regions"), i, j) {
		if (json_unpack(j, "{s:i, s:i, s:I, s:I}", "node",
		    &map->regions[i].node, "region", &map->regions[i].region,
		    "start_pfn", &s, "end_pfn", &e) != 0)
			return (-1);
		map->regions[i].start_pfn = (uint64_t)s;
		map->regions[i].end_pfn = (uint64_t)e;
	}
	return (0);
}

/* The map's zones from recording.json. */
static int
rmj_read_zones(struct region_map *map, json_t *o)
{
	const char *name;
	json_int_t s, e;
	json_t *j;
	size_t i;
	int b;

	if ((map->zones = region_map_json_array(o, "zones",
	    sizeof *map->zones, &map->nzones)) == NULL)
		return (-1);
	json_array_foreach(json_object_get(o, "zones"), i, j) {
		if (json_unpack(j, "{s:i, s:s, s:I, s:I, s:b}", "node",
		    &map->zones[i].node, "name", &name, "start_pfn", &s,
		    "end_pfn", &e, "partial", &b) != 0 ||
		    strlen(name) >= SNAP_NAME_LEN)
			return (-1);
		snprintf(map->zones[i].name, SNAP_NAME_LEN, "%s", name);
		map->zones[i].start_pfn = (uint64_t)s;
		map->zones[i].end_pfn = (uint64_t)e;
		map->zones[i].partial = b;
	}
	return (0);
}

/* The map's keys from recording.json. */
static int
rmj_read_keys(struct region_map *map, json_t *o)
{
	json_int_t s, e;
	json_t *j;
	size_t i;

	if ((map->keys = region_map_json_array(o, "keys",
	    sizeof *map->keys, &map->nkeys)) == NULL)
		return (-1);
	json_array_foreach(json_object_get(o, "keys"), i, j) {
		if (json_unpack(j, "{s:i, s:i, s:i, s:i, s:I, s:I}", "node",
		    &map->keys[i].node, "region", &map->keys[i].region,
		    "span", &map->keys[i].span, "zone", &map->keys[i].zone,
		    "start_pfn", &s, "end_pfn", &e) != 0 ||
		    map->keys[i].span < 0 ||
		    map->keys[i].span >= map->nregions ||
		    map->keys[i].zone < 0 || map->keys[i].zone >= map->nzones)
			return (-1);
		map->keys[i].start_pfn = (uint64_t)s;
		map->keys[i].end_pfn = (uint64_t)e;
	}
	return (0);
}

/* The map's segs from recording.json. */
static int
rmj_read_segs(struct region_map *map, json_t *o)
{
	json_int_t s, e;
	json_t *j;
	size_t i;

	if ((map->segs = region_map_json_array(o, "segs",
	    sizeof *map->segs, &map->nsegs)) == NULL)
		return (-1);
	json_array_foreach(json_object_get(o, "segs"), i, j) {
		if (json_unpack(j, "{s:I, s:I, s:i, s:i}", "start_pfn", &s,
		    "end_pfn", &e, "key", &map->segs[i].key, "block",
		    &map->segs[i].block) != 0 || map->segs[i].key < 0 ||
		    map->segs[i].key >= map->nkeys ||
		    map->segs[i].block < -1 ||
		    map->segs[i].block >= map->nblocks)
			return (-1);
		map->segs[i].start_pfn = (uint64_t)s;
		map->segs[i].end_pfn = (uint64_t)e;
	}
	return (0);
}

/* Read the map back from region_map_to_json's object; -1 when malformed. */
static int
region_map_json_read(struct region_map *map, json_t *o)
{
	json_int_t ps, rp, bp;
	json_t *file;
	const char *mode;

	if (json_unpack(o, "{s:s, s:I, s:I, s:I, s:o}", "mode", &mode,
	    "page_size", &ps, "region_pages", &rp, "block_pages", &bp,
	    "file", &file) != 0 || ps <= 0 || rp < 0 || bp < 0)
		return (-1);
	if (strcmp(mode, "size") == 0)
		map->mode = REGION_MAP_SIZE;
	else if (strcmp(mode, "block") == 0)
		map->mode = REGION_MAP_BLOCK;
	else if (strcmp(mode, "file") == 0)
		map->mode = REGION_MAP_FILE;
	else
		return (-1);
	map->page_size = (uint64_t)ps;
	map->region_pages = (uint64_t)rp;
	map->block_pages = (uint64_t)bp;
	if (json_is_string(file))
		map->file = xstrdup(json_string_value(file));

	/* In this order: keys refer to regions and zones, segs to keys
	 * and blocks, and each check needs the counts before it. */
	if (rmj_read_nodes(map, o) != 0 || rmj_read_blocks(map, o) != 0 ||
	    rmj_read_regions(map, o) != 0 || rmj_read_zones(map, o) != 0 ||
	    rmj_read_keys(map, o) != 0 || rmj_read_segs(map, o) != 0)
		return (-1);
	return (0);
}

/*
 * Fill map from what region_map_to_json wrote; where names the object in
 * errors, which are input errors.  The map has no sysfs root: its memory
 * blocks are never read again.
 */
int
region_map_from_json(struct region_map *map, json_t *obj, const char *where,
    char **cause)
{
	memset(map, 0, sizeof *map);
	if (!json_is_object(obj) || region_map_json_read(map, obj) != 0) {
		region_map_free(map);
		return (fail_with(cause, RB_EXIT_INPUT, "%s: malformed region "
		    "map (expected mode, page_size, region_pages, block_pages, "
		    "file, nodes, blocks, regions, zones, keys and segs)",
		    where));
	}
	return (0);
}
