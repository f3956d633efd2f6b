/*
 * A snapshot is the state of every region key (node, region, zone) at one
 * instant.  Every region source fills the same structure; sinks and the
 * terminal table read it.  Storage is sized on the first sample and reused,
 * so a sampler that resets and refills it does not allocate.
 */
#ifndef RB_SNAPSHOT_H
#define RB_SNAPSHOT_H

#include <stdint.h>

#define SNAP_MAX_ORDERS	16	/* arm64 with 64 KiB pages prints 14 */
#define SNAP_MAX_MTYPES	8	/* 6 in mainline, room for vendor types */
#define SNAP_NAME_LEN	16
#define SNAP_UNKNOWN	UINT64_MAX
#define SNAP_MAX_WARN	8
#define SNAP_WARN_LEN	192

/* Classes of used pages, known only from kpageflags. */
enum snap_used_class {
	SNAP_USED_ANON,
	SNAP_USED_FILE,
	SNAP_USED_SLAB,
	SNAP_USED_PGTABLE,
	SNAP_USED_OTHER,
	SNAP_USED_NCLASS
};

/* How the kernel laid out the files the snapshot came from. */
enum snap_format {
	SNAP_FORMAT_UNKNOWN,
	SNAP_FORMAT_PLAIN,		/* mainline: Node N, zone Z */
	SNAP_FORMAT_PATCHED,		/* 2011 RFC: Node N, Region R, zone Z */
	SNAP_FORMAT_SORTED_BUDDY	/* 2012-13: regions inside zones */
};

struct snap_entry {
	int		 node;
	int		 region;	/* -1: the kernel printed no region */
	int		 zone_region;	/* sorted-buddy: the kernel's number
					   inside the zone; -1 otherwise */
	char		 zone[SNAP_NAME_LEN];
	uint64_t	 start_pfn;	/* SNAP_UNKNOWN when not printed */
	uint64_t	 spanned;
	uint64_t	 present;
	uint64_t	 managed;	/* SNAP_UNKNOWN before 3.8 */
	uint64_t	 free_pages;
	uint64_t	 pcp_pages;	/* per-CPU list pages (count:) */
	uint64_t	 stat_slack;	/* sum of per-CPU vm stats thresholds */

	int		 norders;	/* 0: no buddyinfo row seen */
	uint64_t	 free_blocks[SNAP_MAX_ORDERS];

	int		 has_mt_free;	/* pagetypeinfo free rows seen */
	uint64_t	 mt_free[SNAP_MAX_MTYPES][SNAP_MAX_ORDERS];
	uint32_t	 mt_capped[SNAP_MAX_MTYPES];	/* bit per order: >N */

	int		 has_mt_blocks;	/* pagetypeinfo block rows seen */
	uint64_t	 mt_blocks[SNAP_MAX_MTYPES];

	int		 has_used;	/* used classes known */
	uint64_t	 used[SNAP_USED_NCLASS];
	/*
	 * With has_used: pages whose struct page the kernel has not
	 * initialised yet (deferred init), neither used nor free nor in
	 * present.
	 */
	uint64_t	 uninit;
	/*
	 * A sampled scan (kpageflags --scan-fraction) that did not read
	 * the whole key: free_pages is an estimate, and [free_lo, free_hi]
	 * its 95 % interval (docs/kpageflags.md).
	 */
	int		 free_interval;
	uint64_t	 free_lo;
	uint64_t	 free_hi;
	/*
	 * When the figures were counted exactly (CLOCK_MONOTONIC, as t_ns):
	 * kpageflags scans in rotation keep a key's last exact count until
	 * its part comes round again.  0: not said (taken at this sample).
	 */
	uint64_t	 counted_ns;
};

struct snapshot {
	struct snap_entry *entries;
	int		 nentries;
	int		 capacity;

	enum snap_format format;
	int		 norders;	/* order columns, 0 until known */
	int		 pageblock_order;	/* -1 until known */
	int		 nmtypes;	/* migratetype names, from headers */
	char		 mtypes[SNAP_MAX_MTYPES][SNAP_NAME_LEN];
	int		 has_pagetype;	/* pagetypeinfo was read */

	uint64_t	 t_ns;		/* CLOCK_MONOTONIC when taken */

	int		 nwarn;		/* consistency warnings, for events */
	int		 warn_dropped;
	char		 warn[SNAP_MAX_WARN][SNAP_WARN_LEN];
};

void	 snapshot_init(struct snapshot *snap);
void	 snapshot_free(struct snapshot *snap);
void	 snapshot_reset(struct snapshot *snap);
void	 snapshot_copy(struct snapshot *dst, const struct snapshot *src);
struct snap_entry *snapshot_find(struct snapshot *snap, int node, int region,
	     const char *zone);
struct snap_entry *snapshot_add(struct snapshot *snap, int node, int region,
	     const char *zone);
int	 snapshot_mtype(struct snapshot *snap, const char *name);
void	 snapshot_sort(struct snapshot *snap);
void	 snapshot_warn(struct snapshot *snap, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));
int	 snapshot_zone_rank(const char *zone);
uint64_t snap_entry_used(const struct snap_entry *e);

#endif
