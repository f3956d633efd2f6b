/*
 * The emulated-region options placement and vacate share (region-cli.h).
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "log.h"
#include "placement.h"
#include "region-cli.h"

const struct opt_def region_map_cli_options[] = {
	{ .name = "proc", .type = OPT_STRING,
	  .offset = offsetof(struct region_map_cli, proc), .arg = "DIR",
	  .def = "/proc", .help = "proc root" },
	{ .name = "sys", .type = OPT_STRING,
	  .offset = offsetof(struct region_map_cli, sys), .arg = "DIR",
	  .def = "/sys", .help = "sysfs root" },
	{ .name = "region-size", .type = OPT_STRING,
	  .offset = offsetof(struct region_map_cli, region_size),
	  .arg = "SIZE", .def = "512M",
	  .help = "emulated region size, or 'block'" },
	{ .name = "region-map", .type = OPT_STRING,
	  .offset = offsetof(struct region_map_cli, region_map),
	  .arg = "FILE",
	  .help = "regions from a CSV of node,start_pfn,end_pfn rows" },
	{ .name = NULL }
};

/* Build the region map from zoneinfo and sysfs as the options say. */
void
region_map_cli_build(const struct region_map_cli *cli, struct region_map *map,
    const char *command)
{
	struct region_map_config cfg;
	char *cause = NULL;
	int rc;

	memset(&cfg, 0, sizeof cfg);
	cfg.sys_root = cli->sys;
	cfg.region_map = cli->region_map;
	if (region_map_parse_size(cli->region_size, &cfg.region_size,
	    &cfg.region_block, &cause) != 0)
		die(RB_EXIT_INPUT, "%s: --region-size: %s", command, cause);
	if ((rc = placement_map_build(map, &cfg, cli->proc, &cause)) != 0)
		die(-rc, "%s: %s", command, cause);
}
