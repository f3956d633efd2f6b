/*
 * Emulated memory regions for kernels that have none (the kpageflags source
 * and placement).  Node spans and memory blocks come from sysfs, zone spans
 * from a parsed zoneinfo; each node's span is cut into regions the way the
 * 2011 patch series does it (init_node_memory_regions: fixed-size regions
 * from the node's start pfn), or one region per memory block, or ranges
 * listed in a CSV file.  Each (region, zone) intersection is one region key.
 *
 * The map also holds the pfn ranges to scan ("segments"): pieces of memory
 * blocks inside one region key, sorted by pfn, so a scan or a pfn lookup
 * never meets holes or memory outside every zone.
 */
#ifndef RB_REGION_MAP_H
#define RB_REGION_MAP_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "snapshot.h"

enum region_map_mode {
	REGION_MAP_SIZE,	/* fixed-size regions from each node start */
	REGION_MAP_BLOCK,	/* one region per memory block */
	REGION_MAP_FILE		/* ranges from --region-map FILE */
};

/* A memory block of sysfs (devices/system/memory/memoryN). */
struct region_block {
	int		 id;		/* N of memoryN */
	int		 node;
	uint64_t	 start_pfn;
	uint64_t	 end_pfn;
	int		 online;	/* state at the last refresh */
	char		 valid_zone[SNAP_NAME_LEN];	/* or "none" */
};

struct region_node {
	int		 node;
	uint64_t	 start_pfn;	/* start of its first memory block */
	uint64_t	 end_pfn;
	int		 nregions;
};

/* A region: a pfn range inside one node, numbered per node from 0. */
struct region_span {
	int		 node;
	int		 region;
	uint64_t	 start_pfn;
	uint64_t	 end_pfn;
};

/* A populated zone as zoneinfo printed it. */
struct region_zone {
	int		 node;
	char		 name[SNAP_NAME_LEN];
	uint64_t	 start_pfn;
	uint64_t	 end_pfn;	/* start_pfn + spanned */
	int		 partial;	/* online memory in no region */
};

/* A region key: the intersection of one region and one zone span. */
struct region_key {
	int		 node;
	int		 region;
	int		 span;		/* index into regions */
	int		 zone;		/* index into zones */
	uint64_t	 start_pfn;
	uint64_t	 end_pfn;
};

/* Part of one memory block that belongs to one key. */
struct region_seg {
	uint64_t	 start_pfn;
	uint64_t	 end_pfn;
	int		 key;
	int		 block;
	int		 firmware;	/* inside a firmware reserve */
};

/*
 * A pfn range the firmware keeps for itself: below 1 MiB, or not "System
 * RAM" in the firmware memory map (sys/firmware/memmap).  PG_reserved
 * pages there are not RAM the kernel could use.
 */
struct region_range {
	uint64_t	 start_pfn;
	uint64_t	 end_pfn;
};

struct region_map {
	enum region_map_mode	 mode;
	uint64_t		 page_size;
	uint64_t		 region_pages;	/* REGION_MAP_SIZE */
	uint64_t		 block_pages;
	char			*file;		/* REGION_MAP_FILE */
	char			*sys_root;

	struct region_node	*nodes;
	int			 nnodes;
	struct region_block	*blocks;	/* sorted by start_pfn */
	int			 nblocks;
	struct region_span	*regions;	/* by node, then start_pfn */
	int			 nregions;
	struct region_zone	*zones;
	int			 nzones;
	struct region_key	*keys;		/* node, region, zone */
	int			 nkeys;
	struct region_seg	*segs;		/* sorted by start_pfn */
	int			 nsegs;
	struct region_range	*firmware;	/* sorted, may overlap */
	int			 nfirmware;
};

/* How to cut regions (from the command line or a suite file). */
struct region_map_config {
	const char	*sys_root;
	uint64_t	 region_size;	/* bytes, REGION_MAP_SIZE */
	int		 region_block;	/* 1: REGION_MAP_BLOCK */
	const char	*region_map;	/* non-NULL: REGION_MAP_FILE */
};

int	 region_map_build(struct region_map *map,
	     const struct region_map_config *cfg, const struct snapshot *zones,
	     char **cause);
int	 region_map_parse_size(const char *s, uint64_t *bytes, int *block,
	     char **cause);
void	 region_map_free(struct region_map *map);
int	 region_map_refresh_blocks(struct region_map *map, int *changed,
	     char **cause);
int	 region_map_seg(const struct region_map *map, uint64_t pfn);
int	 region_map_zone(const struct region_map *map, int node,
	     const char *name);
const char *region_map_mode_name(const struct region_map *map);
void	 region_map_print(FILE *f, const struct region_map *map);
json_t	*region_map_to_json(const struct region_map *map);
int	 region_map_from_json(struct region_map *map, json_t *obj,
	     const char *where, char **cause);

#endif
