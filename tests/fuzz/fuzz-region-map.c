/*
 * libFuzzer harness: the emulated region map (lib/region-map*.c): sysfs
 * memory blocks, zone spans from zoneinfo, and --region-map files.  Each
 * input becomes a sysfs tree plus a region map file in a scratch
 * directory; region_map_build reads them, then pfn lookups, a refresh of
 * the block states and the printout run on the result.
 *
 * Input parts, NUL-separated:
 *   0  zoneinfo (parsed by procfs_parse_zoneinfo for the zone spans)
 *   1  mode: "block", "size HEX" (region size in bytes), or else the
 *      contents of a --region-map file
 *   2  devices/system/memory/block_size_bytes
 *   3+ one memory block each: "NODE\nPHYS_INDEX\nSTATE\nVALID_ZONES"
 *      (block N is the Nth such part; NODE picks node0..node3)
 */
#include "config.h"

#include "fuzz-util.h"
#include "procfs.h"
#include "region-map.h"

#define FUZZ_MAX_BLOCKS	(FUZZ_MAX_PARTS - 3)

/* mkdir -p for a path below the scratch directory. */
static void
fuzz_mkdirs(const char *path)
{
	char buf[512], *p;

	snprintf(buf, sizeof buf, "%s", path);
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0700);
			*p = '/';
		}
	}
	mkdir(buf, 0700);
}

/* Line i (0-based) of a block part, or "" (copied into out). */
static void
fuzz_line(const char *s, int i, char *out, size_t len)
{
	size_t n;

	while (i-- > 0 && s != NULL)
		s = (s = strchr(s, '\n')) != NULL ? s + 1 : NULL;
	if (s == NULL) {
		out[0] = '\0';
		return;
	}
	n = strcspn(s, "\n");
	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), s);
}

/* Write the sysfs tree of the input below root. */
static void
fuzz_sysfs(const char *root, const struct fuzz_part *parts, int n)
{
	char mem[512], dir[600], line[128], link[700], target[64];
	int i, node;

	snprintf(mem, sizeof mem, "%s/devices/system/memory", root);
	fuzz_mkdirs(mem);
	fuzz_write(mem, "block_size_bytes", parts[2].buf, parts[2].len);
	for (i = 3; i < n; i++) {
		fuzz_line(parts[i].buf, 0, line, sizeof line);
		node = abs(atoi(line)) % 4;
		snprintf(dir, sizeof dir, "%s/memory%d", mem, i - 3);
		fuzz_mkdirs(dir);
		fuzz_line(parts[i].buf, 1, line, sizeof line);
		fuzz_write(dir, "phys_index", line, strlen(line));
		fuzz_line(parts[i].buf, 2, line, sizeof line);
		fuzz_write(dir, "state", line, strlen(line));
		fuzz_line(parts[i].buf, 3, line, sizeof line);
		fuzz_write(dir, "valid_zones", line, strlen(line));
		snprintf(dir, sizeof dir, "%s/devices/system/node/node%d", root,
		    node);
		fuzz_mkdirs(dir);
		snprintf(link, sizeof link, "%s/memory%d", dir, i - 3);
		snprintf(target, sizeof target, "../../memory/memory%d", i - 3);
		symlink(target, link);
	}
}

/* Use a built map as the kpageflags source does. */
static void
fuzz_use(struct region_map *map)
{
	FILE *devnull;
	char *cause = NULL;
	int changed, i;

	for (i = 0; i < map->nsegs; i++) {
		region_map_seg(map, map->segs[i].start_pfn);
		region_map_seg(map, map->segs[i].end_pfn - 1);
		region_map_seg(map, map->segs[i].end_pfn);
	}
	region_map_seg(map, 0);
	region_map_seg(map, UINT64_MAX);
	region_map_refresh_blocks(map, &changed, &cause);
	free(cause);
	if ((devnull = fopen("/dev/null", "w")) != NULL) {
		region_map_print(devnull, map);
		fclose(devnull);
	}
}

/* One input: see the top of the file. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[FUZZ_MAX_PARTS];
	struct region_map_config cfg;
	struct region_map map;
	struct snapshot zones;
	char root[128], mapfile[512], *cause = NULL, *end;
	int n;

	n = fuzz_split(data, size, parts, FUZZ_MAX_PARTS);
	snapshot_init(&zones);
	if (n < 3 || procfs_parse_zoneinfo(&zones, "zoneinfo", parts[0].buf,
	    parts[0].len, &cause) != 0)
		goto out;
	snprintf(root, sizeof root, "%s/sys", fuzz_dir());
	fuzz_rm_tree(root);
	fuzz_sysfs(root, parts, n);

	memset(&cfg, 0, sizeof cfg);
	cfg.sys_root = root;
	cfg.region_size = 128ULL << 20;
	if (strcmp(parts[1].buf, "block") == 0)
		cfg.region_block = 1;
	else if (strncmp(parts[1].buf, "size ", 5) == 0)
		cfg.region_size = strtoull(parts[1].buf + 5, &end, 16);
	else {
		fuzz_write(fuzz_dir(), "map.csv", parts[1].buf, parts[1].len);
		snprintf(mapfile, sizeof mapfile, "%s/map.csv", fuzz_dir());
		cfg.region_map = mapfile;
	}
	if (region_map_build(&map, &cfg, &zones, &cause) == 0) {
		if (getenv("FUZZ_DEBUG") != NULL)
			region_map_print(stderr, &map);
		fuzz_use(&map);
		region_map_free(&map);
	}
out:
	if (cause != NULL && getenv("FUZZ_DEBUG") != NULL)
		fprintf(stderr, "%s\n", cause);
	free(cause);
	snapshot_free(&zones);
	fuzz_split_free(parts, n);
	return (0);
}
