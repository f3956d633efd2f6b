/*
 * Running a workload, the caller's side: check the settings, fork the
 * worker child (workload-child.c), read its progress live from the shared
 * mapping, stop it, reap it and say how it ended.  The caller builds the
 * metric rows from the mapping (workload-metrics.c), so even a child
 * killed with SIGKILL leaves its counters behind.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/wait.h>

#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bind.h"
#include "log.h"
#include "workload-private.h"

#define WORKLOAD_STOP_GRACE_NS	(10 * NS_PER_SEC)

/* A run of desc with every option at its default. */
struct workload_run *
workload_run_new(const struct workload_desc *desc)
{
	struct workload_run *run = xcalloc(1, sizeof *run);
	char *cause = NULL;

	run->desc = desc;
	run->settings = xcalloc(1, desc->settings_size > 0 ?
	    desc->settings_size : 1);
	if (opt_defaults(workload_common_options, &run->common, &cause) != 0 ||
	    (desc->options != NULL && opt_defaults(desc->options,
	    run->settings, &cause) != 0))
		die(RB_EXIT_FAIL, "workload %s: bad default: %s", desc->name,
		    cause);
	run->pid = -1;
	run->cgroup_procs = -1;
	return (run);
}

/* Release a run; a child still running is killed and reaped first. */
void
workload_run_free(struct workload_run *run)
{
	struct workload_result result;

	if (run == NULL)
		return;
	if (run->started && !run->reaped) {
		kill(-run->pid, SIGKILL);
		workload_wait(run, &result);
		workload_result_free(&result);
	}
	if (run->desc->options != NULL)
		opt_free(run->desc->options, run->settings);
	opt_free(workload_common_options, &run->common);
	if (run->map != NULL)
		munmap(run->map, run->map_len);
	free(run->ctx.cpus);
	free(run->ctx.priv);
	free(run->settings);
	free(run);
}

/* Resolve --user NAME before the fork (no NSS lookups in the child). */
static int
workload_resolve_user(struct workload_run *run, char **cause)
{
	const char *name = run->common.user;
	struct passwd *pw;
	int n = (int)(sizeof run->groups / sizeof run->groups[0]);

	run->drop = 0;
	if (name == NULL || *name == '\0')
		return (0);
	if (geteuid() != 0)
		return (fail_with(cause, RB_EXIT_ENV, "--user %s: only root "
		    "can run a workload as another user", name));
	errno = 0;
	if ((pw = getpwnam(name)) == NULL)
		return (fail_with(cause, RB_EXIT_INPUT, "--user %s: no such "
		    "user%s%s", name, errno != 0 ? ": " : "",
		    errno != 0 ? strerror(errno) : ""));
	run->uid = pw->pw_uid;
	run->gid = pw->pw_gid;
	if (getgrouplist(name, pw->pw_gid, run->groups, &n) == -1)
		return (fail_with(cause, RB_EXIT_ENV, "--user %s: more than "
		    "%d groups", name, n));
	run->ngroups = n;
	run->drop = 1;
	return (0);
}

/*
 * Fill the context of a run from its settings and check them: node,
 * --user, the workload's own prepare hook, the thread count, the size
 * against what the machine can spare, and the CPU plan.
 */
static int
workload_prepare(struct workload_run *run, char **cause)
{
	struct workload_ctx *ctx = &run->ctx;
	uint64_t available, total, limit;
	char want[32], have[32], kept[32];
	int rc;

	free(ctx->priv);
	free(ctx->cpus);
	memset(ctx, 0, sizeof *ctx);
	ctx->desc = run->desc;
	ctx->common = &run->common;
	ctx->settings = run->settings;
	ctx->page_size = (size_t)sysconf(_SC_PAGESIZE);
	ctx->nthreads = run->common.threads > 0 ? (int)run->common.threads :
	    bind_core_count();
	available = units_mem_available();
	ctx->size = opt_size_resolve(&run->common.size, available);
	ctx->footprint = ctx->size;
	if ((rc = bind_check_node(run->common.node, cause)) != 0 ||
	    (rc = workload_resolve_user(run, cause)) != 0)
		return (rc);
	if (run->desc->prepare != NULL &&
	    (rc = run->desc->prepare(ctx, cause)) != 0)
		return (rc);
	if (ctx->nthreads < 1 || ctx->nthreads > WORKLOAD_MAX_THREADS)
		return (fail_with(cause, RB_EXIT_INPUT, "workload %s: %d "
		    "threads is out of range (1 to %d)", run->desc->name,
		    ctx->nthreads, WORKLOAD_MAX_THREADS));
	total = units_mem_total();
	limit = workload_size_limit(available, total);
	if (ctx->footprint > limit && !run->common.force) {
		units_format_size(want, sizeof want, ctx->footprint);
		units_format_size(have, sizeof have, limit);
		units_format_size(kept, sizeof kept,
		    workload_size_reserve(total));
		return (fail_with(cause, RB_EXIT_INPUT, "workload %s needs "
		    "%s but this machine can spare only %s (MemAvailable "
		    "less %s and 2.5%%); use a smaller --size, or --force",
		    run->desc->name, want, have, kept));
	}
	if (run->common.cpu_bind != WORKLOAD_BIND_NONE) {
		ctx->cpus = xcalloc(ctx->nthreads, sizeof *ctx->cpus);
		if ((rc = bind_plan_cpus(run->common.cpu_bind, ctx->nthreads,
		    ctx->cpus, cause)) != 0)
			return (rc);
	}
	return (0);
}

/* Map the memory the caller and the child share, for ctx->nthreads. */
static int
workload_map_shared(struct workload_run *run, char **cause)
{
	struct workload_ctx *ctx = &run->ctx;
	struct workload_shared *sh;

	run->map_len = WORKLOAD_HEAD_SIZE + (size_t)ctx->nthreads *
	    (sizeof(struct workload_slot) + sizeof(struct workload_record));
	run->map = mmap(NULL, run->map_len, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run->map == MAP_FAILED) {
		run->map = NULL;
		return (fail_with(cause, RB_EXIT_ENV, "mmap of %zu shared "
		    "bytes: %s", run->map_len, strerror(errno)));
	}
	sh = ctx->shared = run->map;
	sh->nthreads = ctx->nthreads;
	sh->duration_ns = run->common.duration_ns;
	pthread_mutex_init(&sh->lock, NULL);
	return (0);
}

/*
 * Check the settings, then fork the worker child and return at once.
 * Errors in the settings (unknown node, oversize without --force, a
 * workload's own checks) return -RB_EXIT_INPUT or -RB_EXIT_ENV with a
 * cause and start nothing.  Call it from a thread that outlives the run:
 * PR_SET_PDEATHSIG fires when the forking thread exits.
 */
int
workload_start(struct workload_run *run, char **cause)
{
	sigset_t stops, saved;
	pid_t parent = getpid();
	int rc;

	if (run->started)
		return (fail_with(cause, RB_EXIT_FAIL, "workload %s: already "
		    "started", run->desc->name));
	if ((rc = workload_prepare(run, cause)) != 0 ||
	    (rc = workload_map_shared(run, cause)) != 0)
		return (rc);
	run->oom_before = workload_oom_kills();

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stops, &saved);
	fflush(NULL);
	run->pid = fork();
	if (run->pid == 0)
		workload_child(run, parent, &stops);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (run->pid == -1)
		return (fail_with(cause, RB_EXIT_ENV, "fork: %s",
		    strerror(errno)));
	/* Also here, so a stop right after the start reaches the group. */
	setpgid(run->pid, run->pid);
	run->started = 1;
	return (0);
}

/*
 * Run the worker child in the cgroup whose cgroup.procs is open as fd
 * (workload-cgroup.c); the caller keeps the descriptor open.
 */
void
workload_set_cgroup(struct workload_run *run, int fd)
{
	run->cgroup_procs = fd;
}

/* The worker child's pid (its process group), or -1 before the start. */
pid_t
workload_pid(const struct workload_run *run)
{
	return (run->started ? run->pid : -1);
}

/* How many threads the run has (known after workload_start). */
int
workload_nthreads(const struct workload_run *run)
{
	return (run->started ? run->ctx.nthreads : 0);
}

/* Has the warm-up ended and the measured interval begun? */
int
workload_measuring(const struct workload_run *run)
{
	return (run->started && __atomic_load_n(&run->ctx.shared->measuring,
	    __ATOMIC_ACQUIRE));
}

/* Progress of thread i (i < 0: all), 0..1; 0 during the warm-up. */
static double
workload_progress_of(const struct workload_run *run, int only)
{
	struct workload_shared *sh;
	uint64_t planned = 0, work = 0, now, start;
	double p;
	int i;

	if (!workload_measuring(run))
		return (0);
	sh = run->ctx.shared;
	if (run->common.duration_ns > 0) {
		now = run->reaped ? run->end_ns : units_now_ns();
		start = __atomic_load_n(&sh->measure_start_ns,
		    __ATOMIC_RELAXED);
		p = now > start ? (double)(now - start) /
		    (double)run->common.duration_ns : 0;
		return (p > 1 ? 1 : p);
	}
	for (i = 0; i < run->ctx.nthreads; i++) {
		if (only >= 0 && i != only)
			continue;
		planned += workload_record_of(sh, run->ctx.nthreads,
		    i)->planned;
		work += __atomic_load_n(&workload_slot_of(sh, i)->work,
		    __ATOMIC_RELAXED);
	}
	if (planned == 0)
		return (0);
	p = (double)work / (double)planned;
	return (p > 1 ? 1 : p);
}

/*
 * The fraction of the planned work done so far, 0..1, read live from the
 * threads' counters (with --duration: the fraction of the time).
 */
double
workload_progress(const struct workload_run *run)
{
	return (workload_progress_of(run, -1));
}

/*
 * The live total of counter k (an index into the descriptor's counters)
 * over every thread, scaled to its unit; 0 before the measured interval
 * and for a k the workload does not have.
 */
double
workload_counter_total(const struct workload_run *run, int k)
{
	const struct workload_counter *c = run->desc->counters;
	struct workload_shared *sh;
	uint64_t n = 0;
	int i;

	if (k < 0 || k >= WORKLOAD_MAX_COUNTERS || !workload_measuring(run))
		return (0);
	for (i = 0; i <= k; i++)
		if (c == NULL || c[i].name == NULL)
			return (0);
	sh = run->ctx.shared;
	for (i = 0; i < sh->nthreads; i++)
		n += __atomic_load_n(&workload_slot_of(sh, i)->count[k],
		    __ATOMIC_RELAXED);
	return ((double)n * run->desc->counters[k].scale);
}

/* The progress of one thread. */
double
workload_thread_progress(const struct workload_run *run, int i)
{
	return (workload_progress_of(run, i));
}

/*
 * Ask the child to stop: raise the flag its threads poll and send it
 * SIGTERM.  It returns at once; workload_wait reaps (and kills the group
 * if the child ignores the stop for 10 s).
 */
void
workload_stop(struct workload_run *run)
{
	if (!run->started || run->reaped)
		return;
	__atomic_store_n(&run->ctx.shared->stop, 1, __ATOMIC_RELAXED);
	kill(run->pid, SIGTERM);
	if (!run->stop_sent) {
		run->stop_sent = 1;
		run->stop_ns = units_now_ns();
	}
}

/* Note that the child was reaped; a crashed child's children go too. */
static void
workload_reaped(struct workload_run *run)
{
	run->reaped = 1;
	run->end_ns = units_now_ns();
	if (WIFSIGNALED(run->wstatus))
		kill(-run->pid, SIGKILL);
}

/* Reap the child if it has ended; 1 when it has. */
int
workload_finished(struct workload_run *run)
{
	pid_t pid;

	if (!run->started)
		return (1);
	if (run->reaped)
		return (1);
	pid = waitpid(run->pid, &run->wstatus, WNOHANG);
	if (pid == run->pid) {
		workload_reaped(run);
		return (1);
	}
	if (pid == -1 && errno == ECHILD) {
		run->reaped = 1;
		run->end_ns = units_now_ns();
		run->wstatus = RB_EXIT_FAIL << 8;
		return (1);
	}
	return (0);
}

/* How the reaped child ended: status, exit code or signal, message. */
static void
workload_outcome(struct workload_run *run, struct workload_result *result)
{
	struct workload_shared *sh = run->ctx.shared;

	if (WIFEXITED(run->wstatus)) {
		result->exit_code = WEXITSTATUS(run->wstatus);
		result->status = result->exit_code == 0 ? WORKLOAD_DONE :
		    result->exit_code == WORKLOAD_EXIT_STOPPED ?
		    WORKLOAD_STOPPED : WORKLOAD_FAILED;
	} else {
		result->exit_code = -1;
		result->signal = WTERMSIG(run->wstatus);
		if (result->signal == SIGKILL && result->oom_kills > 0)
			result->status = WORKLOAD_OOM_KILLED;
		else if ((result->signal == SIGTERM ||
		    result->signal == SIGINT) && run->stop_sent)
			result->status = WORKLOAD_STOPPED;
		else
			result->status = WORKLOAD_KILLED;
	}
	if (sh->message[0] != '\0')
		result->message = xstrndup(sh->message,
		    sizeof sh->message - 1);
	else if (result->status == WORKLOAD_OOM_KILLED)
		result->message = xasprintf("killed by the OOM killer "
		    "(SIGKILL, oom_kill +%" PRIu64 ")", result->oom_kills);
	else if (result->status == WORKLOAD_KILLED)
		result->message = xasprintf("killed by signal %d (%s)",
		    result->signal, strsignal(result->signal));
}

/*
 * Wait for the child to end, kill its process group if it ignored a stop
 * for 10 s, and fill result: how it ended and its metric rows.
 */
int
workload_wait(struct workload_run *run, struct workload_result *result)
{
	struct timespec nap = { 0, 2 * 1000 * 1000 };

	memset(result, 0, sizeof *result);
	if (!run->started) {
		result->status = WORKLOAD_FAILED;
		result->exit_code = RB_EXIT_FAIL;
		result->message = xstrdup("never started");
		return (-RB_EXIT_FAIL);
	}
	while (!workload_finished(run)) {
		if (!run->stop_sent) {
			/* Block: no wake-ups to disturb what is measured. */
			if (waitpid(run->pid, &run->wstatus, 0) == run->pid)
				workload_reaped(run);
			continue;
		}
		if (units_now_ns() - run->stop_ns > WORKLOAD_STOP_GRACE_NS)
			kill(-run->pid, SIGKILL);
		nanosleep(&nap, NULL);
	}
	result->oom_kills = workload_oom_kills() - run->oom_before;
	workload_outcome(run, result);
	result->progress = workload_progress(run);
	if (result->status == WORKLOAD_DONE)
		result->progress = 1;
	workload_build_rows(run, result);
	return (0);
}

/* Free what workload_wait put in a result. */
void
workload_result_free(struct workload_result *result)
{
	free(result->message);
	free(result->rows);
	memset(result, 0, sizeof *result);
}

/* A short name for a status: done, stopped, failed, oom-killed, killed. */
const char *
workload_status_name(enum workload_status status)
{
	switch (status) {
	case WORKLOAD_DONE:
		return ("done");
	case WORKLOAD_STOPPED:
		return ("stopped");
	case WORKLOAD_FAILED:
		return ("failed");
	case WORKLOAD_OOM_KILLED:
		return ("oom-killed");
	case WORKLOAD_KILLED:
		return ("killed");
	}
	return ("unknown");
}

/* The exit code a command should use for a result. */
int
workload_result_exit_code(const struct workload_result *result)
{
	switch (result->status) {
	case WORKLOAD_DONE:
		return (RB_EXIT_OK);
	case WORKLOAD_STOPPED:
		return (RB_EXIT_INTR);
	case WORKLOAD_FAILED:
		return (result->exit_code > 0 ? result->exit_code :
		    RB_EXIT_FAIL);
	default:
		return (RB_EXIT_FAIL);
	}
}
