/*
 * The vacate probe: can the memory blocks of an emulated region be
 * emptied?  Each block of the region is offlined through sysfs
 * (devices/system/memory/memoryN/state), which makes the kernel migrate
 * every page out of it or refuse; the time it took and the pages it moved
 * (pgmigrate_success and pgmigrate_fail of vmstat) are recorded, and every
 * block is onlined again before the probe ends, whatever happens.
 *
 * The blocks of a region are offlined one after another and kept offline
 * until the region is done, so pages moved out of one block cannot land in
 * the next: "emptied" means the whole region was empty at once.
 */
#ifndef RB_VACATE_H
#define RB_VACATE_H

#include <jansson.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "region-map.h"

#define VACATE_TEXT_LEN	160
#define VACATE_REASON_LEN	(2 * VACATE_TEXT_LEN + 128)

/* Where a block is in the probe. */
enum vacate_result {
	VACATE_NOT_TRIED,	/* dry run, or the probe stopped before it */
	VACATE_SKIPPED,		/* not online before the probe: left alone */
	VACATE_EMPTIED,		/* offlined: the kernel moved everything */
	VACATE_REFUSED,		/* the kernel refused (errno) */
	VACATE_TIMEOUT,		/* still migrating at --timeout */
	VACATE_INTERRUPTED	/* stopped by SIGINT or SIGTERM */
};

/* Pages of one block by kpageflags class, when a refusal is explained. */
struct vacate_pages {
	int		 known;		/* kpageflags was readable */
	uint64_t	 free;
	uint64_t	 anon;
	uint64_t	 file;
	uint64_t	 slab;
	uint64_t	 pgtable;
	uint64_t	 reserved;
	uint64_t	 other;		/* no class: kernel allocations */
};

struct vacate_block {
	int			 id;		/* N of memoryN */
	int			 node;
	uint64_t		 start_pfn;
	uint64_t		 end_pfn;
	char			 state_before[32];
	char			 valid_zones[64];
	char			 removable[8];	/* "" when absent */
	char			 state_after[32];
	char			 zones_after[64];	/* valid_zones now */
	enum vacate_result	 result;
	int			 error;		/* errno of the refusal */
	char			 reason[VACATE_REASON_LEN];
	double			 offline_s;
	uint64_t		 migrated;	/* pgmigrate_success delta */
	uint64_t		 migrate_failed;
	int			 offlined;	/* offline now, by us */
	int			 online_failed;	/* could not be onlined */
	const char		*step;		/* last thing done, or NULL */
	/* What the kernel will object to, known before trying. */
	char			 notes[VACATE_TEXT_LEN];
	struct vacate_pages	 pages;
};

struct vacate_region {
	int			 node;
	int			 region;
	uint64_t		 start_pfn;
	uint64_t		 end_pfn;
	struct vacate_block	*blocks;
	int			 nblocks;
	int			 emptied;	/* every online block emptied */
	double			 seconds;
	uint64_t		 migrated;
	uint64_t		 migrate_failed;
	char			 reason[VACATE_REASON_LEN + 32];
};

struct vacate {
	char			*sys_root;
	char			*proc_root;
	uint64_t		 page_size;
	uint64_t		 timeout_ns;	/* per block, 0: none */
	int			 dry_run;
	struct vacate_region	*regions;
	int			 nregions;
	const char		*status;	/* running, complete, ... */
	/* Set from signal handlers: stop and restore. */
	volatile sig_atomic_t	*stop;
	/* Told before a block is offlined and whenever a state changes. */
	void			(*progress)(const struct vacate *,
				    const struct vacate_block *,
				    const char *what, void *);
	void			*arg;
};

int	 vacate_parse_region(const char *s, int *node, int *region,
	     char **cause);
int	 vacate_init(struct vacate *v, const struct region_map *map,
	     const int *nodes, const int *regions, int n, char **cause);
void	 vacate_free(struct vacate *v);
int	 vacate_check_guest(const char *sys_root, char *why, size_t len);
int	 vacate_check_offlinable(const struct vacate *v, char **cause);
int	 vacate_run(struct vacate *v, char **cause);
int	 vacate_restore(struct vacate *v);
const char *vacate_result_name(enum vacate_result r);

/* vacate-print.c */
void	 vacate_print_table(FILE *f, const struct vacate *v);
void	 vacate_print_csv(FILE *f, const struct vacate *v);
json_t	*vacate_to_json(const struct vacate *v);

#endif
