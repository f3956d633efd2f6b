/*
 * Building the emulated region map from sysfs, zoneinfo and the user's
 * choice of region size, block regions or a --region-map file.  Everything
 * here runs once when a source or placement opens; the scan and the pfn
 * lookups only read the finished arrays.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "region-map-private.h"
#include "units.h"

/* Region numbers of /proc on patched kernels go from 0 to 65535. */
#define REGION_MAP_MAX_REGIONS	65536

/* Index of a node in map->nodes, adding it when new. */
int
region_map_node_index(struct region_map *map, int node, int add)
{
	int i;

	for (i = 0; i < map->nnodes; i++) {
		if (map->nodes[i].node == node)
			return (i);
	}
	if (!add)
		return (-1);
	map->nodes = xreallocarray(map->nodes, map->nnodes + 1,
	    sizeof *map->nodes);
	memset(&map->nodes[map->nnodes], 0, sizeof *map->nodes);
	map->nodes[map->nnodes].node = node;
	map->nodes[map->nnodes].start_pfn = UINT64_MAX;
	return (map->nnodes++);
}

/* Node spans: from the first to the last memory block linked to it. */
static void
region_map_node_spans(struct region_map *map)
{
	struct region_node *n;
	int i, ni;

	for (i = 0; i < map->nblocks; i++) {
		ni = region_map_node_index(map, map->blocks[i].node, 1);
		n = &map->nodes[ni];
		if (map->blocks[i].start_pfn < n->start_pfn)
			n->start_pfn = map->blocks[i].start_pfn;
		if (map->blocks[i].end_pfn > n->end_pfn)
			n->end_pfn = map->blocks[i].end_pfn;
	}
}

/* Append one region. */
void
region_map_add_region(struct region_map *map, int *cap, int node,
    uint64_t start, uint64_t end)
{
	struct region_span *r;
	int ni = region_map_node_index(map, node, 0);

	if (map->nregions == *cap) {
		*cap = *cap == 0 ? 64 : *cap * 2;
		map->regions = xreallocarray(map->regions, *cap,
		    sizeof *map->regions);
	}
	r = &map->regions[map->nregions++];
	r->node = node;
	r->region = map->nodes[ni].nregions++;
	r->start_pfn = start;
	r->end_pfn = end;
}

/* Fixed-size regions from each node's start pfn, as patch 10 cuts them. */
static void
region_map_cut_size(struct region_map *map)
{
	struct region_node *n;
	uint64_t p, end;
	int i, cap = 0;

	for (i = 0; i < map->nnodes; i++) {
		n = &map->nodes[i];
		for (p = n->start_pfn; p < n->end_pfn; p = end) {
			end = n->end_pfn - p <= map->region_pages ?
			    n->end_pfn : p + map->region_pages;
			region_map_add_region(map, &cap, n->node, p, end);
		}
	}
}

/*
 * Fixed-size regions: refuse more per node than region numbers go (as
 * the patched kernels print them), so a node whose memory blocks lie far
 * apart cannot make millions of regions out of a hole.
 */
static int
region_map_check_count(const struct region_map *map, char **cause)
{
	const struct region_node *n;
	uint64_t count;
	int i;

	for (i = 0; i < map->nnodes; i++) {
		n = &map->nodes[i];
		count = (n->end_pfn - n->start_pfn - 1) / map->region_pages + 1;
		if (count > REGION_MAP_MAX_REGIONS)
			return (fail_with(cause, RB_EXIT_INPUT, "%s/%s: node %d "
			    "spans pfn %" PRIu64 "-%" PRIu64 ", %" PRIu64
			    " regions of %" PRIu64 " pages, more than %d: use "
			    "a larger --region-size, or 'block'",
			    map->sys_root, REGION_MAP_SYS_NODE, n->node,
			    n->start_pfn, n->end_pfn, count,
			    map->region_pages, REGION_MAP_MAX_REGIONS));
	}
	return (0);
}

/* One region per memory block, numbered per node in pfn order. */
static void
region_map_cut_blocks(struct region_map *map)
{
	int i, j, cap = 0;

	for (i = 0; i < map->nnodes; i++) {
		for (j = 0; j < map->nblocks; j++) {
			if (map->blocks[j].node == map->nodes[i].node)
				region_map_add_region(map, &cap,
				    map->nodes[i].node,
				    map->blocks[j].start_pfn,
				    map->blocks[j].end_pfn);
		}
	}
}

/* Index of a zone in the map, or -1. */
int
region_map_zone(const struct region_map *map, int node, const char *name)
{
	int i;

	for (i = 0; i < map->nzones; i++) {
		if (map->zones[i].node == node &&
		    strcmp(map->zones[i].name, name) == 0)
			return (i);
	}
	return (-1);
}

/* Populated zones and their spans from a parsed zoneinfo. */
static int
region_map_read_zones(struct region_map *map, const struct snapshot *snap,
    char **cause)
{
	const struct snap_entry *e;
	struct region_zone *z;
	int i, zi;

	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		if (e->spanned == 0 || e->spanned == SNAP_UNKNOWN)
			continue;
		if (e->start_pfn == SNAP_UNKNOWN)
			return (fail_with(cause, RB_EXIT_ENV, "zoneinfo prints "
			    "no start_pfn for node %d zone %s, so zones cannot "
			    "be placed; use --source zone", e->node, e->zone));
		if ((zi = region_map_zone(map, e->node, e->zone)) != -1) {
			z = &map->zones[zi];
			if (e->start_pfn < z->start_pfn)
				z->start_pfn = e->start_pfn;
			if (e->start_pfn + e->spanned > z->end_pfn)
				z->end_pfn = e->start_pfn + e->spanned;
			continue;
		}
		map->zones = xreallocarray(map->zones, map->nzones + 1,
		    sizeof *map->zones);
		z = &map->zones[map->nzones++];
		memset(z, 0, sizeof *z);
		z->node = e->node;
		snprintf(z->name, sizeof z->name, "%s", e->zone);
		z->start_pfn = e->start_pfn;
		z->end_pfn = e->start_pfn + e->spanned;
	}
	if (map->nzones == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "zoneinfo has no "
		    "populated zone"));
	return (0);
}

/* Find or add the key of (region, zone). */
static int
region_map_key(struct region_map *map, int span, int zone)
{
	int i;

	for (i = 0; i < map->nkeys; i++) {
		if (map->keys[i].span == span && map->keys[i].zone == zone)
			return (i);
	}
	return (-1);
}

/* Order keys by node, region, zone rank (qsort callback). */
static int
region_map_key_cmp(const void *a, const void *b, void *arg)
{
	const struct region_key *x = a, *y = b;
	const struct region_map *map = arg;
	int rx, ry;

	if (x->node != y->node)
		return (x->node < y->node ? -1 : 1);
	if (x->region != y->region)
		return (x->region < y->region ? -1 : 1);
	rx = snapshot_zone_rank(map->zones[x->zone].name);
	ry = snapshot_zone_rank(map->zones[y->zone].name);
	if (rx != ry)
		return (rx < ry ? -1 : 1);
	return (strcmp(map->zones[x->zone].name, map->zones[y->zone].name));
}

/* One key per non-empty (region, zone span) intersection. */
static void
region_map_make_keys(struct region_map *map)
{
	const struct region_span *r;
	const struct region_zone *z;
	struct region_key *k;
	int i, j;

	for (i = 0; i < map->nregions; i++) {
		r = &map->regions[i];
		for (j = 0; j < map->nzones; j++) {
			z = &map->zones[j];
			if (z->node != r->node || z->start_pfn >= r->end_pfn ||
			    z->end_pfn <= r->start_pfn)
				continue;
			map->keys = xreallocarray(map->keys, map->nkeys + 1,
			    sizeof *map->keys);
			k = &map->keys[map->nkeys++];
			k->node = r->node;
			k->region = r->region;
			k->span = i;
			k->zone = j;
			k->start_pfn = r->start_pfn > z->start_pfn ?
			    r->start_pfn : z->start_pfn;
			k->end_pfn = r->end_pfn < z->end_pfn ? r->end_pfn :
			    z->end_pfn;
		}
	}
	if (map->nkeys > 1)
		qsort_r(map->keys, map->nkeys, sizeof *map->keys,
		    region_map_key_cmp, map);
}

/*
 * The zone of pfn p inside block b: the one whose span holds it, and when
 * spans overlap (movable memory onlined inside Normal's span), the one the
 * block says it is in, else the lowest.
 */
static int
region_map_zone_of(const struct region_map *map, const struct region_block *b,
    uint64_t p)
{
	int i, best = -1;

	for (i = 0; i < map->nzones; i++) {
		if (map->zones[i].node != b->node ||
		    p < map->zones[i].start_pfn || p >= map->zones[i].end_pfn)
			continue;
		if (strcmp(map->zones[i].name, b->valid_zone) == 0)
			return (i);
		if (best == -1 || snapshot_zone_rank(map->zones[i].name) <
		    snapshot_zone_rank(map->zones[best].name))
			best = i;
	}
	return (best);
}

/* end, or the first of the edges start and stop that lies in (p, end). */
static uint64_t
region_map_clip(uint64_t start, uint64_t stop, uint64_t p, uint64_t end)
{
	if (start > p && start < end)
		end = start;
	if (stop > p && stop < end)
		end = stop;
	return (end);
}

/*
 * Next pfn after p where the zone of a block may change, or a firmware
 * range starts or ends, or end.
 */
static uint64_t
region_map_next_cut(const struct region_map *map, int node, uint64_t p,
    uint64_t end)
{
	const struct region_zone *z;
	int i;

	for (i = 0; i < map->nzones; i++) {
		z = &map->zones[i];
		if (z->node == node)
			end = region_map_clip(z->start_pfn, z->end_pfn, p, end);
	}
	for (i = 0; i < map->nfirmware; i++)
		end = region_map_clip(map->firmware[i].start_pfn,
		    map->firmware[i].end_pfn, p, end);
	return (end);
}

/* Is pfn p inside a firmware range? */
static int
region_map_in_firmware(const struct region_map *map, uint64_t p)
{
	int i;

	for (i = 0; i < map->nfirmware; i++) {
		if (map->firmware[i].start_pfn <= p &&
		    p < map->firmware[i].end_pfn)
			return (1);
	}
	return (0);
}

/* Cut every block into segments of one key each. */
static void
region_map_make_segs(struct region_map *map)
{
	const struct region_block *b;
	const struct region_span *r;
	struct region_seg *s;
	uint64_t p, lo, hi, next;
	int i, j, zone, key, fw, cap = 0;

	for (i = 0; i < map->nblocks; i++) {
		b = &map->blocks[i];
		for (j = 0; j < map->nregions; j++) {
			r = &map->regions[j];
			if (r->node != b->node || r->start_pfn >= b->end_pfn ||
			    r->end_pfn <= b->start_pfn)
				continue;
			lo = r->start_pfn > b->start_pfn ? r->start_pfn :
			    b->start_pfn;
			hi = r->end_pfn < b->end_pfn ? r->end_pfn : b->end_pfn;
			for (p = lo; p < hi; p = next) {
				next = region_map_next_cut(map, b->node, p, hi);
				zone = region_map_zone_of(map, b, p);
				if (zone == -1 ||
				    (key = region_map_key(map, j, zone)) == -1)
					continue;
				fw = region_map_in_firmware(map, p);
				s = map->nsegs > 0 ?
				    &map->segs[map->nsegs - 1] : NULL;
				if (s != NULL && s->key == key &&
				    s->block == i && s->end_pfn == p &&
				    s->firmware == fw) {
					s->end_pfn = next;
					continue;
				}
				if (map->nsegs == cap) {
					cap = cap == 0 ? 64 : cap * 2;
					map->segs = xreallocarray(map->segs,
					    cap, sizeof *map->segs);
				}
				s = &map->segs[map->nsegs++];
				s->start_pfn = p;
				s->end_pfn = next;
				s->key = key;
				s->block = i;
				s->firmware = fw;
			}
		}
	}
}

/* Is pfn p of a node inside one of its regions? */
static int
region_map_in_region(const struct region_map *map, int node, uint64_t p)
{
	int i;

	for (i = 0; i < map->nregions; i++) {
		if (map->regions[i].node == node &&
		    p >= map->regions[i].start_pfn &&
		    p < map->regions[i].end_pfn)
			return (1);
	}
	return (0);
}

/* Next region edge of a node after p, or end. */
static uint64_t
region_map_next_region_edge(const struct region_map *map, int node,
    uint64_t p, uint64_t end)
{
	const struct region_span *r;
	int i;

	for (i = 0; i < map->nregions; i++) {
		r = &map->regions[i];
		if (r->node == node)
			end = region_map_clip(r->start_pfn, r->end_pfn, p, end);
	}
	return (end);
}

/*
 * Mark zones with online memory that no region covers (a --region-map
 * that lists only some ranges): their free pages cannot be checked
 * against zoneinfo.
 */
static void
region_map_mark_partial(struct region_map *map)
{
	const struct region_block *b;
	uint64_t p, next;
	int i, zone;

	for (i = 0; i < map->nblocks; i++) {
		b = &map->blocks[i];
		if (!b->online)
			continue;
		for (p = b->start_pfn; p < b->end_pfn; p = next) {
			next = region_map_next_cut(map, b->node, p, b->end_pfn);
			next = region_map_next_region_edge(map, b->node, p,
			    next);
			if ((zone = region_map_zone_of(map, b, p)) != -1 &&
			    !region_map_in_region(map, b->node, p))
				map->zones[zone].partial = 1;
		}
	}
}

/*
 * Build the region map.  zones is a snapshot filled by the zoneinfo
 * parser.  Bad sysfs contents and bad --region-map files are input errors
 * naming file and line; missing sysfs is an environment error.
 */
int
region_map_build(struct region_map *map, const struct region_map_config *cfg,
    const struct snapshot *zones, char **cause)
{
	long page_size = sysconf(_SC_PAGESIZE);
	int rc;

	memset(map, 0, sizeof *map);
	map->page_size = page_size > 0 ? (uint64_t)page_size : 4096;
	map->sys_root = xstrdup(cfg->sys_root != NULL && *cfg->sys_root !=
	    '\0' ? cfg->sys_root : "/sys");
	if (cfg->region_map != NULL) {
		map->mode = REGION_MAP_FILE;
		map->file = xstrdup(cfg->region_map);
	} else if (cfg->region_block)
		map->mode = REGION_MAP_BLOCK;
	else {
		map->mode = REGION_MAP_SIZE;
		map->region_pages = cfg->region_size / map->page_size;
		if (map->region_pages == 0 ||
		    cfg->region_size % map->page_size != 0) {
			rc = fail_with(cause, RB_EXIT_INPUT, "region size %"
			    PRIu64 " is not a positive multiple of the page "
			    "size %" PRIu64, cfg->region_size, map->page_size);
			goto fail;
		}
	}
	if ((rc = region_map_read_blocks(map, cause)) != 0 ||
	    (rc = region_map_read_firmware(map, cause)) != 0 ||
	    (rc = region_map_read_zones(map, zones, cause)) != 0 ||
	    (rc = region_map_split_shared_blocks(map, cause)) != 0)
		goto fail;
	region_map_node_spans(map);
	switch (map->mode) {
	case REGION_MAP_SIZE:
		if ((rc = region_map_check_count(map, cause)) != 0)
			goto fail;
		region_map_cut_size(map);
		break;
	case REGION_MAP_BLOCK:
		region_map_cut_blocks(map);
		break;
	case REGION_MAP_FILE:
		if ((rc = region_map_read_file(map, cause)) != 0)
			goto fail;
		break;
	}
	region_map_make_keys(map);
	region_map_make_segs(map);
	region_map_mark_partial(map);
	if (map->nkeys == 0) {
		rc = fail_with(cause, RB_EXIT_INPUT, "no region overlaps a "
		    "zone: %s/%s and zoneinfo disagree", map->sys_root,
		    REGION_MAP_SYS_NODE);
		goto fail;
	}
	return (0);

fail:
	region_map_free(map);
	return (rc);
}

/*
 * Parse a --region-size value: a size (512M) or "block" for one region
 * per memory block.
 */
int
region_map_parse_size(const char *s, uint64_t *bytes, int *block,
    char **cause)
{
	int rc;

	*block = 0;
	*bytes = 0;
	if (strcmp(s, "block") == 0) {
		*block = 1;
		return (0);
	}
	if ((rc = units_parse_size(s, bytes, cause)) != 0)
		return (rc);
	if (*bytes == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "region size must be "
		    "above 0 (or 'block')"));
	return (0);
}

/* Release a region map. */
void
region_map_free(struct region_map *map)
{
	free(map->file);
	free(map->sys_root);
	free(map->nodes);
	free(map->blocks);
	free(map->regions);
	free(map->zones);
	free(map->keys);
	free(map->segs);
	free(map->firmware);
	memset(map, 0, sizeof *map);
}

/* The segment holding a pfn, or -1 (hole, outside every zone or region). */
int
region_map_seg(const struct region_map *map, uint64_t pfn)
{
	int lo = 0, hi = map->nsegs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (map->segs[mid].end_pfn <= pfn)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < map->nsegs && map->segs[lo].start_pfn <= pfn)
		return (lo);
	return (-1);
}

/* How the regions were cut, in words for meta.json and info. */
const char *
region_map_mode_name(const struct region_map *map)
{
	switch (map->mode) {
	case REGION_MAP_SIZE:
		return ("size");
	case REGION_MAP_BLOCK:
		return ("block");
	case REGION_MAP_FILE:
		return ("file");
	}
	return ("unknown");
}

/* Print the map for "regionbench info": how it was cut, then every key. */
void
region_map_print(FILE *f, const struct region_map *map)
{
	char size[32], bsize[32];
	const struct region_key *k;
	uint64_t pages;
	int i, j, online, nblocks;

	units_format_size(bsize, sizeof bsize, map->block_pages *
	    map->page_size);
	switch (map->mode) {
	case REGION_MAP_SIZE:
		units_format_size(size, sizeof size, map->region_pages *
		    map->page_size);
		fprintf(f, "region map: %s regions cut from each node's first "
		    "memory block\n", size);
		break;
	case REGION_MAP_BLOCK:
		fprintf(f, "region map: one region per %s memory block\n",
		    bsize);
		break;
	case REGION_MAP_FILE:
		fprintf(f, "region map: ranges from %s\n", map->file);
		break;
	}
	for (i = 0; i < map->nnodes; i++) {
		online = nblocks = 0;
		for (j = 0; j < map->nblocks; j++) {
			if (map->blocks[j].node != map->nodes[i].node)
				continue;
			nblocks++;
			online += map->blocks[j].online;
		}
		fprintf(f, "node %d: pfn %" PRIu64 "-%" PRIu64 ", %d regions, "
		    "%d of %d %s blocks online\n", map->nodes[i].node,
		    map->nodes[i].start_pfn, map->nodes[i].end_pfn,
		    map->nodes[i].nregions, online, nblocks, bsize);
	}
	/* PG_reserved pages there are the firmware's, not used RAM. */
	for (i = 0; i < map->nfirmware; i++)
		fprintf(f, "firmware reserve: pfn %" PRIu64 "-%" PRIu64 "\n",
		    map->firmware[i].start_pfn, map->firmware[i].end_pfn);
	fprintf(f, "%4s %6s %-8s %12s %12s %12s %12s\n", "node", "region",
	    "zone", "start_pfn", "end_pfn", "spanned", "in_blocks");
	for (i = 0; i < map->nkeys; i++) {
		k = &map->keys[i];
		pages = 0;
		for (j = 0; j < map->nsegs; j++) {
			if (map->segs[j].key == i)
				pages += map->segs[j].end_pfn -
				    map->segs[j].start_pfn;
		}
		fprintf(f, "%4d %6d %-8s %12" PRIu64 " %12" PRIu64 " %12"
		    PRIu64 " %12" PRIu64 "\n", k->node, k->region,
		    map->zones[k->zone].name, k->start_pfn, k->end_pfn,
		    k->end_pfn - k->start_pfn, pages);
	}
}
