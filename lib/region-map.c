/*
 * Building the emulated region map from sysfs, zoneinfo and the user's
 * choice of region size, block regions or a --region-map file.  Everything
 * here runs once when a source or placement opens; the scan and the pfn
 * lookups only read the finished arrays.
 */
#include "config.h"

#include <csv.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "region-map.h"
#include "units.h"

#define REGION_MAP_SYS_MEMORY	"devices/system/memory"
#define REGION_MAP_SYS_NODE	"devices/system/node"
/* Region numbers of /proc on patched kernels go from 0 to 65535. */
#define REGION_MAP_MAX_REGIONS	65536
#define REGION_MAP_LINE_MAX	4096

/* Parse state of one --region-map line. */
struct region_map_row {
	char		 field[3][64];
	int		 nfields;
	int		 too_long;
	int		 rows;
};

/* Read a small sysfs file into buf without its trailing newline. */
static int
region_map_read_small(const char *path, char *buf, size_t len, char **cause)
{
	ssize_t n;
	int fd, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
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

/* Find every memory block linked to a node, with its pfn range. */
static int
region_map_read_blocks(struct region_map *map, char **cause)
{
	char path[4096], buf[128];
	struct region_block *b;
	struct dirent *de, *me;
	DIR *nd, *md;
	uint64_t bytes, index;
	int node, id, cap = 0, rc, i;

	snprintf(path, sizeof path, "%s/%s/block_size_bytes", map->sys_root,
	    REGION_MAP_SYS_MEMORY);
	if ((rc = region_map_read_hex(path, &bytes, cause)) != 0)
		return (rc);
	if (bytes < map->page_size || bytes % map->page_size != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s:1: block size %#"
		    PRIx64 " is not a multiple of the page size", path, bytes));
	map->block_pages = bytes / map->page_size;

	snprintf(path, sizeof path, "%s/%s", map->sys_root,
	    REGION_MAP_SYS_NODE);
	if ((nd = opendir(path)) == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", path,
		    strerror(errno)));
	while ((de = readdir(nd)) != NULL) {
		if (!region_map_numbered(de->d_name, "node", &node))
			continue;
		snprintf(path, sizeof path, "%s/%s/%s", map->sys_root,
		    REGION_MAP_SYS_NODE, de->d_name);
		if ((md = opendir(path)) == NULL)
			continue;
		while ((me = readdir(md)) != NULL) {
			if (!region_map_numbered(me->d_name, "memory", &id))
				continue;
			if (map->nblocks == cap) {
				cap = cap == 0 ? 64 : cap * 2;
				map->blocks = xreallocarray(map->blocks, cap,
				    sizeof *map->blocks);
			}
			b = &map->blocks[map->nblocks++];
			memset(b, 0, sizeof *b);
			b->id = id;
			b->node = node;
			snprintf(path, sizeof path, "%s/%s/memory%d/phys_index",
			    map->sys_root, REGION_MAP_SYS_MEMORY, id);
			if ((rc = region_map_read_hex(path, &index,
			    cause)) != 0 ||
			    (rc = region_map_block_state(map, b, cause)) != 0) {
				closedir(md);
				closedir(nd);
				return (rc);
			}
			if (index > UINT64_MAX / map->block_pages - 1) {
				closedir(md);
				closedir(nd);
				return (fail_with(cause, RB_EXIT_INPUT,
				    "%s:1: block index %#" PRIx64 " too large",
				    path, index));
			}
			b->start_pfn = index * map->block_pages;
			b->end_pfn = b->start_pfn + map->block_pages;
			snprintf(path, sizeof path,
			    "%s/%s/memory%d/valid_zones", map->sys_root,
			    REGION_MAP_SYS_MEMORY, id);
			if (region_map_read_small(path, buf, sizeof buf,
			    NULL) == 0 && b->online)
				snprintf(b->valid_zone, sizeof b->valid_zone,
				    "%.*s", (int)strcspn(buf, " "), buf);
		}
		closedir(md);
	}
	closedir(nd);
	if (map->nblocks == 0)
		return (fail_with(cause, RB_EXIT_ENV, "%s/%s: no node has "
		    "memory blocks (no memory hotplug sysfs?); use --source "
		    "zone", map->sys_root, REGION_MAP_SYS_NODE));
	qsort(map->blocks, map->nblocks, sizeof *map->blocks,
	    region_map_block_cmp);
	for (i = 1; i < map->nblocks; i++) {
		if (map->blocks[i].start_pfn < map->blocks[i - 1].end_pfn)
			return (fail_with(cause, RB_EXIT_INPUT, "%s/%s: "
			    "memory%d and memory%d overlap", map->sys_root,
			    REGION_MAP_SYS_MEMORY, map->blocks[i - 1].id,
			    map->blocks[i].id));
	}
	return (0);
}

/* Index of a node in map->nodes, adding it when new. */
static int
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
static void
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

/* libcsv field callback for a --region-map line. */
static void
region_map_csv_field(void *s, size_t len, void *data)
{
	struct region_map_row *row = data;

	if (row->nfields < 3) {
		if (len >= sizeof row->field[0])
			row->too_long = 1;
		snprintf(row->field[row->nfields], sizeof row->field[0], "%s",
		    s != NULL ? (const char *)s : "");
	}
	row->nfields++;
}

/* libcsv row callback for a --region-map line. */
static void
region_map_csv_row(int c, void *data)
{
	struct region_map_row *row = data;

	(void)c;
	row->rows++;
}

/* Parse a pfn field of a --region-map row (decimal or 0x hex). */
static int
region_map_parse_pfn(const char *s, uint64_t *out)
{
	char *end;

	if (*s == '\0' || *s == '-' || *s == '+' || *s == ' ')
		return (-1);
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (*end != '\0' || errno != 0)
		return (-1);
	return (0);
}

/* Check one --region-map range against the nodes and earlier ranges. */
static int
region_map_check_range(struct region_map *map, const char *where, int node,
    uint64_t start, uint64_t end, char **cause)
{
	const struct region_span *r;
	const struct region_node *n;
	int ni, i, inside = 0;

	if (start >= end)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: start_pfn %" PRIu64
		    " is not below end_pfn %" PRIu64, where, start, end));
	if ((ni = region_map_node_index(map, node, 0)) == -1)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: node %d has no "
		    "memory", where, node));
	n = &map->nodes[ni];
	if (start < n->start_pfn || end > n->end_pfn)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: range %" PRIu64
		    "-%" PRIu64 " is outside node %d (pfn %" PRIu64 "-%" PRIu64
		    "): regions must not cross nodes", where, start, end, node,
		    n->start_pfn, n->end_pfn));
	for (i = 0; i < map->nblocks; i++) {
		if (map->blocks[i].node == node &&
		    map->blocks[i].start_pfn < end &&
		    map->blocks[i].end_pfn > start)
			inside = 1;
	}
	if (!inside)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: range %" PRIu64
		    "-%" PRIu64 " holds no memory block of node %d", where,
		    start, end, node));
	for (i = 0; i < map->nregions; i++) {
		r = &map->regions[i];
		if (r->node == node && start < r->start_pfn)
			return (fail_with(cause, RB_EXIT_INPUT, "%s: not "
			    "sorted: start_pfn %" PRIu64 " comes after node %d "
			    "region %d at %" PRIu64, where, start, node,
			    r->region, r->start_pfn));
		if (start < r->end_pfn && end > r->start_pfn)
			return (fail_with(cause, RB_EXIT_INPUT, "%s: range %"
			    PRIu64 "-%" PRIu64 " overlaps node %d region %d (%"
			    PRIu64 "-%" PRIu64 ")", where, start, end, r->node,
			    r->region, r->start_pfn, r->end_pfn));
	}
	return (0);
}

/* Parse one line of a --region-map file and add its region. */
static int
region_map_file_line(struct region_map *map, int *cap, const char *line,
    size_t len, int lineno, char **cause)
{
	struct region_map_row row;
	struct csv_parser parser;
	char where[4200];
	uint64_t start, end;
	long node;
	char *endp;
	int rc;

	snprintf(where, sizeof where, "%s:%d", map->file, lineno);
	memset(&row, 0, sizeof row);
	if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI |
	    CSV_APPEND_NULL) != 0)
		die(RB_EXIT_ENV, "csv_init: out of memory");
	rc = csv_parse(&parser, line, len, region_map_csv_field,
	    region_map_csv_row, &row) != len ||
	    csv_fini(&parser, region_map_csv_field, region_map_csv_row,
	    &row) != 0;
	if (rc)
		rc = fail_with(cause, RB_EXIT_INPUT, "%s: bad CSV: %s", where,
		    csv_strerror(csv_error(&parser)));
	csv_free(&parser);
	if (rc != 0)
		return (rc);
	if (row.rows == 0)
		return (0);
	if (lineno == 1 && row.nfields == 3 &&
	    strcmp(row.field[0], "node") == 0 &&
	    strcmp(row.field[1], "start_pfn") == 0 &&
	    strcmp(row.field[2], "end_pfn") == 0)
		return (0);
	if (row.nfields != 3 || row.too_long)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected 3 fields "
		    "node,start_pfn,end_pfn, got %d", where, row.nfields));
	errno = 0;
	node = strtol(row.field[0], &endp, 10);
	if (row.field[0][0] == '\0' || *endp != '\0' || errno != 0 ||
	    node < 0 || node > 65535)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected a node "
		    "number, got '%s'", where, row.field[0]));
	if (region_map_parse_pfn(row.field[1], &start) != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected a "
		    "start_pfn, got '%s'", where, row.field[1]));
	if (region_map_parse_pfn(row.field[2], &end) != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected an "
		    "end_pfn, got '%s'", where, row.field[2]));
	if ((rc = region_map_check_range(map, where, (int)node, start, end,
	    cause)) != 0)
		return (rc);
	region_map_add_region(map, cap, (int)node, start, end);
	return (0);
}

/* Regions listed in a CSV file of node,start_pfn,end_pfn rows. */
static int
region_map_read_file(struct region_map *map, char **cause)
{
	char line[REGION_MAP_LINE_MAX];
	int lineno = 0, cap = 0, rc;
	size_t len;
	FILE *f;

	if ((f = fopen(map->file, "r")) == NULL)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s", map->file,
		    strerror(errno)));
	while (fgets(line, sizeof line, f) != NULL) {
		lineno++;
		len = strlen(line);
		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			fclose(f);
			return (fail_with(cause, RB_EXIT_INPUT, "%s:%d: line "
			    "longer than %d bytes", map->file, lineno,
			    REGION_MAP_LINE_MAX));
		}
		if (memchr(line, '\0', len) != NULL || len != strlen(line)) {
			fclose(f);
			return (fail_with(cause, RB_EXIT_INPUT, "%s:%d: NUL "
			    "byte", map->file, lineno));
		}
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		if ((rc = region_map_file_line(map, &cap, line, len, lineno,
		    cause)) != 0) {
			fclose(f);
			return (rc);
		}
	}
	fclose(f);
	if (map->nregions == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s:%d: no regions "
		    "(expected node,start_pfn,end_pfn rows)", map->file,
		    lineno));
	return (0);
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

/* Next pfn after p where the zone of a block may change, or end. */
static uint64_t
region_map_next_cut(const struct region_map *map, int node, uint64_t p,
    uint64_t end)
{
	const struct region_zone *z;
	int i;

	for (i = 0; i < map->nzones; i++) {
		z = &map->zones[i];
		if (z->node != node)
			continue;
		if (z->start_pfn > p && z->start_pfn < end)
			end = z->start_pfn;
		if (z->end_pfn > p && z->end_pfn < end)
			end = z->end_pfn;
	}
	return (end);
}

/* Cut every block into segments of one key each. */
static void
region_map_make_segs(struct region_map *map)
{
	const struct region_block *b;
	const struct region_span *r;
	struct region_seg *s;
	uint64_t p, lo, hi, next;
	int i, j, zone, key, cap = 0;

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
				s = map->nsegs > 0 ?
				    &map->segs[map->nsegs - 1] : NULL;
				if (s != NULL && s->key == key &&
				    s->block == i && s->end_pfn == p) {
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
		if (r->node != node)
			continue;
		if (r->start_pfn > p && r->start_pfn < end)
			end = r->start_pfn;
		if (r->end_pfn > p && r->end_pfn < end)
			end = r->end_pfn;
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
	    (rc = region_map_read_zones(map, zones, cause)) != 0)
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
	memset(map, 0, sizeof *map);
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
