/*
 * Where a process's resident pages live: /proc/PID/maps gives the mapped
 * ranges, /proc/PID/pagemap the pfn of each resident 4 KiB page (huge pages
 * show as their 4 KiB pages), and the region map turns pfns into region
 * keys.  Used by "regionbench placement" and by the runner for
 * placement.csv.  PFNs are visible only with CAP_SYS_ADMIN.
 */
#ifndef RB_PLACEMENT_H
#define RB_PLACEMENT_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "procfile.h"
#include "region-map.h"

#define PLACEMENT_KPF_BLOCKS	16
#define PLACEMENT_KPF_BLOCK	512	/* pfns per cached block */

/* Buffers for scanning, reused across processes and samples. */
struct placement {
	char			 proc_root[PATH_MAX];
	const struct region_map	*map;
	uint64_t		*buf;		/* pagemap batch */
	size_t			 buf_entries;
	struct procfile		 maps;
	void			*present;	/* PAGEMAP_SCAN's ranges */
	int			 no_present_scan; /* the kernel lacks it */
	/*
	 * kpageflags, to tell mappings of the zero page (and the huge
	 * zero page) from memory: -1 not opened yet, -2 not readable.
	 * A few 512-pfn blocks of its flags are kept, direct-mapped.
	 */
	int			 kpf_fd;
	int			 anon;		/* the mapping being read */
	uint64_t		 kpf_block[PLACEMENT_KPF_BLOCKS];
	uint64_t		*kpf_flags;	/* BLOCKS x 512 */
};

/* Resident pages of one process per region key of the map. */
struct placement_result {
	pid_t		 pid;
	char		 comm[64];
	int		 exited;	/* went away before or during scan */
	uint64_t	 pages;		/* resident pages seen */
	/*
	 * Present entries that map the shared zero page or the huge zero
	 * page (KPF_ZERO_PAGE): no memory of the process, not in pages.
	 */
	uint64_t	 zero_page_mapped;
	uint64_t	 outside;	/* resident, but in no region key */
	int		 nkeys;
	uint64_t	*key_pages;	/* indexed like map->keys */
	uint64_t	 scan_ns;
	uint64_t	 entries_read;	/* pagemap entries the scan read */
};

void	 placement_init(struct placement *pl, const char *proc_root,
	     const struct region_map *map);
void	 placement_free(struct placement *pl);
void	 placement_result_init(struct placement_result *r,
	     const struct region_map *map);
void	 placement_result_free(struct placement_result *r);
int	 placement_scan(struct placement *pl, pid_t pid,
	     struct placement_result *r, char **cause);
uint64_t placement_region_pages(const struct region_map *map,
	     const struct placement_result *r, int span);
int	 placement_regions_over(const struct region_map *map,
	     const struct placement_result *r, double share);

/* placement-print.c */
void	 placement_print_csv(FILE *f, const struct region_map *map,
	     const struct placement_result *r);
void	 placement_print_table(FILE *f, const struct region_map *map,
	     const struct placement_result *r, double min_share);
int	 placement_map_build(struct region_map *map,
	     const struct region_map_config *cfg, const char *proc_root,
	     char **cause);

#endif
