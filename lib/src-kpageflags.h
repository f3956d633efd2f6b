/*
 * The kpageflags region source: emulated regions on kernels without the
 * memory-region patches, counted page by page from /proc/kpageflags.
 * Other code reaches it through source.h; this header declares the
 * source's own settings, which its option table fills.
 */
#ifndef RB_SRC_KPAGEFLAGS_H
#define RB_SRC_KPAGEFLAGS_H

#include <stdint.h>

#include "region-map.h"
#include "source.h"

/*
 * --region-size, --region-map, --scan-threads, the scan's exactness and
 * what they imply.
 */
struct src_kpageflags_settings {
	char		*region_size;	/* option text: SIZE or "block" */
	char		*region_map;	/* CSV of node,start_pfn,end_pfn */
	char		*scan_threads_text;	/* option text: N or "auto" */
	long		 scan_threads;	/* 0: auto (from the text) */
	double		 scan_fraction;	/* (0, 1]; 0 (unset) means 1 */
	uint64_t	 full_scan_every;	/* 0 (unset) means 10 */
	uint64_t	 scan_seed;	/* 0: drawn at open */
	char		*scan_rotation;	/* option text: N or "auto" */
	uint64_t	 rotation;	/* 0: auto (from the text) */
	/* Derived from region_size by the check hook. */
	uint64_t	 region_bytes;	/* bytes per region (not block) */
	int		 region_block;	/* one region per memory block */
};

#endif
