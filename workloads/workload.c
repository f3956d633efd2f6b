/*
 * Running a workload: its settings, the fork into a worker child, the
 * threads inside it, and the metric rows.
 *
 * The child is its own process group with oom_score_adj 1000 and
 * PR_SET_PDEATHSIG(SIGKILL), so the OOM killer picks it rather than the
 * caller and it never outlives the caller.  SIGINT/SIGTERM/SIGHUP are
 * blocked in all its threads and taken by its main thread with
 * sigtimedwait: it then raises the stop flag, joins the threads, runs the
 * teardown (scratch removed) and exits 130.  The caller reads progress and
 * builds metric rows from the shared mapping, so even a child killed with
 * SIGKILL leaves its counters behind.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bind.h"
#include "log.h"
#include "procfile.h"
#include "vmstat.h"
#include "workload.h"

#define WORKLOAD_STOP_GRACE_NS	(10 * NS_PER_SEC)
#define WORKLOAD_EXIT_STOPPED	130

/* The /proc/vmstat counters whose deltas explain a workload's numbers. */
static const char *const workload_vm_keys[] = {
	"pgfault", "pgmajfault", "pgalloc_dma", "pgalloc_dma32",
	"pgalloc_normal", "pgalloc_movable", "pgfree", "pgscan_kswapd",
	"pgscan_direct", "pgsteal_kswapd", "pgsteal_direct", "compact_stall",
	"compact_success", "compact_fail", "compact_migrate_scanned",
	"compact_free_scanned", "thp_fault_alloc", "thp_fault_fallback",
	"thp_collapse_alloc", "thp_split_page", "workingset_refault_file",
	"pgpgin", "pgpgout", "oom_kill"
};
static const char *const workload_vm_units[] = {
	"faults", "faults", "pages", "pages",
	"pages", "pages", "pages", "pages",
	"pages", "pages", "pages", "events",
	"events", "events", "pages",
	"pages", "events", "events",
	"events", "events", "pages",
	"KiB", "KiB", "events"
};
#define WORKLOAD_NVM (sizeof workload_vm_keys / sizeof workload_vm_keys[0])

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
	((sizeof(struct workload_shared) + 63) & ~(size_t)63)

struct workload_run {
	const struct workload_desc	*desc;
	struct workload_common		 common;
	void				*settings;
	struct workload_ctx		 ctx;
	void				*map;
	size_t				 map_len;
	pid_t				 pid;
	int				 drop;		/* --user: switch ids */
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

static const char *const workload_bind_choices[] = {
	"none", "compact", "scatter", NULL
};
static const char *const workload_thp_choices[] = {
	"default", "always", "never", NULL
};

#define CO(f) offsetof(struct workload_common, f)
const struct opt_def workload_common_options[] = {
	{ .name = "threads", .type = OPT_LONG, .offset = CO(threads),
	  .arg = "N", .def = "0", .max = WORKLOAD_MAX_THREADS,
	  .help = "worker threads (0: one per core hwloc finds)" },
	{ .name = "size", .type = OPT_SIZE_PCT, .offset = CO(size),
	  .arg = "SIZE", .def = "10%", .max = INT64_MAX,
	  .help = "memory to use, all threads together (bytes or N% of "
	  "MemAvailable)" },
	{ .name = "duration", .type = OPT_DURATION, .offset = CO(duration_ns),
	  .arg = "D", .def = "0",
	  .help = "run for this long (0: do a fixed amount of work)" },
	{ .name = "cpu-bind", .type = OPT_ENUM, .offset = CO(cpu_bind),
	  .arg = "MODE", .def = "none", .choices = workload_bind_choices,
	  .help = "bind each thread to a core (hwloc)" },
	{ .name = "node", .type = OPT_LONG, .offset = CO(node), .arg = "N",
	  .def = "-1", .min = -1, .max = 4095,
	  .help = "bind memory to this NUMA node (-1: no binding)" },
	{ .name = "thp", .type = OPT_ENUM, .offset = CO(thp), .arg = "MODE",
	  .def = "default", .choices = workload_thp_choices,
	  .help = "transparent huge pages, by madvise" },
	{ .name = "warmup", .type = OPT_DURATION, .offset = CO(warmup_ns),
	  .arg = "D", .def = "0",
	  .help = "run unmeasured for this long first" },
	{ .name = "force", .type = OPT_FLAG, .offset = CO(force),
	  .help = "run even when the size exceeds what the machine can spare" },
	{ .name = "user", .type = OPT_STRING, .offset = CO(user), .arg = "NAME",
	  .help = "run the workload as this user (as root; the sampler "
	  "keeps root)" },
	{ .name = NULL }
};
#undef CO

/* The hot line of thread i. */
static struct workload_slot *
workload_slot_of(struct workload_shared *sh, int i)
{
	return ((struct workload_slot *)((char *)sh + WORKLOAD_HEAD_SIZE) + i);
}

/* The timing record of thread i. */
static struct workload_record *
workload_record_of(struct workload_shared *sh, int i)
{
	return ((struct workload_record *)(workload_slot_of(sh,
	    sh->nthreads)) + i);
}

/* CPU time of the calling thread in nanoseconds. */
uint64_t
workload_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ((uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec);
}

/* User plus system time of this process and its reaped children. */
static uint64_t
workload_process_cpu_ns(void)
{
	struct rusage self, children;
	uint64_t ns = 0;

	if (getrusage(RUSAGE_SELF, &self) == 0)
		ns += (uint64_t)(self.ru_utime.tv_sec + self.ru_stime.tv_sec) *
		    NS_PER_SEC + (uint64_t)(self.ru_utime.tv_usec +
		    self.ru_stime.tv_usec) * 1000;
	if (getrusage(RUSAGE_CHILDREN, &children) == 0)
		ns += (uint64_t)(children.ru_utime.tv_sec +
		    children.ru_stime.tv_sec) * NS_PER_SEC +
		    (uint64_t)(children.ru_utime.tv_usec +
		    children.ru_stime.tv_usec) * 1000;
	return (ns);
}

/* Read the vmstat counters into values; 0 on success. */
static int
workload_read_vm(uint64_t *values)
{
	struct procfile pf;
	char *cause = NULL;
	int rc;

	procfile_init(&pf);
	rc = vmstat_read(&pf, "/proc", workload_vm_keys, WORKLOAD_NVM, values,
	    &cause);
	procfile_free(&pf);
	free(cause);
	return (rc);
}

/* The oom_kill counter, or 0 when the kernel has none. */
static uint64_t
workload_oom_kills(void)
{
	uint64_t v[WORKLOAD_NVM];

	if (workload_read_vm(v) != 0 || v[WORKLOAD_NVM - 1] == VMSTAT_MISSING)
		return (0);
	return (v[WORKLOAD_NVM - 1]);
}

/* What --size may reach without --force: MemAvailable less 1 GiB + 2.5%. */
uint64_t
workload_size_limit(uint64_t available)
{
	uint64_t margin = (1ULL << 30) + available / 40;

	return (available > margin ? available - margin : 0);
}

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

/* The common settings of a run, to read or change before the start. */
struct workload_common *
workload_common_settings(struct workload_run *run)
{
	return (&run->common);
}

/* The workload's own settings struct. */
void *
workload_settings(struct workload_run *run)
{
	return (run->settings);
}

/*
 * Set one option by its long name, from the workload's table or the common
 * one (suite files: key=value).  Unknown keys and bad values give
 * -RB_EXIT_INPUT with a cause.
 */
int
workload_set_option(struct workload_run *run, const char *key,
    const char *value, char **cause)
{
	const struct opt_def *def = NULL;

	if (run->desc->options != NULL)
		def = opt_find(run->desc->options, key);
	if (def != NULL)
		return (opt_set_value(def, run->settings, value, cause));
	if ((def = opt_find(workload_common_options, key)) != NULL)
		return (opt_set_value(def, &run->common, value, cause));
	return (fail_with(cause, RB_EXIT_INPUT,
	    "workload %s has no option '%s' (see regionbench workload %s "
	    "--help)", run->desc->name, key, run->desc->name));
}

/*
 * Parse a command line against the workload's table, the common table and
 * optionally the caller's own; returns what opt_parse returns.
 */
int
workload_parse_args(struct workload_run *run, int argc, char **argv,
    const struct opt_set *extra, int *first_arg, char **cause)
{
	static const struct opt_def none[] = { { .name = NULL } };
	struct opt_set sets[3];
	int n = 0;

	sets[n].defs = run->desc->options != NULL ? run->desc->options : none;
	sets[n++].settings = run->settings;
	sets[n].defs = workload_common_options;
	sets[n++].settings = &run->common;
	if (extra != NULL)
		sets[n++] = *extra;
	return (opt_parse(sets, n, argc, argv, first_arg, cause));
}

/* Print a workload's own options, then the common ones. */
void
workload_print_help(FILE *f, const struct workload_desc *desc)
{
	if (desc->options != NULL && desc->options[0].name != NULL) {
		fprintf(f, "options of %s:\n", desc->name);
		opt_print_help(f, desc->options);
		fputc('\n', f);
	}
	fprintf(f, "options of every workload:\n");
	opt_print_help(f, workload_common_options);
}

/* Set the progress units thread will do (from the setup hook). */
void
workload_plan(struct workload_ctx *ctx, int thread, uint64_t work)
{
	workload_record_of(ctx->shared, thread)->planned = work;
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

	for (i = 0; i < ctx->shared->nthreads; i++)
		if (!__atomic_load_n(&workload_record_of(ctx->shared,
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

	for (i = 0; i < sh->nthreads; i++) {
		memset(workload_slot_of(sh, i), 0,
		    sizeof(struct workload_slot));
		rec = workload_record_of(sh, i);
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

/* The worker child: setup, threads, signal handling, teardown, exit. */
static void __attribute__((noreturn))
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
	threads = xcalloc(ctx->nthreads, sizeof *threads);
	tids = xcalloc(ctx->nthreads, sizeof *tids);
	for (i = 0; i < ctx->nthreads; i++) {
		threads[i].ctx = ctx;
		threads[i].index = i;
		threads[i].slot = workload_slot_of(sh, i);
		threads[i].record = workload_record_of(sh, i);
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
	struct workload_ctx *ctx = &run->ctx;
	struct workload_shared *sh;
	uint64_t available, limit;
	char want[32], have[32];
	sigset_t stops, saved;
	pid_t parent = getpid();
	int rc;

	if (run->started)
		return (fail_with(cause, RB_EXIT_FAIL, "workload %s: already "
		    "started", run->desc->name));
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
	limit = workload_size_limit(available);
	if (ctx->footprint > limit && !run->common.force) {
		units_format_size(want, sizeof want, ctx->footprint);
		units_format_size(have, sizeof have, limit);
		return (fail_with(cause, RB_EXIT_INPUT, "workload %s needs "
		    "%s but this machine can spare only %s (MemAvailable "
		    "less 1 GiB and 2.5%%); use a smaller --size, or --force",
		    run->desc->name, want, have));
	}
	if (run->common.cpu_bind != WORKLOAD_BIND_NONE) {
		ctx->cpus = xcalloc(ctx->nthreads, sizeof *ctx->cpus);
		if ((rc = bind_plan_cpus(run->common.cpu_bind, ctx->nthreads,
		    ctx->cpus, cause)) != 0)
			return (rc);
	}
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
	uint64_t planned = 0, work = 0, now;
	double p;
	int i;

	if (!workload_measuring(run))
		return (0);
	sh = run->ctx.shared;
	if (sh->duration_ns > 0) {
		now = run->reaped ? run->end_ns : units_now_ns();
		p = (double)(now - sh->measure_start_ns) /
		    (double)sh->duration_ns;
		return (p > 1 ? 1 : p < 0 ? 0 : p);
	}
	for (i = 0; i < sh->nthreads; i++) {
		if (only >= 0 && i != only)
			continue;
		planned += workload_record_of(sh, i)->planned;
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

/* Append one row. */
static void
workload_row_add(struct workload_result *res, size_t *cap, int thread,
    const char *metric, const char *suffix, double value, const char *unit,
    const char *unit_suffix)
{
	struct workload_row *row;

	if (res->nrows == *cap) {
		*cap = *cap == 0 ? 64 : *cap * 2;
		res->rows = xreallocarray(res->rows, *cap, sizeof *res->rows);
	}
	row = &res->rows[res->nrows++];
	row->thread = thread;
	snprintf(row->metric, sizeof row->metric, "%s%s", metric, suffix);
	snprintf(row->unit, sizeof row->unit, "%s%s", unit, unit_suffix);
	row->value = value;
}

/* Add a counter's amount and its rates over wall_ns and cpu_ns. */
static void
workload_rows_counter(struct workload_result *res, size_t *cap, int thread,
    const struct workload_counter *c, double amount, double wall_ns,
    double cpu_ns)
{
	workload_row_add(res, cap, thread, c->name, "", amount, c->unit, "");
	if (!(c->flags & WORKLOAD_RATE))
		return;
	if (wall_ns > 0)
		workload_row_add(res, cap, thread, c->name, "_per_s",
		    amount * 1e9 / wall_ns, c->unit, "/s");
	if (cpu_ns > 0)
		workload_row_add(res, cap, thread, c->name, "_per_cpu_s",
		    amount * 1e9 / cpu_ns, c->unit, "/cpu-s");
}

/* Build the metric rows from the shared mapping. */
static void
workload_build_rows(struct workload_run *run, struct workload_result *res)
{
	const struct workload_counter *c;
	struct workload_shared *sh = run->ctx.shared;
	struct workload_record *rec;
	struct workload_slot *slot;
	double amount, total[WORKLOAD_MAX_COUNTERS] = { 0 };
	double trate[WORKLOAD_MAX_COUNTERS] = { 0 };
	double tcpu[WORKLOAD_MAX_COUNTERS] = { 0 };
	double wall, cpu, sum_cpu = 0;
	uint64_t first = UINT64_MAX, last = 0, end, work = 0, planned = 0;
	size_t cap = 0, v;
	int i, k, all_ended = 1;

	if (!sh->measuring)
		return;
	for (i = 0; i < sh->nthreads; i++) {
		slot = workload_slot_of(sh, i);
		rec = workload_record_of(sh, i);
		end = rec->ended ? rec->end_ns : run->end_ns;
		all_ended &= rec->ended;
		wall = end > rec->start_ns ? (double)(end - rec->start_ns) : 0;
		cpu = rec->ended ? (double)rec->cpu_ns : 0;
		sum_cpu += cpu;
		if (rec->start_ns < first)
			first = rec->start_ns;
		if (end > last)
			last = end;
		work += slot->work;
		planned += rec->planned;
		for (k = 0, c = run->desc->counters; c != NULL &&
		    c->name != NULL && k < WORKLOAD_MAX_COUNTERS; c++, k++) {
			amount = (double)slot->count[k] * c->scale;
			total[k] += amount;
			if (c->timer > 0) {
				wall = (double)rec->timer_ns[c->timer - 1];
				cpu = (double)rec->timer_cpu_ns[c->timer - 1];
				if (wall > 0)
					trate[k] += amount * 1e9 / wall;
				tcpu[k] += cpu;
			} else {
				wall = end > rec->start_ns ?
				    (double)(end - rec->start_ns) : 0;
				cpu = rec->ended ? (double)rec->cpu_ns : 0;
			}
			workload_rows_counter(res, &cap, i, c, amount, wall,
			    cpu);
		}
		wall = end > rec->start_ns ? (double)(end - rec->start_ns) : 0;
		workload_row_add(res, &cap, i, "wall", "_s", wall / 1e9, "s",
		    "");
		if (rec->ended)
			workload_row_add(res, &cap, i, "cpu", "_s",
			    (double)rec->cpu_ns / 1e9, "s", "");
	}
	wall = last > first ? (double)(last - first) : 0;
	cpu = sh->cpu_after_ns > sh->cpu_before_ns ?
	    (double)(sh->cpu_after_ns - sh->cpu_before_ns) :
	    all_ended ? sum_cpu : 0;
	for (k = 0, c = run->desc->counters; c != NULL && c->name != NULL &&
	    k < WORKLOAD_MAX_COUNTERS; c++, k++) {
		if (c->timer > 0) {
			workload_row_add(res, &cap, -1, c->name, "", total[k],
			    c->unit, "");
			workload_row_add(res, &cap, -1, c->name, "_per_s",
			    trate[k], c->unit, "/s");
			if (tcpu[k] > 0)
				workload_row_add(res, &cap, -1, c->name,
				    "_per_cpu_s", total[k] * 1e9 / tcpu[k],
				    c->unit, "/cpu-s");
		} else
			workload_rows_counter(res, &cap, -1, c, total[k], wall,
			    cpu);
	}
	workload_row_add(res, &cap, -1, "wall", "_s", wall / 1e9, "s", "");
	if (cpu > 0)
		workload_row_add(res, &cap, -1, "cpu", "_s", cpu / 1e9, "s",
		    "");
	workload_row_add(res, &cap, -1, "threads", "", sh->nthreads,
	    "threads", "");
	workload_row_add(res, &cap, -1, "work_done", "", (double)work,
	    "units", "");
	if (planned > 0 && sh->duration_ns == 0)
		workload_row_add(res, &cap, -1, "work_planned", "",
		    (double)planned, "units", "");
	workload_row_add(res, &cap, -1, "progress", "", res->progress,
	    "fraction", "");
	if ((sh->vm_valid & 3) == 3) {
		for (v = 0; v < WORKLOAD_NVM; v++) {
			if (sh->vm_before[v] == VMSTAT_MISSING ||
			    sh->vm_after[v] == VMSTAT_MISSING)
				continue;
			workload_row_add(res, &cap, -1, "vmstat_",
			    workload_vm_keys[v], (double)(sh->vm_after[v] -
			    sh->vm_before[v]), workload_vm_units[v], "");
		}
	}
}

/*
 * Wait for the child to end, kill its process group if it ignored a stop
 * for 10 s, and fill result: how it ended and its metric rows.
 */
int
workload_wait(struct workload_run *run, struct workload_result *result)
{
	struct timespec nap = { 0, 2 * 1000 * 1000 };
	struct workload_shared *sh = run->ctx.shared;
	size_t cap;

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
		result->message = xstrdup(sh->message);
	else if (result->status == WORKLOAD_OOM_KILLED)
		result->message = xasprintf("killed by the OOM killer "
		    "(SIGKILL, oom_kill +%" PRIu64 ")", result->oom_kills);
	else if (result->status == WORKLOAD_KILLED)
		result->message = xasprintf("killed by signal %d (%s)",
		    result->signal, strsignal(result->signal));
	result->progress = workload_progress(run);
	if (result->status == WORKLOAD_DONE)
		result->progress = 1;
	workload_build_rows(run, result);
	cap = result->nrows;
	workload_row_add(result, &cap, -1, "exit_code", "",
	    result->exit_code, "code", "");
	workload_row_add(result, &cap, -1, "signal", "", result->signal,
	    "signal", "");
	workload_row_add(result, &cap, -1, "oom_kills", "",
	    (double)result->oom_kills, "events", "");
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
