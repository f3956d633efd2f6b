/*
 * lib/region-map.c on the synthetic machine of tests/kpf-tree.h: regions
 * of a fixed size, one region per memory block, --region-map files good
 * and bad (each error names file:line), pfn lookups, block state refresh
 * and the --region-size parser.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kpf-tree.h"
#include "log.h"
#include "procfile.h"
#include "procfs.h"
#include "region-map.h"
#include "tap.h"

/* Short enough for the paths kpf-tree.h builds below it. */
static char tree[160];

/* The key holding a pfn (through its segment), or -1. */
static int
key_at(const struct region_map *map, uint64_t pfn)
{
	int s = region_map_seg(map, pfn);

	return (s == -1 ? -1 : map->segs[s].key);
}

/* Build a region map of the tree; map_text, if any, is a --region-map. */
static int
map_build(const struct region_map_config *base, const char *map_text,
    struct region_map *map, char **cause)
{
	struct region_map_config cfg = *base;
	struct snapshot zones;
	struct procfile pf;
	char root[4200], file[4200];
	int rc;

	snprintf(root, sizeof root, "%s/proc", tree);
	procfile_init(&pf);
	snapshot_init(&zones);
	if (procfile_read(&pf, root, "zoneinfo", cause) != 0 ||
	    procfs_parse_zoneinfo(&zones, pf.path, pf.buf, pf.len, cause) != 0)
		return (-99);
	snprintf(root, sizeof root, "%s/sys", tree);
	cfg.sys_root = root;
	if (map_text != NULL) {
		snprintf(file, sizeof file, "%s/map.csv", tree);
		kpf_tree_text(tree, "map.csv", map_text);
		cfg.region_map = file;
	}
	rc = region_map_build(map, &cfg, &zones, cause);
	snapshot_free(&zones);
	procfile_free(&pf);
	return (rc);
}

/* Build a region map of the tree with a --region-map file. */
static int
map_from_file(const char *text, struct region_map *map, char **cause)
{
	struct region_map_config cfg;

	memset(&cfg, 0, sizeof cfg);
	return (map_build(&cfg, text, map, cause));
}

/* Does pfn belong to the key node/region/zone? */
static int
key_is(const struct region_map *map, uint64_t pfn, int node, int region,
    const char *zone)
{
	int k = key_at(map, pfn);

	if (k < 0)
		return (0);
	return (map->keys[k].node == node && map->keys[k].region == region &&
	    strcmp(map->zones[map->keys[k].zone].name, zone) == 0);
}

/* A bad --region-map file fails with its line number. */
static void
check_bad_map(const char *text, const char *where, const char *what)
{
	struct region_map map;
	char *cause = NULL;
	int rc;

	rc = map_from_file(text, &map, &cause);
	if (!tap_ok(rc == -RB_EXIT_INPUT && cause != NULL &&
	    strstr(cause, where) != NULL && strstr(cause, what) != NULL,
	    "region map %s: exit 2 at %s", what, where))
		tap_diag("rc %d, cause: %s", rc, cause ? cause : "(none)");
	free(cause);
}

/* --region-map files. */
static void
test_map_file(void)
{
	struct region_map map;
	char *cause = NULL;
	int rc, k;

	rc = map_from_file("node,start_pfn,end_pfn\n0,0,65536\n\n"
	    "0,98304,0x20000\r\n1,163840,229376\n", &map, &cause);
	if (tap_ok(rc == 0, "region map file: good file (%s)",
	    cause ? cause : "ok")) {
		tap_eq_u64(map.nregions, 3, "region map file: 3 regions");
		tap_eq_u64(map.nkeys, 4, "region map file: 4 keys");
		tap_eq_str(region_map_mode_name(&map), "file",
		    "region map file: mode name");
		k = key_at(&map, 100000);
		tap_ok(k >= 0 && map.keys[k].node == 0 &&
		    map.keys[k].region == 1 && map.keys[k].start_pfn == 98304,
		    "region map file: pfn 100000 is node 0 region 1");
		tap_ok(key_at(&map, 70000) == -1,
		    "region map file: pfns outside every region are no key");
		region_map_free(&map);
	}
	check_bad_map("0,0,65536\n0,60000,70000\n", "map.csv:2", "overlaps");
	check_bad_map("0,65536,98304\n0,0,65536\n", "map.csv:2", "not sorted");
	check_bad_map("0,98304,170000\n", "map.csv:1", "outside node 0");
	check_bad_map("# comment\n0,abc,5\n", "map.csv:2", "start_pfn");
	check_bad_map("0,1\n", "map.csv:1", "expected 3 fields");
	check_bad_map("0,0,65536\n3,0,10\n", "map.csv:2", "node 3 has no");
	check_bad_map("0,10,10\n", "map.csv:1", "not below");
	check_bad_map("0,\"1\n", "map.csv:1", "bad CSV");
	check_bad_map("0,-1,10\n", "map.csv:1", "start_pfn");
	check_bad_map("0,0,99999999999999999999999\n", "map.csv:1",
	    "end_pfn");
	check_bad_map("", "map.csv:0", "no regions");
}

/*
 * 256 MiB regions (65536 pages) cut from each node's first block: node 0
 * DMA and Normal share region 0, region 1 starts at pfn 65536, node 1's
 * region 0 starts at its first block, pfn 163840; the hole between the
 * nodes is no key.
 */
static void
test_size(void)
{
	struct region_map_config cfg;
	struct region_map map;
	char *cause = NULL;
	int built;

	memset(&cfg, 0, sizeof cfg);
	cfg.region_size = 256 << 20;
	built = map_build(&cfg, NULL, &map, &cause);
	if (!tap_ok(built == 0, "size: build "
	    "(%s)", cause ? cause : "ok"))
		return;
	tap_eq_str(region_map_mode_name(&map), "size", "size: mode name");
	tap_eq_u64(map.region_pages, 65536, "size: 65536 pages per region");
	tap_ok(key_is(&map, 100, 0, 0, "DMA"), "size: pfn 100 is node 0 "
	    "region 0 DMA");
	tap_ok(key_is(&map, 4100, 0, 0, "Normal"), "size: pfn 4100 is node 0 "
	    "region 0 Normal");
	tap_ok(key_is(&map, 70000, 0, 1, "Normal"), "size: pfn 70000 is node "
	    "0 region 1");
	tap_ok(key_is(&map, 200000, 1, 0, "Normal"), "size: pfn 200000 is "
	    "node 1 region 0");
	tap_ok(key_at(&map, 140000) == -1, "size: the hole between "
	    "the nodes is no key");
	tap_ok(key_at(&map, KPF_TREE_PFNS) == -1, "size: past the "
	    "end of memory is no key");
	tap_ok(region_map_zone(&map, 1, "Normal") >= 0 &&
	    region_map_zone(&map, 1, "DMA") == -1, "size: zones by node and "
	    "name");
	region_map_free(&map);
}

/*
 * One region per 128 MiB memory block; memory2 is offline.  Writing its
 * state file and refreshing counts one changed block.
 */
static void
test_block(void)
{
	struct region_map_config cfg;
	struct region_map map;
	char *cause = NULL;
	int changed = -1, built;

	memset(&cfg, 0, sizeof cfg);
	cfg.region_block = 1;
	built = map_build(&cfg, NULL, &map, &cause);
	if (!tap_ok(built == 0, "block: build "
	    "(%s)", cause ? cause : "ok"))
		return;
	tap_eq_str(region_map_mode_name(&map), "block", "block: mode name");
	tap_eq_u64(map.block_pages, 32768, "block: 32768 pages per block");
	tap_ok(key_is(&map, 40000, 0, 1, "Normal"), "block: pfn 40000 is "
	    "node 0 region 1 (memory1)");
	tap_ok(key_is(&map, 100000, 0, 3, "Normal"), "block: pfn 100000 is "
	    "node 0 region 3 (memory3)");
	tap_ok(key_is(&map, 200000, 1, 1, "Normal"), "block: pfn 200000 is "
	    "node 1 region 1 (memory6)");
	tap_ok(region_map_refresh_blocks(&map, &changed, &cause) == 0 &&
	    changed == 0, "block: refresh with no change counts none");
	kpf_tree_text(tree, "sys/devices/system/memory/memory2/state",
	    "online\n");
	tap_ok(region_map_refresh_blocks(&map, &changed, &cause) == 0 &&
	    changed == 1, "block: memory2 coming online counts one change");
	kpf_tree_text(tree, "sys/devices/system/memory/memory2/state",
	    "offline\n");
	tap_ok(region_map_refresh_blocks(&map, &changed, &cause) == 0 &&
	    changed == 1, "block: and going offline again one more");
	region_map_free(&map);
}

/* text with its first "from" replaced by "to" (a new string). */
static char *
replace_once(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *out;

	if (at == NULL)
		return (strdup(text));
	if (asprintf(&out, "%.*s%s%s", (int)(at - text), text, to,
	    at + strlen(from)) == -1)
		exit(99);
	return (out);
}

/* Write the tree's zoneinfo with node 0 ending, node 1 starting, at pfns. */
static void
move_node_boundary(uint64_t node0_end, uint64_t node1_start)
{
	char from[64], to[64], *a, *b, *c;

	snprintf(to, sizeof to, "        spanned  %" PRIu64 "\n",
	    node0_end - 4096);
	a = replace_once(kpf_tree_zoneinfo, "        spanned  126976\n", to);
	snprintf(to, sizeof to, "        spanned  %" PRIu64 "\n",
	    (uint64_t)KPF_TREE_PFNS - node1_start);
	b = replace_once(a, "        spanned  65536\n", to);
	snprintf(from, sizeof from, "  start_pfn:           163840\n");
	snprintf(to, sizeof to, "  start_pfn:           %" PRIu64 "\n",
	    node1_start);
	c = replace_once(b, from, to);
	kpf_tree_text(tree, "proc/zoneinfo", c);
	free(a);
	free(b);
	free(c);
}

/*
 * A memory block the nodes' boundary cuts is linked to both nodes (a guest
 * whose nodes are not whole blocks): each node gets its part, as its zones
 * say.  Run last: it changes the tree.
 */
static void
test_shared_block(void)
{
	struct region_map_config cfg;
	struct region_map map;
	char *cause = NULL;
	int i, parts = 0, rc, built;

	memset(&cfg, 0, sizeof cfg);
	cfg.region_size = 256 << 20;
	kpf_tree_block(tree, 3, 1, "online", "Normal");
	move_node_boundary(110000, 110000);
	built = map_build(&cfg, NULL, &map, &cause);
	if (!tap_ok(built == 0, "shared block: "
	    "build (%s)", cause ? cause : "ok"))
		return;
	for (i = 0; i < map.nblocks; i++) {
		if (map.blocks[i].id != 3)
			continue;
		parts++;
		tap_ok(map.blocks[i].node == 0 ?
		    map.blocks[i].start_pfn == 98304 &&
		    map.blocks[i].end_pfn == 110000 :
		    map.blocks[i].start_pfn == 110000 &&
		    map.blocks[i].end_pfn == 131072, "shared block: node %d's "
		    "part of memory3 is pfn %" PRIu64 "-%" PRIu64,
		    map.blocks[i].node, map.blocks[i].start_pfn,
		    map.blocks[i].end_pfn);
	}
	tap_ok(parts == 2, "shared block: memory3 is in both nodes");
	tap_ok(key_is(&map, 100000, 0, 1, "Normal"), "shared block: pfn "
	    "100000 is node 0 region 1");
	tap_ok(key_is(&map, 115000, 1, 0, "Normal") &&
	    key_is(&map, 170000, 1, 0, "Normal"), "shared block: node 1's "
	    "region 0 starts at its first pfn, 110000");
	tap_ok(key_is(&map, 200000, 1, 1, "Normal"), "shared block: pfn "
	    "200000 is node 1 region 1");
	region_map_free(&map);

	/* Zones of both nodes in the same pages: a contradiction. */
	move_node_boundary(110000, 100000);
	rc = map_build(&cfg, NULL, &map, &cause);
	if (!tap_ok(rc == -RB_EXIT_INPUT && cause != NULL &&
	    strstr(cause, "memory3 is linked to nodes 0 and 1") != NULL,
	    "shared block: nodes whose zones overlap in it: exit 2"))
		tap_diag("rc %d, cause: %s", rc, cause ? cause : "(none)");
	if (rc == 0)
		region_map_free(&map);
	free(cause);
}

/*
 * Firmware reserves from sys/firmware/memmap: an entry inside the first
 * MiB merges with it, one touching another merges too, System RAM is no
 * reserve.  Run after the tests that expect none: it changes the tree.
 */
static void
test_firmware(void)
{
	static const char *const entries[][3] = {
		/* Inside the first MiB; RAM; pfn 24576-24832; touching it. */
		{ "0x9f000", "0xfffff", "Reserved" },
		{ "0x100000", "0x1ffffff", "System RAM" },
		{ "0x6000000", "0x60fffff", "Reserved" },
		{ "0x6100000", "0x61fffff", "ACPI Tables" },
	};
	struct region_map_config cfg;
	struct region_map map;
	char name[128], *cause = NULL;
	size_t i;
	int built;

	for (i = 0; i < sizeof entries / sizeof entries[0]; i++) {
		snprintf(name, sizeof name, "sys/firmware/memmap/%zu/start", i);
		kpf_tree_text(tree, name, entries[i][0]);
		snprintf(name, sizeof name, "sys/firmware/memmap/%zu/end", i);
		kpf_tree_text(tree, name, entries[i][1]);
		snprintf(name, sizeof name, "sys/firmware/memmap/%zu/type", i);
		kpf_tree_text(tree, name, entries[i][2]);
	}
	memset(&cfg, 0, sizeof cfg);
	cfg.region_size = 256 << 20;
	built = map_build(&cfg, NULL, &map, &cause);
	if (!tap_ok(built == 0, "firmware: "
	    "build (%s)", cause ? cause : "ok"))
		return;
	if (!tap_ok(map.nfirmware == 2, "firmware: two reserves, merged "
	    "(%d)", map.nfirmware)) {
		region_map_free(&map);
		return;
	}
	tap_ok(map.firmware[0].start_pfn == 0 &&
	    map.firmware[0].end_pfn == 256, "firmware: the first MiB, with "
	    "the entry inside it");
	tap_ok(map.firmware[1].start_pfn == 24576 &&
	    map.firmware[1].end_pfn == 25088, "firmware: two touching "
	    "entries are one reserve, pfn 24576-25088");
	region_map_free(&map);
}

/* Do two maps hold the same arrays, field by field? */
static int
same_map(const struct region_map *a, const struct region_map *b)
{
	int i;

	if (a->nnodes != b->nnodes || a->nblocks != b->nblocks ||
	    a->nregions != b->nregions || a->nzones != b->nzones ||
	    a->nkeys != b->nkeys || a->nsegs != b->nsegs)
		return (0);
	for (i = 0; i < a->nnodes; i++)
		if (a->nodes[i].node != b->nodes[i].node ||
		    a->nodes[i].start_pfn != b->nodes[i].start_pfn ||
		    a->nodes[i].end_pfn != b->nodes[i].end_pfn ||
		    a->nodes[i].nregions != b->nodes[i].nregions)
			return (0);
	for (i = 0; i < a->nblocks; i++)
		if (a->blocks[i].id != b->blocks[i].id ||
		    a->blocks[i].node != b->blocks[i].node ||
		    a->blocks[i].start_pfn != b->blocks[i].start_pfn ||
		    a->blocks[i].end_pfn != b->blocks[i].end_pfn ||
		    a->blocks[i].online != b->blocks[i].online ||
		    strcmp(a->blocks[i].valid_zone, b->blocks[i].valid_zone))
			return (0);
	for (i = 0; i < a->nregions; i++)
		if (a->regions[i].node != b->regions[i].node ||
		    a->regions[i].region != b->regions[i].region ||
		    a->regions[i].start_pfn != b->regions[i].start_pfn ||
		    a->regions[i].end_pfn != b->regions[i].end_pfn)
			return (0);
	for (i = 0; i < a->nzones; i++)
		if (a->zones[i].node != b->zones[i].node ||
		    strcmp(a->zones[i].name, b->zones[i].name) != 0 ||
		    a->zones[i].start_pfn != b->zones[i].start_pfn ||
		    a->zones[i].end_pfn != b->zones[i].end_pfn ||
		    a->zones[i].partial != b->zones[i].partial)
			return (0);
	for (i = 0; i < a->nkeys; i++)
		if (a->keys[i].node != b->keys[i].node ||
		    a->keys[i].region != b->keys[i].region ||
		    a->keys[i].span != b->keys[i].span ||
		    a->keys[i].zone != b->keys[i].zone ||
		    a->keys[i].start_pfn != b->keys[i].start_pfn ||
		    a->keys[i].end_pfn != b->keys[i].end_pfn)
			return (0);
	for (i = 0; i < a->nsegs; i++)
		if (a->segs[i].start_pfn != b->segs[i].start_pfn ||
		    a->segs[i].end_pfn != b->segs[i].end_pfn ||
		    a->segs[i].key != b->segs[i].key ||
		    a->segs[i].block != b->segs[i].block)
			return (0);
	return (1);
}

/*
 * A recording's region map: to JSON and back gives the same map, and a
 * malformed one is refused naming where it came from.
 */
static void
test_json(void)
{
	struct region_map_config cfg;
	struct region_map map, back;
	char *cause = NULL;
	json_t *o;
	int rc, built;

	memset(&cfg, 0, sizeof cfg);
	cfg.region_size = 256ULL << 20;
	built = map_build(&cfg, NULL, &map, &cause);
	if (!tap_ok(built == 0, "json: build "
	    "(%s)", cause ? cause : "ok"))
		return;
	o = region_map_to_json(&map);
	if (tap_ok(region_map_from_json(&back, o, "rec", &cause) == 0,
	    "json: the map reads back (%s)", cause ? cause : "ok")) {
		tap_ok(back.mode == map.mode && back.page_size ==
		    map.page_size && back.region_pages == map.region_pages &&
		    back.block_pages == map.block_pages, "json: mode and sizes");
		tap_ok(same_map(&back, &map), "json: nodes, blocks, regions, "
		    "zones, keys and segments (%d keys, %d segments)",
		    map.nkeys, map.nsegs);
		tap_ok(key_is(&back, 200000, 1, 0, "Normal"), "json: pfn "
		    "lookups work on the map read back");
		region_map_free(&back);
	}
	json_object_set_new(json_array_get(json_object_get(o, "keys"), 0),
	    "zone", json_integer(99));
	rc = region_map_from_json(&back, o, "rec/recording.json", &cause);
	tap_ok(rc == -RB_EXIT_INPUT && cause != NULL &&
	    strstr(cause, "rec/recording.json: malformed region map") != NULL,
	    "json: a key of a zone that is not there is refused (%s)",
	    cause ? cause : "no cause");
	free(cause);
	json_decref(o);
	region_map_free(&map);
}

/* --region-size: a size or "block". */
static void
test_parse_size(void)
{
	uint64_t bytes;
	char *cause = NULL;
	int block;

	tap_ok(region_map_parse_size("block", &bytes, &block, &cause) == 0 &&
	    block == 1 && bytes == 0, "parse size: block");
	tap_ok(region_map_parse_size("256M", &bytes, &block, &cause) == 0 &&
	    block == 0 && bytes == 256 << 20, "parse size: 256M");
	tap_ok(region_map_parse_size("0", &bytes, &block, &cause) ==
	    -RB_EXIT_INPUT && cause != NULL && strstr(cause, "above 0") !=
	    NULL, "parse size: 0 is refused (%s)", cause ? cause : "no cause");
	free(cause);
	cause = NULL;
	tap_ok(region_map_parse_size("lots", &bytes, &block, &cause) ==
	    -RB_EXIT_INPUT && cause != NULL, "parse size: not a size is "
	    "refused (%s)", cause ? cause : "no cause");
	free(cause);
}

int
main(void)
{
	if (sysconf(_SC_PAGESIZE) != 4096)
		tap_skip_all("the synthetic machine assumes 4 KiB pages");
	if ((size_t)snprintf(tree, sizeof tree, "%s",
	    tap_scratch_dir("t-region-map")) >= sizeof tree)
		tap_skip_all("TMPDIR is too long for the synthetic machine");
	log_set_program("t-region-map");
	kpf_tree_build(tree, 0);

	test_map_file();
	test_size();
	test_block();
	test_json();
	test_parse_size();
	test_firmware();
	test_shared_block();
	return (tap_done());
}
