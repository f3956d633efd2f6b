/*
 * lib/placement.c on the synthetic machine of tests/kpf-tree.h: where the
 * resident pages of the synthetic process (pid KPF_TREE_PID, whose
 * pagemap points at known pfns) lie, per region key and per region, and a
 * process that is gone.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kpf-tree.h"
#include "log.h"
#include "placement.h"
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

/* Placement of the synthetic process with 256 MiB regions. */
static void
test_placement(void)
{
	struct placement_result r;
	struct region_map_config cfg;
	struct region_map map;
	struct placement pl;
	struct snapshot zones;
	struct procfile pf;
	char proc[4200], sys[4200], *cause = NULL;
	int rc, k;

	snprintf(proc, sizeof proc, "%s/proc", tree);
	snprintf(sys, sizeof sys, "%s/sys", tree);
	procfile_init(&pf);
	snapshot_init(&zones);
	memset(&cfg, 0, sizeof cfg);
	cfg.sys_root = sys;
	cfg.region_size = 256 << 20;
	rc = procfile_read(&pf, proc, "zoneinfo", &cause) ||
	    procfs_parse_zoneinfo(&zones, pf.path, pf.buf, pf.len, &cause) ||
	    region_map_build(&map, &cfg, &zones, &cause);
	if (!tap_ok(rc == 0, "placement: region map (%s)", cause ? cause :
	    "ok"))
		return;
	placement_init(&pl, proc, &map);
	placement_result_init(&r, &map);
	rc = placement_scan(&pl, KPF_TREE_PID, &r, &cause);
	tap_ok(rc == 0 && !r.exited, "placement: scan (%s)", rc ? cause : "ok");
	tap_eq_str(r.comm, "synthetic", "placement: command name");
	tap_eq_u64(r.pages, 18, "placement: 18 resident pages");
	tap_eq_u64(r.outside, 2, "placement: 2 pages in the hole");
	k = key_at(&map, 4100);
	tap_eq_u64(r.key_pages[k], 4, "placement: 4 pages in node 0 region 0");
	tap_eq_u64(placement_region_pages(&map, &r, map.keys[k].span), 4,
	    "placement: region sum of node 0 region 0");
	tap_eq_u64(r.key_pages[key_at(&map, 98304)], 4,
	    "placement: 4 pages in node 0 region 1");
	tap_eq_u64(r.key_pages[key_at(&map, 196608)], 8,
	    "placement: 8 pages in node 1 region 0");
	tap_eq_u64(placement_regions_over(&map, &r, 0.01), 3,
	    "placement: 3 regions hold >= 1%%");
	tap_eq_u64(placement_regions_over(&map, &r, 0.3), 1,
	    "placement: 1 region holds >= 30%%");
	rc = placement_scan(&pl, 4343, &r, &cause);
	tap_ok(rc == 0 && r.exited, "placement: a process that is gone is "
	    "reported as exited");
	placement_result_free(&r);
	placement_free(&pl);
	region_map_free(&map);
	snapshot_free(&zones);
	procfile_free(&pf);
}

int
main(void)
{
	if (sysconf(_SC_PAGESIZE) != 4096)
		tap_skip_all("the synthetic machine assumes 4 KiB pages");
	if ((size_t)snprintf(tree, sizeof tree, "%s",
	    tap_scratch_dir("t-placement")) >= sizeof tree)
		tap_skip_all("TMPDIR is too long for the synthetic machine");
	log_set_program("t-placement");
	kpf_tree_build(tree, 0);

	test_placement();
	return (tap_done());
}
