/*
 * The worker child and its threads, and the API the workload files call
 * from inside them.
 *
 * The child is its own process group with oom_score_adj 1000 and
 * PR_SET_PDEATHSIG(SIGKILL), so the OOM killer picks it rather than the
 * caller and it never outlives the caller.  SIGINT/SIGTERM/SIGHUP are
 * blocked in all its threads and taken by its main thread with
 * sigtimedwait: it then raises the stop flag, joins the threads, runs the
 * teardown (scratch removed) and exits 130.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/prctl.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bind.h"
#include "log.h"
#include "workload-private.h"

/* Set the progress units thread will do (from the setup hook). */
void
workload_plan(struct workload_ctx *ctx, int thread, uint64_t work)
{
	workload_record_of(ctx->shared, ctx->nthreads, thread)->planned = work;
}

/* Has the run been told to stop? */
int
workload_stop_requested(const struct workload_ctx *ctx)
{
	return (__atomic_load_n(&ctx->shared->stop, __ATOMIC_RELAXED));
}

/* Record why a thread failed and return -code, for "return (...)". */
int
workload_fail(struct workload_thread *t, int code, const char *fmt, ...)
{
	va_list ap;

	free(t->cause);
	va_start(ap, fmt);
	t->cause = xvasprintf(fmt, ap);
	va_end(ap);
	return (-code);
}

/* End the thread's measured interval now (before a hold, say). */
void
workload_end_measure(struct workload_thread *t)
{
	struct workload_record *rec = t->record;

	if (t->warmup || rec->ended)
		return;
	rec->end_ns = units_now_ns();
	rec->cpu_ns = workload_thread_cpu_ns() - rec->cpu_start_ns;
	__atomic_store_n(&rec->ended, 1, __ATOMIC_RELEASE);
}

/* Have all threads ended their measured interval (a hold starts then)? */
int
workload_all_ended(const struct workload_ctx *ctx)
{
	int i;

	for (i = 0; i < ctx->nthreads; i++)
		if (!__atomic_load_n(&workload_record_of(ctx->shared,
		    ctx->nthreads,
		    i)->ended, __ATOMIC_ACQUIRE))
			return (0);
	return (1);
}

/* Apply the --thp policy to an anonymous mapping. */
void
workload_madvise(const struct workload_ctx *ctx, void *addr, size_t len)
{
	if (ctx->common->thp == WORKLOAD_THP_ALWAYS)
		madvise(addr, len, MADV_HUGEPAGE);
	else if (ctx->common->thp == WORKLOAD_THP_NEVER)
		madvise(addr, len, MADV_NOHUGEPAGE);
}

/* A 64-bit pseudo-random number from the thread's generator. */
uint64_t
workload_random(struct workload_thread *t)
{
	uint64_t x = t->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	t->rng = x;
	return (x * 0x2545F4914F6CDD1DULL);
}

/* Keep the first failure message of the run. */
static void
workload_set_message(struct workload_shared *sh, const char *msg)
{
	pthread_mutex_lock(&sh->lock);
	if (sh->message[0] == '\0')
		snprintf(sh->message, sizeof sh->message, "%s", msg);
	pthread_mutex_unlock(&sh->lock);
}

/* Reset every counter and timer: the measured interval starts now. */
static void
workload_begin_measure(struct workload_ctx *ctx)
{
	struct workload_shared *sh = ctx->shared;
	struct workload_record *rec;
	int i;

	for (i = 0; i < ctx->nthreads; i++) {
		memset(workload_slot_of(sh, i), 0,
		    sizeof(struct workload_slot));
		rec = workload_record_of(sh, ctx->nthreads, i);
		memset(rec->timer_ns, 0, sizeof rec->timer_ns);
		memset(rec->timer_cpu_ns, 0, sizeof rec->timer_cpu_ns);
	}
	if (workload_read_vm(sh->vm_before) == 0)
		sh->vm_valid |= 1;
	sh->cpu_before_ns = workload_process_cpu_ns();
	sh->measure_start_ns = units_now_ns();
	__atomic_store_n(&sh->measuring, 1, __ATOMIC_RELEASE);
}

/* One worker thread: warm up, wait for the others, do the measured work. */
static void *
workload_thread_main(void *arg)
{
	struct workload_thread *t = arg;
	struct workload_ctx *ctx = t->ctx;
	struct workload_shared *sh = ctx->shared;
	int rc = 0;

	if (ctx->cpus != NULL && CPU_COUNT(&ctx->cpus[t->index]) > 0)
		sched_setaffinity(0, sizeof(cpu_set_t), &ctx->cpus[t->index]);
	if (ctx->common->warmup_ns > 0) {
		t->warmup = 1;
		t->deadline_ns = units_now_ns() + ctx->common->warmup_ns;
		while (rc == 0 && !workload_stopping(t))
			rc = ctx->desc->run(t);
		t->warmup = 0;
	}
	if (pthread_barrier_wait(&sh->barrier) ==
	    PTHREAD_BARRIER_SERIAL_THREAD)
		workload_begin_measure(ctx);
	pthread_barrier_wait(&sh->barrier);
	t->deadline_ns = ctx->common->duration_ns > 0 ?
	    sh->measure_start_ns + ctx->common->duration_ns : 0;
	t->record->start_ns = units_now_ns();
	t->record->cpu_start_ns = workload_thread_cpu_ns();
	if (rc == 0 && !workload_stop_requested(ctx))
		rc = ctx->desc->run(t);
	workload_end_measure(t);
	t->record->rc = rc;
	if (rc != 0)
		workload_set_message(sh, t->cause != NULL ? t->cause :
		    "a worker thread failed");
	__atomic_add_fetch(&sh->finished, 1, __ATOMIC_RELEASE);
	return (NULL);
}

/* Write to a /proc file of this process; errors are ignored. */
static void
workload_write_proc(const char *path, const char *text)
{
	int fd;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return;
	if (write(fd, text, strlen(text)) < 0) {
		/* Not fatal: the child only loses its OOM preference. */
	}
	close(fd);
}

/* End the child after a setup failure. */
static void __attribute__((noreturn))
workload_child_fail(struct workload_shared *sh, int rc, char *cause)
{
	workload_set_message(sh, cause != NULL ? cause : "setup failed");
	_exit(rc < 0 ? -rc : RB_EXIT_FAIL);
}

/*
 * --user in the child, before any work: supplementary groups, group, then
 * user, each checked.  Changing ids clears the parent-death signal, so it
 * is set again.
 */
static void
workload_drop_ids(struct workload_run *run, pid_t parent)
{
	struct workload_shared *sh = run->ctx.shared;
	char *cause;

	if (setgroups((size_t)run->ngroups, run->groups) == -1 ||
	    setgid(run->gid) == -1 || setuid(run->uid) == -1 ||
	    getuid() != run->uid || geteuid() != run->uid ||
	    getegid() != run->gid) {
		cause = xasprintf("--user %s: cannot switch to uid %u gid %u: "
		    "%s", run->common.user, (unsigned)run->uid,
		    (unsigned)run->gid, strerror(errno));
		workload_child_fail(sh, -RB_EXIT_ENV, cause);
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(RB_EXIT_FAIL);
}

/* The worker child: setup, threads, signal handling, teardown, exit. */
void
workload_child(struct workload_run *run, pid_t parent, const sigset_t *stops)
{
	struct workload_ctx *ctx = &run->ctx;
	struct workload_shared *sh = ctx->shared;
	struct workload_thread *threads;
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	pthread_t *tids;
	char *cause = NULL;
	int i, rc, stopped = 0, code = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(RB_EXIT_FAIL);
	setpgid(0, 0);
	/* Into the workloads' cgroup before anything is allocated. */
	if (run->cgroup_procs != -1 && write(run->cgroup_procs, "0", 1) != 1)
		workload_child_fail(sh, -RB_EXIT_ENV, xasprintf("cannot enter "
		    "the workloads' cgroup: %s", strerror(errno)));
	workload_write_proc("/proc/self/oom_score_adj", "1000");
	if (run->drop)
		workload_drop_ids(run, parent);
	signal(SIGPIPE, SIG_IGN);
	if ((rc = bind_membind(ctx->common->node, &cause)) != 0)
		workload_child_fail(sh, rc, cause);
	if (ctx->desc->setup != NULL &&
	    (rc = ctx->desc->setup(ctx, &cause)) != 0)
		workload_child_fail(sh, rc, cause);
	if (pthread_barrier_init(&sh->barrier, NULL, ctx->nthreads) != 0)
		workload_child_fail(sh, -RB_EXIT_ENV, "pthread_barrier_init");
	/* Each thread its own line pair: calloc aligns to 16 bytes only. */
	if (posix_memalign((void **)&threads, WORKLOAD_LINE,
	    (size_t)ctx->nthreads * sizeof *threads) != 0)
		workload_child_fail(sh, -RB_EXIT_ENV, "out of memory for the "
		    "threads");
	memset(threads, 0, (size_t)ctx->nthreads * sizeof *threads);
	tids = xcalloc(ctx->nthreads, sizeof *tids);
	for (i = 0; i < ctx->nthreads; i++) {
		threads[i].ctx = ctx;
		threads[i].index = i;
		threads[i].slot = workload_slot_of(sh, i);
		threads[i].record = workload_record_of(sh, ctx->nthreads, i);
		threads[i].rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
		if ((rc = pthread_create(&tids[i], NULL, workload_thread_main,
		    &threads[i])) != 0) {
			/* The barrier can't be met any more: leave at once. */
			cause = xasprintf("pthread_create: %s", strerror(rc));
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
			workload_child_fail(sh, -RB_EXIT_ENV, cause);
		}
	}
	while (__atomic_load_n(&sh->finished, __ATOMIC_ACQUIRE) <
	    ctx->nthreads) {
		if (sigtimedwait(stops, NULL, &tick) > 0) {
			stopped = 1;
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
		} else if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED))
			stopped = 1;
	}
	for (i = 0; i < ctx->nthreads; i++) {
		pthread_join(tids[i], NULL);
		if (threads[i].record->rc != 0 && code == 0)
			code = -threads[i].record->rc;
		free(threads[i].cause);
	}
	sh->cpu_after_ns = workload_process_cpu_ns();
	if (workload_read_vm(sh->vm_after) == 0)
		sh->vm_valid |= 2;
	if (ctx->desc->teardown != NULL)
		ctx->desc->teardown(ctx);
	_exit(stopped ? WORKLOAD_EXIT_STOPPED : code);
}
