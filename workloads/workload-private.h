/*
 * What the files running a workload share, and nothing outside workloads/
 * may use: the shared mapping between the caller and the worker child,
 * the caller's state of one run, and the measurement helpers.
 *
 *   workload.c           the caller: start, progress, stop, wait
 *   workload-settings.c  the common options and parsing them
 *   workload-child.c     the worker child and its threads
 *   workload-metrics.c   vmstat and CPU time, and the metric rows
 */
#ifndef RB_WORKLOAD_PRIVATE_H
#define RB_WORKLOAD_PRIVATE_H

#include <sys/types.h>

#include <pthread.h>
#include <signal.h>

#include "workload.h"

#define WORKLOAD_EXIT_STOPPED	130

/*
 * The /proc/vmstat counters whose deltas explain a workload's numbers,
 * with the unit of their rows.
 */
#define WORKLOAD_VM_LIST(X) \
	X(pgfault, "faults") \
	X(pgmajfault, "faults") \
	X(pgalloc_dma, "pages") \
	X(pgalloc_dma32, "pages") \
	X(pgalloc_normal, "pages") \
	X(pgalloc_movable, "pages") \
	X(pgfree, "pages") \
	X(pgscan_kswapd, "pages") \
	X(pgscan_direct, "pages") \
	X(pgsteal_kswapd, "pages") \
	X(pgsteal_direct, "pages") \
	X(compact_stall, "events") \
	X(compact_success, "events") \
	X(compact_fail, "events") \
	X(compact_migrate_scanned, "pages") \
	X(compact_free_scanned, "pages") \
	X(thp_fault_alloc, "events") \
	X(thp_fault_fallback, "events") \
	X(thp_collapse_alloc, "events") \
	X(thp_split_page, "events") \
	X(workingset_refault_file, "pages") \
	X(pgpgin, "KiB") \
	X(pgpgout, "KiB") \
	X(oom_kill, "events")

#define WORKLOAD_VM_ENUM(key, unit) WORKLOAD_VM_##key,
enum workload_vm {
	WORKLOAD_VM_LIST(WORKLOAD_VM_ENUM)
	WORKLOAD_NVM
};
#undef WORKLOAD_VM_ENUM

/* The head of the shared mapping; slots and records follow it. */
struct workload_shared {
	int		 stop;		/* threads poll it */
	int		 measuring;	/* warm-up over, counters reset */
	int		 finished;	/* threads that returned */
	int		 nthreads;
	uint64_t	 measure_start_ns;
	uint64_t	 duration_ns;
	uint64_t	 cpu_before_ns;	/* RUSAGE_SELF + RUSAGE_CHILDREN */
	uint64_t	 cpu_after_ns;
	int		 vm_valid;	/* bit 0: before read, bit 1: after */
	uint64_t	 vm_before[WORKLOAD_NVM];
	uint64_t	 vm_after[WORKLOAD_NVM];
	pthread_mutex_t	 lock;		/* guards message */
	pthread_barrier_t barrier;
	char		 message[512];
};

#define WORKLOAD_HEAD_SIZE \
	((sizeof(struct workload_shared) + WORKLOAD_LINE - 1) & \
	~(size_t)(WORKLOAD_LINE - 1))

/* The caller's state of one run. */
struct workload_run {
	const struct workload_desc	*desc;
	struct workload_common		 common;
	void				*settings;
	struct workload_ctx		 ctx;
	void				*map;
	size_t				 map_len;
	pid_t				 pid;
	int				 drop;		/* --user: switch ids */
	int				 cgroup_procs;	/* cgroup to enter, or -1 */
	uid_t				 uid;
	gid_t				 gid;
	gid_t				 groups[64];
	int				 ngroups;
	int				 started;
	int				 reaped;
	int				 wstatus;
	int				 stop_sent;
	uint64_t			 stop_ns;
	uint64_t			 oom_before;
	uint64_t			 end_ns;
};

/* The hot line of thread i. */
static inline struct workload_slot *
workload_slot_of(struct workload_shared *sh, int i)
{
	return ((struct workload_slot *)((char *)sh + WORKLOAD_HEAD_SIZE) + i);
}

/* The timing record of thread i. */
static inline struct workload_record *
workload_record_of(struct workload_shared *sh, int nthreads, int i)
{
	/*
	 * nthreads comes from the caller's own memory: the count in the
	 * shared block is the child's to write, so the parent never sizes
	 * anything by it.
	 */
	return ((struct workload_record *)(workload_slot_of(sh,
	    nthreads)) + i);
}

/* workload-child.c */
void	 workload_child(struct workload_run *run, pid_t parent,
	     const sigset_t *stops) __attribute__((noreturn));

/* workload-metrics.c */
uint64_t workload_process_cpu_ns(void);
int	 workload_read_vm(uint64_t *values);
uint64_t workload_oom_kills(void);
void	 workload_build_rows(struct workload_run *run,
	     struct workload_result *res);

#endif
