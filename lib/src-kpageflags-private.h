/*
 * What the files of the kpageflags source share inside lib/:
 *
 *   src-kpageflags.c        the source: options, open, read, describe
 *   src-kpageflags-scan.c   the scan of /proc/kpageflags (the hot loop)
 *   src-kpageflags-check.c  the scan checked against zoneinfo
 */
#ifndef RB_SRC_KPAGEFLAGS_PRIVATE_H
#define RB_SRC_KPAGEFLAGS_PRIVATE_H

#include <limits.h>
#include <pthread.h>
#include <stdint.h>

#include "region-map.h"
#include "snapshot.h"
#include "src-kpageflags.h"

#define SRC_KPAGEFLAGS_BATCH	(4 << 20)	/* bytes per pread */
#define SRC_KPAGEFLAGS_MAX_THREADS 64
#define SRC_KPAGEFLAGS_DEFAULT_REGION (512ULL << 20)
/* Minimum gap between blocks and pages to tell head-only marking. */
#define SRC_KPAGEFLAGS_DETECT_MIN 64
/* The calibration read at open: at most this many batches, this long. */
#define SRC_KPAGEFLAGS_CALIB_BATCHES 4
#define SRC_KPAGEFLAGS_CALIB_NS	(10 * 1000 * 1000ULL)
/*
 * The observer budget of the scans: this share of all the CPUs
 * (docs/performance.md: the load loses at most 0.02; half of it is kept
 * for the rest of a sample and for a calibration made on a busy machine).
 */
#define SRC_KPAGEFLAGS_BUDGET	0.01

/* How the kernel marks free blocks in kpageflags. */
enum src_kpageflags_marking {
	SRC_KPAGEFLAGS_UNDECIDED,
	SRC_KPAGEFLAGS_ALL_PAGES,	/* 4.6 and later: every page BUDDY */
	SRC_KPAGEFLAGS_HEAD_ONLY	/* before 4.6: only the head page */
};

/* Counters of one region key, per scanning thread. */
struct src_kpageflags_acc {
	uint64_t	 present;
	uint64_t	 free;
	uint64_t	 zero;		/* no flags at all, not free */
	uint64_t	 reserved;	/* PG_reserved: never managed */
	uint64_t	 firmware;	/* PG_reserved in a firmware range */
	uint64_t	 pcp;		/* per-CPU free pages, estimated */
	uint64_t	 used[SNAP_USED_NCLASS];
	uint64_t	 blocks[SNAP_MAX_ORDERS];
	uint64_t	 uninit;	/* after reconciliation */
};

/* Per-zone figures of one sample. */
struct src_kpageflags_zone {
	uint64_t	 slack;		/* sum of per-CPU thresholds */
	uint64_t	 free_before;
	uint64_t	 free_after;
	uint64_t	 managed;
	uint64_t	 buddy_blocks;	/* buddyinfo, before */
	uint64_t	 buddy_pages;
	uint64_t	 pcp;		/* per-CPU list pages, before */
	int		 seen;
};

/* What one thread read of one region key in a sampled scan. */
struct src_kpageflags_strat {
	uint64_t	 n;		/* units read */
	double		 sum;		/* free pages per unit, summed */
	double		 sumsq;		/* and their squares */
};

/*
 * One region key (a stratum) in a sampled scan: the units it spans (its
 * max-order-aligned windows), how many this sample reads, and what came
 * of them.
 */
struct src_kpageflags_est {
	uint64_t	 units;		/* N */
	uint64_t	 want;		/* n to read, <= N */
	uint64_t	 seed;		/* of this key's draw this sample */
	uint64_t	 n;
	double		 sum;
	double		 sumsq;
	uint64_t	 seen_free;	/* BUDDY pages in the units read */
	uint64_t	 seen_used;	/* flagged used pages in them */
	int		 partial;	/* n < N: the figures are estimates */
	double		 lo;		/* 95 % interval of the BUDDY pages */
	double		 hi;
};

struct src_kpageflags;

struct src_kpageflags_worker {
	struct src_kpageflags		*kp;
	pthread_t			 thread;
	int				 started;
	uint64_t			 lo;
	uint64_t			 hi;
	uint64_t			*buf;
	struct src_kpageflags_acc	*acc;
	struct src_kpageflags_strat	*strat;
	int				 err;		/* errno, or -1: short */
	uint64_t			 err_pfn;
	uint64_t			 err_off;	/* bytes, when short */
};

struct src_kpageflags {
	int				 fd;
	char				 path[PATH_MAX + 16];
	struct region_map		 map;
	struct snapshot			 before;
	struct snapshot			 after;
	struct procfile			 after_file;
	int				 maxorder;
	uint64_t			 span_end;	/* end pfn of the zones */
	uint64_t			 batch_pfns;
	enum src_kpageflags_marking	 marking;
	int				 head_rule;
	char				 detection[256];

	int				 nthreads;
	int				 per_node;	/* a thread per node */
	char				 threads_why[256];
	struct src_kpageflags_worker	*workers;
	pthread_barrier_t		 start;
	pthread_barrier_t		 done;
	int				 barriers;
	volatile int			 quit;

	struct src_kpageflags_acc	*total;
	struct src_kpageflags_zone	*zones;

	uint64_t			 samples;
	uint64_t			 checks;
	uint64_t			 outside;
	uint64_t			 worst_outside;
	int64_t				 worst_diff;
	char				 worst_where[64];
	uint64_t			 last_scan_ns;
	uint64_t			 max_scan_ns;

	/* --scan-fraction: the sampled scans between full ones. */
	double				 fraction;	/* 1: always full */
	uint64_t			 full_every;
	uint64_t			 seed;
	int				 seed_given;
	int				 sampled;	/* this sample's scan */
	struct src_kpageflags_est	*est;
	uint64_t			 full_scans;
	uint64_t			 sampled_scans;

	/*
	 * Exact scans in rotation: memory is cut into `rotation` parts of
	 * whole regions, and each sample after the first counts one part
	 * exactly and keeps the last exact counts of the others, with the
	 * time they were taken.
	 */
	uint64_t			 rotation;	/* 1: every region */
	int				 rotation_auto;
	char				 rotation_why[320];
	int				 part;		/* -1: the whole */
	int				*region_part;	/* per region span */
	struct src_kpageflags_acc	*kept;		/* per key */
	uint64_t			*counted_ns;	/* per key, 0: never */
	uint64_t			 rotated_scans;
	uint64_t			 max_age_ns;

	/* The cost estimate, from the calibration read at open. */
	uint64_t			 online_pfns;
	uint64_t			 calib_pfns;	/* 0: no estimate */
	uint64_t			 calib_ns;
	uint64_t			 calib_cpu_ns;	/* its CPU time */
};

/* src-kpageflags-scan.c */
void	 src_kpageflags_start_workers(struct src_kpageflags *kp,
	     long nthreads);
void	 src_kpageflags_stop_workers(struct src_kpageflags *kp);
int	 src_kpageflags_run(struct src_kpageflags *kp, char **cause);
void	 src_kpageflags_scan(struct src_kpageflags_worker *w);
uint64_t src_kpageflags_rand(uint64_t *state);

/* src-kpageflags-plan.c */
void	 src_kpageflags_cut(struct src_kpageflags *kp);
void	 src_kpageflags_estimate_keys(struct src_kpageflags *kp);
uint64_t src_kpageflags_online(const struct src_kpageflags *kp, uint64_t lo,
	     uint64_t hi);
void	 src_kpageflags_calibrate(struct src_kpageflags *kp);
void	 src_kpageflags_plan(struct src_kpageflags *kp, int sampled);
void	 src_kpageflags_rotation(struct src_kpageflags *kp, uint64_t parts);
int	 src_kpageflags_key_scanned(const struct src_kpageflags *kp, int key);
double	 src_kpageflags_planned_fraction(const struct src_kpageflags *kp);

/* src-kpageflags-check.c */
void	 src_kpageflags_before(struct src_kpageflags *kp,
	     struct snapshot *before, const char *zoneinfo,
	     struct snapshot *snap);
void	 src_kpageflags_detect(struct src_kpageflags *kp);
void	 src_kpageflags_after(struct src_kpageflags *kp,
	     struct snapshot *after, struct snapshot *snap);

/* src-kpageflags.c */
int	 src_kpageflags_cpus(void);

/* src-kpageflags-describe.c */
double	 src_kpageflags_estimate(const struct source *src, double interval_s,
	     char **basis, char **advice);
void	 src_kpageflags_describe(struct source *src, json_t *obj);
char	*src_kpageflags_counting(const struct source *src);

#endif
