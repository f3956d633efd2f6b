/*
 * The emulated-region options of the commands that look at physical pages
 * themselves (placement, vacate): where /proc and /sys are and how memory
 * is cut into regions, from one table, so both take and describe them
 * alike.  A command embeds struct region_map_cli in its settings and names
 * it in its command_entry (shared_options, shared_offset).
 */
#ifndef RB_REGION_CLI_H
#define RB_REGION_CLI_H

#include "opt.h"
#include "region-map.h"

struct region_map_cli {
	char	*proc;
	char	*sys;
	char	*region_size;
	char	*region_map;
};

extern const struct opt_def region_map_cli_options[];

void	 region_map_cli_build(const struct region_map_cli *cli,
	     struct region_map *map, const char *command);

#endif
