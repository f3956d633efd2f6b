/*
 * The memory blocks of the emulated region map, read from sysfs
 * (devices/system/node/nodeN/memoryM and devices/system/memory/memoryM):
 * their pfn ranges and nodes once at build time, their state (online or
 * not) again at every sample.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input-file.h"
#include "log.h"
#include "region-map-private.h"

/* Read a small sysfs file into buf without its trailing newline. */
static int
region_map_read_small(const char *path, char *buf, size_t len, char **cause)
{
	ssize_t n;
	int fd, saved;

	if ((fd = input_open(path, INPUT_SYSTEM, cause)) < -1)
		return (fd);
	if (fd == -1) {
		saved = errno;
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", path,
		    strerror(saved)));
	}
	do
		n = read(fd, buf, len - 1);
	while (n == -1 && errno == EINTR);
	saved = errno;
	close(fd);
	if (n == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: read: %s", path,
		    strerror(saved)));
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return (0);
}

/* Read a file holding one hexadecimal number, as sysfs prints them. */
static int
region_map_read_hex(const char *path, uint64_t *out, char **cause)
{
	char buf[64], *end;
	int rc;

	if ((rc = region_map_read_small(path, buf, sizeof buf, cause)) != 0)
		return (rc);
	errno = 0;
	*out = strtoull(buf, &end, 16);
	if (buf[0] == '\0' || buf[0] == '-' || *end != '\0' || errno != 0)
		return (fail_with(cause, RB_EXIT_INPUT,
		    "%s:1: expected a hexadecimal number, got '%s'", path,
		    buf));
	return (0);
}

/* Is name "prefix" followed by a decimal number?  Store the number. */
static int
region_map_numbered(const char *name, const char *prefix, int *out)
{
	size_t len = strlen(prefix);
	char *end;
	long v;

	if (strncmp(name, prefix, len) != 0 || name[len] < '0' ||
	    name[len] > '9')
		return (0);
	errno = 0;
	v = strtol(name + len, &end, 10);
	if (*end != '\0' || errno != 0 || v > INT32_MAX)
		return (0);
	*out = (int)v;
	return (1);
}

/* Order blocks by start pfn (qsort callback). */
static int
region_map_block_cmp(const void *a, const void *b)
{
	const struct region_block *x = a, *y = b;

	if (x->start_pfn != y->start_pfn)
		return (x->start_pfn < y->start_pfn ? -1 : 1);
	return (0);
}

/* Read the state of one block (online or not) and its valid zone. */
static int
region_map_block_state(const struct region_map *map, struct region_block *b,
    char **cause)
{
	char path[4096], buf[64];
	int rc;

	snprintf(path, sizeof path, "%s/%s/memory%d/state", map->sys_root,
	    REGION_MAP_SYS_MEMORY, b->id);
	if ((rc = region_map_read_small(path, buf, sizeof buf, cause)) != 0)
		return (rc);
	b->online = strcmp(buf, "online") == 0;
	return (0);
}

/* Read the block size, in pages. */
static int
region_map_read_block_size(struct region_map *map, char **cause)
{
	char path[4096];
	uint64_t bytes;
	int rc;

	snprintf(path, sizeof path, "%s/%s/block_size_bytes", map->sys_root,
	    REGION_MAP_SYS_MEMORY);
	if ((rc = region_map_read_hex(path, &bytes, cause)) != 0)
		return (rc);
	if (bytes < map->page_size || bytes % map->page_size != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s:1: block size %#"
		    PRIx64 " is not a multiple of the page size", path, bytes));
	map->block_pages = bytes / map->page_size;
	return (0);
}

/* Add memory block id of a node: its pfn range, state and valid zone. */
static int
region_map_add_block(struct region_map *map, int *cap, int node, int id,
    char **cause)
{
	char path[4096], buf[128];
	struct region_block *b;
	uint64_t index;
	int rc;

	if (map->nblocks == *cap) {
		*cap = *cap == 0 ? 64 : *cap * 2;
		map->blocks = xreallocarray(map->blocks, *cap,
		    sizeof *map->blocks);
	}
	b = &map->blocks[map->nblocks++];
	memset(b, 0, sizeof *b);
	b->id = id;
	b->node = node;
	snprintf(path, sizeof path, "%s/%s/memory%d/phys_index",
	    map->sys_root, REGION_MAP_SYS_MEMORY, id);
	if ((rc = region_map_read_hex(path, &index, cause)) != 0 ||
	    (rc = region_map_block_state(map, b, cause)) != 0)
		return (rc);
	if (index > UINT64_MAX / map->block_pages - 1)
		return (fail_with(cause, RB_EXIT_INPUT, "%s:1: block index %#"
		    PRIx64 " too large", path, index));
	b->start_pfn = index * map->block_pages;
	b->end_pfn = b->start_pfn + map->block_pages;
	snprintf(path, sizeof path, "%s/%s/memory%d/valid_zones",
	    map->sys_root, REGION_MAP_SYS_MEMORY, id);
	if (region_map_read_small(path, buf, sizeof buf, NULL) == 0 &&
	    b->online)
		snprintf(b->valid_zone, sizeof b->valid_zone, "%.*s",
		    (int)strcspn(buf, " "), buf);
	return (0);
}

/* Add the memory blocks linked to node (sysfs directory name). */
static int
region_map_read_node(struct region_map *map, int *cap, int node,
    const char *name, char **cause)
{
	char path[4096];
	struct dirent *me;
	DIR *md;
	int id, rc = 0;

	snprintf(path, sizeof path, "%s/%s/%s", map->sys_root,
	    REGION_MAP_SYS_NODE, name);
	if ((md = opendir(path)) == NULL)
		return (0);
	while (rc == 0 && (me = readdir(md)) != NULL) {
		if (region_map_numbered(me->d_name, "memory", &id))
			rc = region_map_add_block(map, cap, node, id, cause);
	}
	closedir(md);
	return (rc);
}

/* Find every memory block linked to a node, with its pfn range. */
int
region_map_read_blocks(struct region_map *map, char **cause)
{
	char path[4096];
	struct dirent *de;
	DIR *nd;
	int node, cap = 0, rc = 0, i;

	if ((rc = region_map_read_block_size(map, cause)) != 0)
		return (rc);
	snprintf(path, sizeof path, "%s/%s", map->sys_root,
	    REGION_MAP_SYS_NODE);
	if ((nd = opendir(path)) == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", path,
		    strerror(errno)));
	while (rc == 0 && (de = readdir(nd)) != NULL) {
		if (region_map_numbered(de->d_name, "node", &node))
			rc = region_map_read_node(map, &cap, node, de->d_name,
			    cause);
	}
	closedir(nd);
	if (rc != 0)
		return (rc);
	if (map->nblocks == 0)
		return (fail_with(cause, RB_EXIT_ENV, "%s/%s: no node has "
		    "memory blocks (no memory hotplug sysfs?); use --source "
		    "zone", map->sys_root, REGION_MAP_SYS_NODE));
	qsort(map->blocks, map->nblocks, sizeof *map->blocks,
	    region_map_block_cmp);
	/*
	 * One block linked to two nodes is a block the nodes' boundary cuts
	 * (nodes need not end on a block boundary: a guest with 600 MiB
	 * nodes); region_map_split_shared_blocks() splits it by the zones.
	 * Two different blocks must not overlap.
	 */
	for (i = 1; i < map->nblocks; i++) {
		if (map->blocks[i].start_pfn < map->blocks[i - 1].end_pfn &&
		    map->blocks[i].id != map->blocks[i - 1].id)
			return (fail_with(cause, RB_EXIT_INPUT, "%s/%s: "
			    "memory%d and memory%d overlap", map->sys_root,
			    REGION_MAP_SYS_MEMORY, map->blocks[i - 1].id,
			    map->blocks[i].id));
	}
	return (0);
}

/*
 * A memory block linked to several nodes holds each node's part: clip each
 * of its entries to the span of its node's zones, so that no pfn belongs
 * to two nodes.  Blocks linked to one node are left whole (their node's
 * zones may not reach an offline block).
 */
int
region_map_split_shared_blocks(struct region_map *map, char **cause)
{
	struct region_block *b;
	uint64_t lo, hi;
	int i, j, shared = 0;

	/* The entries of one block are neighbours: read_blocks sorted them. */
	for (i = 0; i < map->nblocks; i++) {
		b = &map->blocks[i];
		if (!(i > 0 && map->blocks[i - 1].id == b->id) &&
		    !(i + 1 < map->nblocks && map->blocks[i + 1].id == b->id))
			continue;
		lo = UINT64_MAX;
		hi = 0;
		for (j = 0; j < map->nzones; j++) {
			if (map->zones[j].node != b->node)
				continue;
			if (map->zones[j].start_pfn < lo)
				lo = map->zones[j].start_pfn;
			if (map->zones[j].end_pfn > hi)
				hi = map->zones[j].end_pfn;
		}
		if (lo < b->start_pfn)
			lo = b->start_pfn;
		if (hi > b->end_pfn)
			hi = b->end_pfn;
		if (lo >= hi)
			return (fail_with(cause, RB_EXIT_INPUT,
			    "%s/%s/memory%d is linked to node %d, but zoneinfo "
			    "puts none of that node's zones in it", map->sys_root,
			    REGION_MAP_SYS_MEMORY, b->id, b->node));
		b->start_pfn = lo;
		b->end_pfn = hi;
		shared = 1;
	}
	if (!shared)
		return (0);
	qsort(map->blocks, map->nblocks, sizeof *map->blocks,
	    region_map_block_cmp);
	for (i = 1; i < map->nblocks; i++) {
		if (map->blocks[i].start_pfn < map->blocks[i - 1].end_pfn)
			return (fail_with(cause, RB_EXIT_INPUT,
			    "%s/%s/memory%d is linked to nodes %d and %d, "
			    "whose zones in it overlap", map->sys_root, REGION_MAP_SYS_MEMORY,
			    map->blocks[i].id, map->blocks[i - 1].node,
			    map->blocks[i].node));
	}
	return (0);
}

/* Add a firmware range of bytes [start, end], whole pages covering it. */
static void
region_map_add_firmware(struct region_map *map, int *cap, uint64_t start,
    uint64_t end)
{
	struct region_range *r;

	if (map->nfirmware == *cap) {
		*cap = *cap == 0 ? 8 : *cap * 2;
		map->firmware = xreallocarray(map->firmware, *cap,
		    sizeof *map->firmware);
	}
	r = &map->firmware[map->nfirmware++];
	r->start_pfn = start / map->page_size;
	r->end_pfn = end / map->page_size + 1;
}

/* Sort helper: firmware ranges by start pfn. */
static int
region_map_range_cmp(const void *a, const void *b)
{
	const struct region_range *x = a, *y = b;

	return (x->start_pfn < y->start_pfn ? -1 :
	    x->start_pfn > y->start_pfn);
}

/*
 * Merge sorted firmware ranges that overlap or touch: the first MiB's rule
 * and a memmap entry inside it (pfn 159-256 on a PC) are one reserve.
 */
static void
region_map_merge_firmware(struct region_map *map)
{
	int i, n = 0;

	for (i = 0; i < map->nfirmware; i++) {
		if (n > 0 && map->firmware[i].start_pfn <=
		    map->firmware[n - 1].end_pfn) {
			if (map->firmware[i].end_pfn >
			    map->firmware[n - 1].end_pfn)
				map->firmware[n - 1].end_pfn =
				    map->firmware[i].end_pfn;
			continue;
		}
		map->firmware[n++] = map->firmware[i];
	}
	map->nfirmware = n;
}

/*
 * The ranges the firmware keeps: the first MiB (BIOS data, option ROMs,
 * real-mode trampolines; the kernel never hands it out) and every entry
 * of sys/firmware/memmap whose type is not "System RAM".  Without that
 * directory (not x86, or a test tree) only the first rule applies; so it
 * does, with a warning, when an entry cannot be read: the ranges refine
 * the figures and are no reason to refuse a run.
 */
int
region_map_read_firmware(struct region_map *map, char **cause)
{
	char path[4096], type[64];
	uint64_t start, end;
	struct dirent *de;
	int cap = 0, n, rc = 0;
	DIR *d;

	region_map_add_firmware(map, &cap, 0, REGION_MAP_LOW_BYTES - 1);
	snprintf(path, sizeof path, "%s/%s", map->sys_root,
	    REGION_MAP_SYS_MEMMAP);
	if ((d = opendir(path)) == NULL)
		return (0);
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (!region_map_numbered(de->d_name, "", &n))
			continue;
		snprintf(path, sizeof path, "%s/%s/%s/type", map->sys_root,
		    REGION_MAP_SYS_MEMMAP, de->d_name);
		if ((rc = region_map_read_small(path, type, sizeof type,
		    cause)) != 0)
			break;
		if (strcmp(type, "System RAM") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s/%s/start", map->sys_root,
		    REGION_MAP_SYS_MEMMAP, de->d_name);
		if ((rc = region_map_read_hex(path, &start, cause)) != 0)
			break;
		snprintf(path, sizeof path, "%s/%s/%s/end", map->sys_root,
		    REGION_MAP_SYS_MEMMAP, de->d_name);
		if ((rc = region_map_read_hex(path, &end, cause)) != 0)
			break;
		if (end >= start)
			region_map_add_firmware(map, &cap, start, end);
	}
	closedir(d);
	if (rc != 0) {
		log_warnx("%s; firmware reserves: the first MiB only",
		    cause != NULL && *cause != NULL ? *cause : "memmap");
		if (cause != NULL) {
			free(*cause);
			*cause = NULL;
		}
		map->nfirmware = 1;
		return (0);
	}
	qsort(map->firmware, map->nfirmware, sizeof *map->firmware,
	    region_map_range_cmp);
	region_map_merge_firmware(map);
	return (0);
}

/*
 * Re-read which blocks are online (memory hotplug, virtio-mem) without
 * allocating; *changed says whether any block changed state.
 */
int
region_map_refresh_blocks(struct region_map *map, int *changed, char **cause)
{
	int i, was, rc;

	*changed = 0;
	for (i = 0; i < map->nblocks; i++) {
		was = map->blocks[i].online;
		if ((rc = region_map_block_state(map, &map->blocks[i],
		    cause)) != 0)
			return (rc);
		if (was != map->blocks[i].online)
			(*changed)++;
	}
	return (0);
}
