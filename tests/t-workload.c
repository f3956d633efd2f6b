/*
 * The workload API as the runner uses it: options by key, start in a
 * forked child, live progress, stop, wait, status and metric rows.  Every
 * workload runs for real, small (<= 128 MiB): the checks look at the
 * effect (resident pages, reaped children, evicted files, no processes
 * left), not only at the numbers it reports.
 */

/* Each of the two programs uses only some of the functions below. */
#define T_PART __attribute__((unused))
#include "config.h"

#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "tap.h"
#include "workload.h"

/* The value of a metric row, or -1 when there is none. */
static double
row_value(const struct workload_result *res, int thread, const char *metric)
{
	size_t i;

	for (i = 0; i < res->nrows; i++) {
		if (res->rows[i].thread == thread &&
		    strcmp(res->rows[i].metric, metric) == 0)
			return (res->rows[i].value);
	}
	return (-1);
}

/* A run of name with key=value options; dies on a bad option. */
static struct workload_run *
new_run(const char *name, const char *const *kv)
{
	struct workload_run *run = workload_run_new(workload_find(name));
	char *cause = NULL;

	for (; kv != NULL && kv[0] != NULL; kv += 2) {
		if (workload_set_option(run, kv[0], kv[1], &cause) != 0)
			die(1, "%s=%s: %s", kv[0], kv[1], cause);
	}
	return (run);
}

/* Wait for a started run and check it ended as want. */
static int
wait_for(struct workload_run *run, struct workload_result *res,
    enum workload_status want, const char *what)
{
	workload_wait(run, res);
	if (!tap_ok(res->status == want, "%s: ends %s", what,
	    workload_status_name(want)))
		tap_diag("status %s, exit %d, signal %d: %s",
		    workload_status_name(res->status), res->exit_code,
		    res->signal, res->message ? res->message : "");
	return (res->status == want);
}

/* Start, wait and check it ended as want; the result is the caller's. */
static int
run_to_end(struct workload_run *run, struct workload_result *res,
    enum workload_status want, const char *what)
{
	char *cause = NULL;

	if (workload_start(run, &cause) != 0) {
		tap_ok(0, "%s: starts", what);
		tap_diag("%s", cause);
		free(cause);
		memset(res, 0, sizeof *res);
		return (0);
	}
	return (wait_for(run, res, want, what));
}

/* Processes in process group pgid, found by scanning /proc. */
static int T_PART
count_group(pid_t pgid)
{
	char path[300], buf[512], *p;
	struct dirent *de;
	int n = 0;
	FILE *f;
	DIR *d;

	if ((d = opendir("/proc")) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fgets(buf, sizeof buf, f) != NULL &&
		    (p = strrchr(buf, ')')) != NULL) {
			int ppid, pgrp;
			char state;

			if (sscanf(p + 2, "%c %d %d", &state, &ppid, &pgrp) ==
			    3 && pgrp == pgid && state != 'Z')
				n++;
		}
		fclose(f);
	}
	closedir(d);
	return (n);
}

/* VmRSS of pid in bytes, or 0. */
static uint64_t T_PART
rss_of(pid_t pid)
{
	char path[64], line[256];
	unsigned long long kb = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (0);
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "VmRSS: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (kb * 1024);
}

/* Sleep for ms milliseconds. */
static void T_PART
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The run has measured time (progress is its time share). */
static int T_PART
has_progress(struct workload_run *run)
{
	return (workload_progress(run) > 0);
}

/* A counter of the run has moved (a fork, a page, a byte read). */
static int T_PART
has_work(struct workload_run *run)
{
	int k;

	for (k = 0; k < WORKLOAD_MAX_COUNTERS; k++)
		if (workload_counter_total(run, k) > 0)
			return (1);
	return (0);
}

/*
 * Wait until cond holds (before interrupting that state), polling every
 * 5 ms for at most 60 s: generous for loaded machines and sanitizers.
 */
static int T_PART
wait_until(struct workload_run *run, int (*cond)(struct workload_run *),
    const char *what)
{
	int i;

	for (i = 0; i < 12000 && !workload_finished(run); i++) {
		if (cond(run))
			return (1);
		sleep_ms(5);
	}
	if (cond(run))
		return (1);
	tap_diag("gave up waiting for %s", what);
	return (0);
}

/* Registry and option errors. */
static void T_PART
test_options(void)
{
	const struct workload_desc *const *d;
	struct workload_run *run;
	char *cause = NULL;
	int n = 0, rc;

	for (d = workload_all(); *d != NULL; d++)
		n++;
	tap_eq_u64(n, 4, "the registry has four workloads");
	tap_ok(workload_find("pagetest") != NULL &&
	    workload_find("fork-heavy") != NULL &&
	    workload_find("page-cache-churn") != NULL &&
	    workload_find("frag-churn") != NULL, "each is found by name");
	tap_ok(workload_find("nope") == NULL, "an unknown name is NULL");

	run = workload_run_new(workload_find("pagetest"));
	rc = workload_set_option(run, "no-such", "1", &cause);
	tap_ok(rc == -RB_EXIT_INPUT && cause != NULL &&
	    strstr(cause, "no option 'no-such'") != NULL,
	    "an unknown key is an input error naming it");
	free(cause);
	cause = NULL;
	rc = workload_set_option(run, "size", "12Q", &cause);
	tap_ok(rc == -RB_EXIT_INPUT, "a bad unit is an input error");
	free(cause);
	cause = NULL;
	rc = workload_set_option(run, "touch", "sideways", &cause);
	tap_ok(rc == -RB_EXIT_INPUT, "a bad choice is an input error");
	free(cause);
	cause = NULL;
	tap_ok(workload_set_option(run, "touch", "random", &cause) == 0 &&
	    workload_set_option(run, "threads", "2", &cause) == 0 &&
	    workload_common_settings(run)->threads == 2,
	    "workload and common keys both set");

	workload_set_option(run, "size", "100%", &cause);
	rc = workload_start(run, &cause);
	tap_ok(rc == -RB_EXIT_INPUT && cause != NULL &&
	    strstr(cause, "--force") != NULL,
	    "more than MemAvailable is refused, --force suggested");
	tap_ok(workload_pid(run) == -1, "and nothing was started");
	free(cause);
	cause = NULL;
	workload_run_free(run);
	tap_ok(workload_size_reserve(24ULL << 30) == 1ULL << 30 &&
	    workload_size_reserve(8ULL << 30) == 1ULL << 30 &&
	    workload_size_reserve(0) == 1ULL << 30,
	    "the size guard keeps 1 GiB from 8 GiB up, or when MemTotal is "
	    "unknown");
	tap_ok(workload_size_reserve(1ULL << 30) == 128ULL << 20 &&
	    workload_size_limit(800ULL << 20, 1ULL << 30) ==
	    (800ULL << 20) - (128ULL << 20) - (20ULL << 20),
	    "a 1 GiB guest keeps an eighth, and 2.5 %% of MemAvailable");
	tap_ok(workload_size_limit(1ULL << 30, 24ULL << 30) == 0,
	    "no more than MemAvailable is kept back");

	run = new_run("pagetest", (const char *[]){ "size", "4M", "node",
	    "999", NULL });
	rc = workload_start(run, &cause);
	tap_ok(rc == -RB_EXIT_INPUT && cause != NULL &&
	    strstr(cause, "no such memory node") != NULL,
	    "a node that doesn't exist is an input error");
	free(cause);
	workload_run_free(run);
}

/* pagetest: pages resident, progress live, hold, stop, SIGKILL. */
static void T_PART
test_pagetest(void)
{
	struct workload_result res;
	struct workload_run *run;
	char *cause = NULL;
	double p, mid = -1, last = 0, elapsed;
	int monotonic = 1, alive;
	uint64_t t0;
	uint64_t rss, want = 64ULL << 20;

	run = new_run("pagetest", (const char *[]){ "size", "64M", "threads",
	    "2", "touch", "random", "hold", "2s", "cpu-bind", "compact",
	    "thp", "never", NULL });
	t0 = units_now_ns();
	if (workload_start(run, &cause) != 0)
		die(1, "pagetest: %s", cause);
	while ((p = workload_progress(run)) < 1 && !workload_finished(run)) {
		if (p > 0 && p < 1 && mid < 0)
			mid = p;
		if (p < last)
			monotonic = 0;
		last = p;
		sleep_ms(1);
	}
	tap_ok(monotonic, "progress never goes backwards");
	tap_ok(mid > 0 || workload_progress(run) == 1,
	    "progress is read while the pages are touched (saw %.2f)", mid);
	sleep_ms(50);
	alive = !workload_finished(run);
	rss = rss_of(workload_pid(run));
	tap_ok(alive && workload_progress(run) == 1,
	    "progress 1 while holding the memory");
	if (!tap_ok(rss >= want, "the child's RSS holds the 64 MiB"))
		tap_diag("VmRSS %llu", (unsigned long long)rss);
	if (wait_for(run, &res, WORKLOAD_DONE, "pagetest")) {
		tap_eq_u64(row_value(&res, -1, "pages"), want / 4096,
		    "pages total = size / page size");
		tap_eq_u64(row_value(&res, -1, "resident"), want / 4096,
		    "mincore found every page resident");
		tap_ok(row_value(&res, 0, "pages_per_s") > 0 &&
		    row_value(&res, 1, "pages_per_cpu_s") > 0 &&
		    row_value(&res, -1, "pages_per_s") > 0,
		    "rates per thread and total, wall and CPU");
		tap_ok(row_value(&res, -1, "vmstat_pgfault") >= want / 4096,
		    "the pgfault delta covers the pages");
		elapsed = (double)(units_now_ns() - t0) / 1e9;
		if (!tap_ok(row_value(&res, -1, "wall_s") > 0 &&
		    row_value(&res, -1, "wall_s") < elapsed - 1.5,
		    "the hold is not in the measured time"))
			tap_diag("wall_s %g, elapsed %g", row_value(&res, -1,
			    "wall_s"), elapsed);
	}
	workload_result_free(&res);
	tap_eq_u64(count_group(workload_pid(run)), 0, "no process left");
	workload_run_free(run);

	/* Stop in the middle of a timed run. */
	run = new_run("pagetest", (const char *[]){ "size", "32M", "threads",
	    "1", "duration", "20s", "warmup", "50ms", NULL });
	if (workload_start(run, &cause) != 0)
		die(1, "pagetest: %s", cause);
	wait_until(run, has_progress, "pagetest's measured time");
	p = workload_progress(run);
	tap_ok(p > 0 && p < 0.5, "a timed run's progress is its time share");
	workload_stop(run);
	if (wait_for(run, &res, WORKLOAD_STOPPED, "pagetest stopped")) {
		tap_eq_u64(res.exit_code, 130, "a stopped child exits 130");
		tap_ok(row_value(&res, -1, "pages") > 0,
		    "and its rows say what it did");
		tap_ok(row_value(&res, -1, "wall_s") < 5,
		    "the stop ended it early");
	}
	workload_result_free(&res);
	workload_run_free(run);

	/* A child killed by a signal is reported, its counters kept. */
	run = new_run("pagetest", (const char *[]){ "size", "16M", "threads",
	    "1", "hold", "10s", NULL });
	if (workload_start(run, &cause) != 0)
		die(1, "pagetest: %s", cause);
	while (workload_progress(run) < 1 && !workload_finished(run))
		sleep_ms(2);
	kill(workload_pid(run), SIGKILL);
	if (wait_for(run, &res, WORKLOAD_KILLED, "pagetest SIGKILLed")) {
		tap_eq_u64(res.signal, SIGKILL, "the signal is reported");
		tap_ok(res.message != NULL && strstr(res.message, "signal 9"),
		    "with a message");
		tap_eq_u64(row_value(&res, -1, "pages"), 4096,
		    "the counters survive the kill");
		tap_eq_u64(workload_result_exit_code(&res), 1,
		    "a killed workload is a failure");
	}
	workload_result_free(&res);
	workload_run_free(run);
}

/* fork-heavy: children forked, COW written, reaped, none left. */
static void T_PART
test_fork_heavy(void)
{
	struct workload_result res;
	struct workload_run *run;
	char *cause = NULL;
	pid_t pgid;

	run = new_run("fork-heavy", (const char *[]){ "size", "16M",
	    "forkers", "2", "forks", "40", "cow-pct", "5", NULL });
	if (run_to_end(run, &res, WORKLOAD_DONE, "fork-heavy")) {
		tap_eq_u64(row_value(&res, -1, "forks"), 40, "40 forks");
		tap_eq_u64(row_value(&res, -1, "failed_children"), 0,
		    "every child exited 0");
		tap_eq_u64(row_value(&res, -1, "cow_pages"), 40 * 204,
		    "each child wrote 5%% of 4096 pages");
		tap_ok(row_value(&res, -1, "forks_per_s") > 0,
		    "forks/s reported");
	}
	tap_eq_u64(count_group(workload_pid(run)), 0, "no process left");
	workload_result_free(&res);
	workload_run_free(run);

	run = new_run("fork-heavy", (const char *[]){ "size", "8M",
	    "forkers", "2", "duration", "20s", "exec", "yes", NULL });
	if (workload_start(run, &cause) != 0)
		die(1, "fork-heavy: %s", cause);
	pgid = workload_pid(run);
	wait_until(run, has_work, "fork-heavy's first fork");
	workload_stop(run);
	if (wait_for(run, &res, WORKLOAD_STOPPED, "fork-heavy --exec "
	    "stopped"))
		tap_ok(row_value(&res, -1, "forks") > 0 &&
		    row_value(&res, -1, "failed_children") == 0,
		    "exec children ran and were reaped");
	tap_eq_u64(count_group(pgid), 0, "no process left after the stop");
	workload_result_free(&res);
	workload_run_free(run);
}

/* Is dir empty? */
static int T_PART
dir_empty(const char *dir)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return (n == 0);
}

/* page-cache-churn: written, read, evicted, scratch gone; tmpfs refused. */
static void T_PART
test_page_cache_churn(void)
{
	struct workload_result res;
	struct workload_run *run;
	struct statfs sfs;
	char dir[] = "/var/tmp/rbtest.XXXXXX", *cause = NULL;
	int rc;

	if (mkdtemp(dir) == NULL) {
		tap_ok(0, "mkdtemp /var/tmp: %s", strerror(errno));
		return;
	}
	run = new_run("page-cache-churn", (const char *[]){ "size", "32M",
	    "threads", "2", "passes", "2", "dir", dir, NULL });
	if (run_to_end(run, &res, WORKLOAD_DONE, "page-cache-churn")) {
		tap_near(row_value(&res, -1, "write"), 33.554432, 1e-6,
		    "32 MiB written");
		tap_near(row_value(&res, -1, "read"), 2 * 33.554432, 1e-6,
		    "read twice (two passes)");
		tap_ok(row_value(&res, -1, "evicted") >= 2 * 8192 * 0.9,
		    "mincore saw the pages evicted");
		tap_ok(row_value(&res, -1, "still_cached") <= 8192 * 0.05,
		    "next to nothing stays cached after an eviction");
		tap_ok(row_value(&res, -1, "read_evict_per_s") > 0,
		    "read+evict MB/s reported");
	}
	workload_result_free(&res);
	workload_run_free(run);
	tap_ok(dir_empty(dir), "no scratch left in --dir");

	run = new_run("page-cache-churn", (const char *[]){ "size", "64M",
	    "threads", "1", "duration", "20s", "dir", dir, "sparse", "yes",
	    NULL });
	if (workload_start(run, &cause) != 0)
		die(1, "page-cache-churn: %s", cause);
	wait_until(run, has_work, "page-cache-churn's first read");
	workload_stop(run);
	wait_for(run, &res, WORKLOAD_STOPPED, "page-cache-churn stopped");
	tap_ok(dir_empty(dir), "no scratch left after a stop");
	workload_result_free(&res);
	workload_run_free(run);
	rmdir(dir);

	if (statfs("/dev/shm", &sfs) != 0 || sfs.f_type != TMPFS_MAGIC) {
		tap_ok(1, "# SKIP no tmpfs at /dev/shm");
		return;
	}
	run = new_run("page-cache-churn", (const char *[]){ "size", "8M",
	    "threads", "1", "dir", "/dev/shm", NULL });
	rc = workload_start(run, &cause);
	tap_ok(rc == -RB_EXIT_INPUT && strstr(cause, "tmpfs") != NULL,
	    "tmpfs is refused");
	free(cause);
	workload_run_free(run);
}

/* frag-churn: ops done, live bytes within the share, long-lived kept. */
static void T_PART
test_frag_churn(void)
{
	struct workload_result res;
	struct workload_run *run;

	run = new_run("frag-churn", (const char *[]){ "size", "32M", "threads",
	    "2", "ops", "600", "keep-pct", "25", NULL });
	if (run_to_end(run, &res, WORKLOAD_DONE, "frag-churn")) {
		tap_ok(row_value(&res, -1, "ops") >= 600, "600 ops or more");
		tap_ok(row_value(&res, -1, "frees") > 0,
		    "blocks were freed to make room");
		tap_ok(row_value(&res, -1, "live") > 0 &&
		    row_value(&res, -1, "live") <= 33.554432,
		    "live bytes stay within --size");
		tap_ok(row_value(&res, -1, "long_lived") <= 33.554432 * 0.25 +
		    1e-9, "long-lived bytes within --keep-pct");
	}
	workload_result_free(&res);
	workload_run_free(run);
}

/*
 * Built twice so each program stays under 2 s: t-workload (the API and
 * pagetest) and, with T_WORKLOAD_OTHERS, t-workload-others (the rest).
 */
/*
 * A child that scribbles over the shared block (as a --user child could:
 * it is mapped writable in both processes): the thread count, the
 * duration, the message and every counter become 0x7f bytes, then the
 * child exits.  The parent reads that block as untrusted input: progress
 * and results stay bounded and the parent does not crash.
 */
static int
hostile_run(struct workload_thread *t)
{
	/* The mapping is at least one page; the header starts it. */
	memset(t->ctx->shared, 0x7f, 4096);
	_exit(0);
}

static const struct workload_counter hostile_counters[] = {
	{ .name = NULL }
};

static const struct workload_desc hostile_desc = {
	.name = "hostile",
	.summary = "scribbles over the shared block",
	.counters = hostile_counters,
	.run = hostile_run,
};

static void T_PART
test_hostile_child(void)
{
	struct workload_result res;
	struct workload_run *run;
	char *cause = NULL;
	double p;
	int i;

	run = workload_run_new(&hostile_desc);
	if (workload_start(run, &cause) != 0) {
		tap_ok(0, "hostile child: starts (%s)", cause);
		free(cause);
		workload_run_free(run);
		return;
	}
	/* Progress is read while the child may be writing. */
	for (i = 0; i < 200 && !workload_finished(run); i++) {
		p = workload_progress(run);
		if (!(p >= 0 && p <= 1))
			break;
		usleep(1000);
	}
	p = workload_progress(run);
	tap_ok(p >= 0 && p <= 1, "hostile child: progress stays in 0..1 "
	    "(%g)", p);
	workload_wait(run, &res);
	tap_ok(res.nrows < 10000, "hostile child: a bounded number of result "
	    "rows (%zu)", (size_t)res.nrows);
	tap_ok(res.message == NULL || strlen(res.message) < 512,
	    "hostile child: the message stays within its field");
	tap_ok(row_value(&res, -1, "threads") == workload_nthreads(run),
	    "hostile child: the thread count is the parent's (%g, want %d)",
	    row_value(&res, -1, "threads"), workload_nthreads(run));
	workload_result_free(&res);
	workload_run_free(run);
}

int
main(void)
{
	log_set_program("t-workload");
#ifndef T_WORKLOAD_OTHERS
	test_options();
	test_pagetest();
	test_hostile_child();
#else
	test_fork_heavy();
	test_page_cache_churn();
	test_frag_churn();
#endif
	return (tap_done());
}
