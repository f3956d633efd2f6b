/*
 * fork-heavy: a parent with --size of touched anonymous memory and
 * --forkers threads that fork children in a loop.  Each child writes
 * --cow-pct of the parent's pages (copy-on-write faults) and exits, or
 * execs /bin/true; the forking thread reaps it.  fork copies the page
 * tables of the whole parent and exit tears them down, so forks/s falls
 * with the parent's size: this is page-table and COW allocation churn.
 *
 * The children are made with the clone3 system call, not glibc's fork():
 * in a threaded process fork() takes and resets glibc's malloc and stdio
 * locks around the call, writes that become a dozen copy-on-write faults
 * per fork in the parent and the child, user-space work a single-threaded
 * fork loop does not pay.  The child only makes system calls (prctl,
 * sigprocmask, execl, _exit) and writes the parent's memory, which is
 * safe without glibc's fork handlers.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "workload.h"

#ifdef SYS_clone3
#include <linux/sched.h>
#endif

#define FORK_HEAVY_TRUE	"/bin/true"

struct fork_heavy_settings {
	long		 forkers;
	long		 cow_pct;
	int		 exec;
	uint64_t	 forks;
};

/* The parent's memory and each thread's plan. */
struct fork_heavy_plan {
	char		*mem;
	uint64_t	 pages;
	uint64_t	 cow_pages;	/* each child writes these */
	uint64_t	 forks;		/* per thread */
};

enum { FORK_HEAVY_FORKS, FORK_HEAVY_COW, FORK_HEAVY_FAILED };

#define FO(f) offsetof(struct fork_heavy_settings, f)
static const struct opt_def fork_heavy_options[] = {
	{ .name = "forkers", .type = OPT_LONG, .offset = FO(forkers),
	  .arg = "N", .def = "0", .max = WORKLOAD_MAX_THREADS,
	  .help = "threads that fork (0: --threads)" },
	{ .name = "cow-pct", .type = OPT_LONG, .offset = FO(cow_pct),
	  .arg = "PCT", .def = "0", .max = 100,
	  .help = "percent of the parent's pages each child writes" },
	{ .name = "exec", .type = OPT_FLAG, .offset = FO(exec),
	  .help = "children exec " FORK_HEAVY_TRUE " instead of exiting" },
	{ .name = "forks", .type = OPT_U64, .offset = FO(forks), .arg = "N",
	  .def = "200", .min = 1, .max = INT64_MAX,
	  .help = "forks in all (the fixed work when --duration is 0)" },
	{ .name = NULL }
};
#undef FO

static const struct workload_counter fork_heavy_counters[] = {
	{ "forks", "forks", 1, WORKLOAD_RATE, 0 },
	{ "cow_pages", "pages", 1, WORKLOAD_RATE, 0 },
	{ "failed_children", "children", 1, 0, 0 },
	{ NULL, NULL, 0, 0, 0 }
};

/* Threads from --forkers, footprint with the children's copies. */
static int
fork_heavy_prepare(struct workload_ctx *ctx, char **cause)
{
	struct fork_heavy_settings *s = ctx->settings;
	struct fork_heavy_plan *plan = xcalloc(1, sizeof *plan);

	ctx->priv = plan;
	if (s->forkers > 0)
		ctx->nthreads = (int)s->forkers;
	if (s->exec && access(FORK_HEAVY_TRUE, X_OK) != 0)
		return (fail_with(cause, RB_EXIT_ENV, "fork-heavy --exec: "
		    "%s: %s", FORK_HEAVY_TRUE, strerror(errno)));
	plan->pages = ctx->size / ctx->page_size;
	plan->cow_pages = plan->pages * (uint64_t)s->cow_pct / 100;
	plan->forks = (s->forks + ctx->nthreads - 1) / ctx->nthreads;
	ctx->footprint = ctx->size + (uint64_t)ctx->nthreads *
	    plan->cow_pages * ctx->page_size;
	return (0);
}

/* Map and touch the parent's memory. */
static int
fork_heavy_setup(struct workload_ctx *ctx, char **cause)
{
	struct fork_heavy_plan *plan = ctx->priv;
	size_t len = plan->pages * ctx->page_size;
	uint64_t i;
	int t;

	if (len > 0) {
		plan->mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (plan->mem == MAP_FAILED)
			return (fail_with(cause, RB_EXIT_ENV, "fork-heavy: "
			    "mmap of %zu bytes: %s", len, strerror(errno)));
		workload_madvise(ctx, plan->mem, len);
		for (i = 0; i < plan->pages; i++)
			plan->mem[i * ctx->page_size] = 1;
	}
	for (t = 0; t < ctx->nthreads; t++)
		workload_plan(ctx, t, plan->forks);
	return (0);
}

/*
 * A new process like fork() but without glibc's fork handlers (see the top
 * of the file); fork() where clone3 is missing (before Linux 5.3).
 */
static pid_t
fork_heavy_fork(void)
{
#ifdef SYS_clone3
	static int no_clone3;
	struct clone_args args;
	long pid;

	if (!__atomic_load_n(&no_clone3, __ATOMIC_RELAXED)) {
		memset(&args, 0, sizeof args);
		args.exit_signal = SIGCHLD;
		pid = syscall(SYS_clone3, &args, sizeof args);
		if (pid != -1 || errno != ENOSYS)
			return ((pid_t)pid);
		__atomic_store_n(&no_clone3, 1, __ATOMIC_RELAXED);
	}
#endif
	return (fork());
}

/* In the child: write the COW pages, then exit or exec. */
static void __attribute__((noreturn))
fork_heavy_child(const struct workload_ctx *ctx)
{
	const struct fork_heavy_settings *s = ctx->settings;
	const struct fork_heavy_plan *plan = ctx->priv;
	sigset_t all;
	uint64_t i;

	if (plan->cow_pages == 0 && !s->exec)
		_exit(0);
	/*
	 * A child that works for a while dies with its forker and takes the
	 * stop signals (/bin/true inherits the mask); one that exits at once
	 * needs neither, and their stack writes are faults of their own.
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	for (i = 0; i < plan->cow_pages; i++)
		plan->mem[(i * plan->pages / plan->cow_pages) *
		    ctx->page_size]++;
	if (s->exec) {
		execl(FORK_HEAVY_TRUE, "true", (char *)NULL);
		_exit(127);
	}
	_exit(0);
}

/* Fork, let the child do its part, reap it; repeat. */
static int
fork_heavy_run(struct workload_thread *t)
{
	const struct fork_heavy_plan *plan = t->ctx->priv;
	int fixed = t->ctx->common->duration_ns == 0 && !t->warmup;
	uint64_t n;
	pid_t pid;
	int status;

	for (n = 0; fixed ? n < plan->forks : !workload_stopping(t); n++) {
		if (fixed && workload_stop_requested(t->ctx))
			break;
		if ((pid = fork_heavy_fork()) == 0)
			fork_heavy_child(t->ctx);
		if (pid == -1)
			return (workload_fail(t, RB_EXIT_ENV, "fork-heavy: "
			    "fork: %s", strerror(errno)));
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			workload_count(t, FORK_HEAVY_FAILED, 1);
		workload_count(t, FORK_HEAVY_FORKS, 1);
		workload_count(t, FORK_HEAVY_COW, plan->cow_pages);
		workload_work(t, 1);
	}
	return (0);
}

/* Unmap the parent's memory. */
static void
fork_heavy_teardown(struct workload_ctx *ctx)
{
	struct fork_heavy_plan *plan = ctx->priv;

	if (plan->mem != NULL && plan->mem != MAP_FAILED)
		munmap(plan->mem, plan->pages * ctx->page_size);
}

const struct workload_desc workload_fork_heavy = {
	.name = "fork-heavy",
	.summary = "threads fork children of a large parent that write part "
	    "of its memory",
	.options = fork_heavy_options,
	.settings_size = sizeof(struct fork_heavy_settings),
	.counters = fork_heavy_counters,
	.prepare = fork_heavy_prepare,
	.setup = fork_heavy_setup,
	.run = fork_heavy_run,
	.teardown = fork_heavy_teardown,
};
