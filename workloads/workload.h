/*
 * Workloads: the descriptor each workload file fills in, the options every
 * workload shares, and the API a caller (the runner, "regionbench
 * workload") uses to run one in a forked child with its threads inside.
 *
 * A run lives in two processes.  The caller keeps a struct workload_run;
 * the child does the work and publishes everything through one MAP_SHARED
 * mapping: a cache line of counters per thread (progress is readable live),
 * per-thread timings and the /proc/vmstat counters around the measured
 * interval.  The metric rows are computed in the caller from that mapping,
 * so a child killed by the OOM killer still leaves what it had done.
 */
#ifndef RB_WORKLOAD_H
#define RB_WORKLOAD_H

#include <sys/types.h>

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bind.h"
#include "opt.h"
#include "units.h"

#define WORKLOAD_MAX_COUNTERS	7	/* per-thread counters after "work" */
#define WORKLOAD_MAX_TIMERS	8	/* per-thread operation timers */
#define WORKLOAD_MAX_THREADS	1024

/*
 * What one thread writes and others of the process read or write sits
 * alone in a block of this many bytes: two 64-byte cache lines, since x86
 * cores fetch lines in adjacent pairs, so a neighbour's writes in the
 * next line still cost misses.
 */
#define WORKLOAD_LINE		128

enum workload_thp {
	WORKLOAD_THP_DEFAULT,
	WORKLOAD_THP_ALWAYS,
	WORKLOAD_THP_NEVER
};

/* The options every workload takes (workload_common_options). */
struct workload_common {
	long		 threads;	/* 0: one per core hwloc finds */
	struct opt_size	 size;		/* bytes or % of MemAvailable */
	uint64_t	 duration_ns;	/* 0: a fixed amount of work */
	int		 cpu_bind;	/* enum workload_cpu_bind */
	long		 node;		/* -1: no memory binding */
	int		 thp;		/* enum workload_thp */
	uint64_t	 warmup_ns;
	int		 force;
	char		*user;		/* NULL or "": stay who we are */
};

/* Flags of a counter: how its metric rows are derived. */
#define WORKLOAD_RATE	0x1	/* also per wall-second and per CPU-second */
#define WORKLOAD_GAUGE	0x2	/* a level (live bytes), not an amount */

/*
 * One per-thread counter.  Its rows are NAME (value * scale, UNIT) and with
 * WORKLOAD_RATE also NAME_per_s and NAME_per_cpu_s.  A counter with a timer
 * (1-based index) takes its rates over that timer's wall and CPU time
 * instead of the thread's whole measured interval.
 */
struct workload_counter {
	const char	*name;
	const char	*unit;
	double		 scale;
	int		 flags;
	int		 timer;
};

/* The hot cache line of one thread: the only memory it writes to share. */
struct workload_slot {
	uint64_t	 work;		/* progress units done */
	uint64_t	 count[WORKLOAD_MAX_COUNTERS];
} __attribute__((aligned(WORKLOAD_LINE)));

/* Timings of one thread, written at the start and end of its interval. */
struct workload_record {
	uint64_t	 planned;	/* progress units planned */
	uint64_t	 start_ns;	/* CLOCK_MONOTONIC */
	uint64_t	 end_ns;
	uint64_t	 cpu_start_ns;	/* CLOCK_THREAD_CPUTIME_ID */
	uint64_t	 cpu_ns;
	uint64_t	 timer_ns[WORKLOAD_MAX_TIMERS];
	uint64_t	 timer_cpu_ns[WORKLOAD_MAX_TIMERS];
	int		 ended;
	int		 rc;
} __attribute__((aligned(WORKLOAD_LINE)));

struct workload_shared;
struct workload_desc;

/* What a workload's hooks see: fixed before the fork, shared by threads. */
struct workload_ctx {
	const struct workload_desc	*desc;
	const struct workload_common	*common;
	void				*settings;	/* desc->options */
	int				 nthreads;
	uint64_t			 size;		/* resolved --size */
	uint64_t			 footprint;	/* bytes it may pin */
	size_t				 page_size;
	struct workload_shared		*shared;
	cpu_set_t			*cpus;		/* per thread or NULL */
	void				*priv;		/* the workload's */
};

/*
 * One worker thread, private to it: written all the time (the random
 * generator's state), so each has a block of its own in the array.
 */
struct workload_thread {
	struct workload_ctx	*ctx;
	int			 index;
	struct workload_slot	*slot;
	struct workload_record	*record;
	uint64_t		 deadline_ns;	/* 0: none */
	int			 warmup;	/* 1 while warming up */
	uint64_t		 rng;
	char			*cause;		/* set with workload_fail */
	void			*priv;
} __attribute__((aligned(WORKLOAD_LINE)));

/*
 * A workload.  prepare runs in the caller before the fork: it checks the
 * settings, sets each thread's plan (workload_plan) and the footprint, and
 * may change ctx->nthreads; what it puts in ctx->priv (one xmalloc'd block)
 * is freed with the run.  setup runs in the child before the threads,
 * run in every thread (it does its planned work, or loops until
 * workload_stopping when --duration is set), teardown in the child after
 * them, also after a stop.  Hooks return 0 or -RB_EXIT_* with a cause.
 */
struct workload_desc {
	const char			*name;
	const char			*summary;	/* one line */
	const struct opt_def		*options;
	size_t				 settings_size;
	const struct workload_counter	*counters;	/* name == NULL ends */
	/* 1, or 0 with a reason; NULL: it runs wherever regionbench does. */
	int	(*supported)(char **reason);
	int	(*prepare)(struct workload_ctx *ctx, char **cause);
	int	(*setup)(struct workload_ctx *ctx, char **cause);
	int	(*run)(struct workload_thread *t);
	void	(*teardown)(struct workload_ctx *ctx);
};

/* How a run ended. */
enum workload_status {
	WORKLOAD_DONE,		/* did its work, exit 0 */
	WORKLOAD_STOPPED,	/* stopped by workload_stop or a signal */
	WORKLOAD_FAILED,	/* exited non-zero: see exit_code, message */
	WORKLOAD_OOM_KILLED,	/* SIGKILL and the oom_kill counter moved */
	WORKLOAD_KILLED		/* another signal */
};

/* One metric row: workloads.csv without phase and workload. */
struct workload_row {
	int		 thread;	/* -1: total */
	char		 metric[48];
	double		 value;
	char		 unit[16];
};

struct workload_result {
	enum workload_status	 status;
	int			 exit_code;	/* -1 when killed */
	int			 signal;	/* 0 unless killed */
	uint64_t		 oom_kills;	/* oom_kill delta, whole run */
	char			*message;	/* why it failed, or NULL */
	double			 progress;
	size_t			 nrows;
	struct workload_row	*rows;
};

struct workload_run;

extern const struct opt_def workload_common_options[];

/* The registry (workloads/registry.c). */
const struct workload_desc *workload_find(const char *name);
const struct workload_desc *const *workload_all(void);

/* Caller side (workloads/workload.c, workload-settings.c). */
struct workload_run *workload_run_new(const struct workload_desc *desc);
void	 workload_run_free(struct workload_run *run);
int	 workload_set_option(struct workload_run *run, const char *key,
	     const char *value, char **cause);
int	 workload_parse_args(struct workload_run *run, int argc, char **argv,
	     const struct opt_set *extra, int *first_arg, char **cause);
struct workload_common *workload_common_settings(struct workload_run *run);
void	 workload_set_cgroup(struct workload_run *run, int fd);
void	*workload_settings(struct workload_run *run);
int	 workload_start(struct workload_run *run, char **cause);
pid_t	 workload_pid(const struct workload_run *run);
int	 workload_nthreads(const struct workload_run *run);
double	 workload_progress(const struct workload_run *run);
double	 workload_thread_progress(const struct workload_run *run, int i);
double	 workload_counter_total(const struct workload_run *run, int k);
int	 workload_measuring(const struct workload_run *run);
void	 workload_stop(struct workload_run *run);
int	 workload_finished(struct workload_run *run);
int	 workload_wait(struct workload_run *run,
	     struct workload_result *result);
void	 workload_result_free(struct workload_result *result);
const char *workload_status_name(enum workload_status status);
int	 workload_result_exit_code(const struct workload_result *result);
uint64_t workload_size_reserve(uint64_t total);
uint64_t workload_size_limit(uint64_t available, uint64_t total);

/* Worker side, for the workload files. */
void	 workload_plan(struct workload_ctx *ctx, int thread, uint64_t work);
int	 workload_fail(struct workload_thread *t, int code, const char *fmt,
	     ...) __attribute__((format(printf, 3, 4)));
void	 workload_end_measure(struct workload_thread *t);
int	 workload_all_ended(const struct workload_ctx *ctx);
void	 workload_madvise(const struct workload_ctx *ctx, void *addr,
	     size_t len);
int	 workload_stop_requested(const struct workload_ctx *ctx);
uint64_t workload_random(struct workload_thread *t);
uint64_t workload_thread_cpu_ns(void);

/* Has this thread been told to stop (signal, stop, deadline)? */
static inline int
workload_stopping(const struct workload_thread *t)
{
	if (workload_stop_requested(t->ctx))
		return (1);
	return (t->deadline_ns != 0 && units_now_ns() >= t->deadline_ns);
}

/* Count n units of progress. */
static inline void
workload_work(struct workload_thread *t, uint64_t n)
{
	__atomic_store_n(&t->slot->work, t->slot->work + n, __ATOMIC_RELAXED);
}

/* Add n to counter k. */
static inline void
workload_count(struct workload_thread *t, int k, uint64_t n)
{
	__atomic_store_n(&t->slot->count[k], t->slot->count[k] + n,
	    __ATOMIC_RELAXED);
}

/* Set gauge k to v. */
static inline void
workload_gauge(struct workload_thread *t, int k, uint64_t v)
{
	__atomic_store_n(&t->slot->count[k], v, __ATOMIC_RELAXED);
}

/* An operation timer: wall and CPU time at its start. */
struct workload_timer {
	uint64_t	 wall_ns;
	uint64_t	 cpu_ns;
};

/* Start timing an operation. */
static inline void
workload_timer_start(struct workload_timer *tm)
{
	tm->wall_ns = units_now_ns();
	tm->cpu_ns = workload_thread_cpu_ns();
}

/* Add the time since workload_timer_start to timer k (0-based). */
static inline void
workload_timer_stop(struct workload_thread *t, int k,
    const struct workload_timer *tm)
{
	t->record->timer_ns[k] += units_now_ns() - tm->wall_ns;
	t->record->timer_cpu_ns[k] += workload_thread_cpu_ns() - tm->cpu_ns;
}

/* The workloads, one per file. */
#define WORKLOAD_LIST(X) \
	X(pagetest) \
	X(fork_heavy) \
	X(page_cache_churn) \
	X(frag_churn)

#define WORKLOAD_EXTERN(name) extern const struct workload_desc workload_##name;
WORKLOAD_LIST(WORKLOAD_EXTERN)
#undef WORKLOAD_EXTERN

#endif
