/*
 * What the files building the emulated region map share inside lib/:
 *
 *   region-map.c        cutting regions, keys and segments; lookups
 *   region-map-sysfs.c  memory blocks and their state from sysfs
 *   region-map-file.c   the --region-map CSV file
 */
#ifndef RB_REGION_MAP_PRIVATE_H
#define RB_REGION_MAP_PRIVATE_H

#include "region-map.h"

#define REGION_MAP_SYS_MEMORY	"devices/system/memory"
#define REGION_MAP_SYS_NODE	"devices/system/node"
#define REGION_MAP_SYS_MEMMAP	"firmware/memmap"
#define REGION_MAP_LOW_BYTES	(1ULL << 20)	/* firmware's below 1 MiB */

/* region-map.c */
int	 region_map_node_index(struct region_map *map, int node, int add);
void	 region_map_add_region(struct region_map *map, int *cap, int node,
	     uint64_t start, uint64_t end);

/* region-map-sysfs.c */
int	 region_map_read_blocks(struct region_map *map, char **cause);
int	 region_map_split_shared_blocks(struct region_map *map,
	     char **cause);
int	 region_map_read_firmware(struct region_map *map, char **cause);

/* region-map-file.c */
int	 region_map_read_file(struct region_map *map, char **cause);

#endif
