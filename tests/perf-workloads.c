/*
 * make perf: each workload against the smallest loop that does the same
 * work, and with two threads against one, measured in this process,
 * interleaved (bare, workload, bare, ...) so drift and the host's memory
 * return hit both alike; ratios are medians over the rounds.  Memory freed
 * here goes back to the host after a few seconds idle, so the rounds run
 * back to back and start after a warm-up touch.  Prints key=value lines;
 * a key with a target is followed by "(target ...)" and, when the figure
 * misses it, "FAIL".  Every workload of the registry has a
 * NAME_2t_scaling key (pages, forks, MB or ops per second with two threads
 * over one); one without a measurement here prints "missing FAIL".
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "perf.h"
#include "units.h"
#include "vmstat.h"
#include "workload.h"

#ifdef SYS_clone3
#include <linux/sched.h>
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

#define ROUNDS		7
#define GIB		(1ULL << 30)
#define STEP		(2UL << 20)	/* pagetest's prefault step */

/*
 * Targets of NAME_2t_scaling on an idle 2-core machine; workloads.md says
 * why each is what it is.
 */
#define PAGETEST_2T_TARGET		1.7
#define FORK_HEAVY_2T_TARGET		1.2
#define PAGE_CACHE_CHURN_2T_TARGET	1.5
#define FRAG_CHURN_2T_TARGET		1.4

/* The NAME_2t_scaling keys printed so far, by registry index. */
static int scaling_done[64];
static int below_target;

/* Print key=value and, with a target, whether the value meets it. */
static void
print_target(const char *key, double v, double min)
{
	printf("%s=%.3f (target >= %g)%s\n", key, v, min, v < min ? " FAIL" :
	    "");
	if (v < min)
		below_target++;
	fflush(stdout);
}

/* NAME_2t_scaling for workload name ("fork-heavy": fork_heavy_...). */
static void
scaling_key(char *key, size_t size, const char *name)
{
	char *c;

	snprintf(key, size, "%s_2t_scaling", name);
	for (c = key; *c != '\0'; c++)
		if (*c == '-')
			*c = '_';
}

/*
 * Print workload name's NAME_2t_scaling key against its target; with
 * fewer than two CPUs there is nothing to scale to.
 */
static void
print_scaling(const char *name, double v, double min)
{
	const struct workload_desc *const *d = workload_all();
	char key[96];
	int i;

	scaling_key(key, sizeof key, name);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		printf("%s=skipped (one CPU)\n", key);
	else
		print_target(key, v, min);
	for (i = 0; d[i] != NULL && i < 64; i++)
		if (strcmp(d[i]->name, name) == 0)
			scaling_done[i] = 1;
}

/*
 * The 1-minute load average, for the reader of the figures; a busy
 * machine is said to be so, since two threads can't scale on it.
 */
static void
print_load(const char *section)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double l = -1;
	FILE *f;

	if ((f = fopen("/proc/loadavg", "r")) != NULL) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	printf("# %s: load average %.2f on %ld CPUs%s\n", section, l, cpus,
	    l > (double)cpus / 2 ? " (busy: 2-thread figures are low)" : "");
}

/* Run a workload with key=value options; its total row for metric. */
static double
workload_metric(const char *name, const char *const *kv, const char *metric)
{
	struct workload_run *run = workload_run_new(workload_find(name));
	struct workload_result res;
	double v = -1;
	char *cause = NULL;
	size_t i;

	for (; kv[0] != NULL; kv += 2)
		if (workload_set_option(run, kv[0], kv[1], &cause) != 0)
			die(1, "%s %s=%s: %s", name, kv[0], kv[1], cause);
	if (workload_start(run, &cause) != 0)
		die(1, "%s: %s", name, cause);
	workload_wait(run, &res);
	if (res.status != WORKLOAD_DONE)
		die(1, "%s: %s: %s", name, workload_status_name(res.status),
		    res.message != NULL ? res.message : "");
	for (i = 0; i < res.nrows; i++)
		if (res.rows[i].thread == -1 &&
		    strcmp(res.rows[i].metric, metric) == 0)
			v = res.rows[i].value;
	workload_result_free(&res);
	workload_run_free(run);
	return (v);
}

/*
 * The kernel's page fault counter (/proc/vmstat pgfault): machine-wide, so
 * faults of other processes count too, alike for every side measured.
 */
static uint64_t
pgfault_now(void)
{
	static const char *const keys[] = { "pgfault" };
	struct procfile pf;
	uint64_t v = 0;
	char *cause = NULL;

	procfile_init(&pf);
	if (vmstat_read(&pf, "/proc", keys, 1, &v, &cause) != 0)
		die(3, "%s", cause);
	procfile_free(&pf);
	return (v);
}

enum bare_method { BARE_TOUCH, BARE_POPULATE };

/* One thread of a bare loop: its own mapping, its pages, its end. */
struct bare_thread {
	pthread_barrier_t	*start;
	uint64_t		 bytes;
	int			 method;
	char			*map;
	uint64_t		 end_ns;
};

/*
 * Map bytes with a PROT_NONE page after them, so that the mappings of two
 * threads never merge into one area (whose per-area fault lock both would
 * then share), no THP; give every page a fresh page in order: a write per
 * page (first touch), or MADV_POPULATE_WRITE per 2 MiB and then the
 * writes, which find their pages present.  The caller unmaps it once
 * every thread is done: an unmap flushes the TLB of the CPUs running the
 * other threads.
 */
static void *
bare_pages_thread(void *arg)
{
	struct bare_thread *bt = arg;
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), i, o, len;
	char *p;

	pthread_barrier_wait(bt->start);
	p = mmap(NULL, bt->bytes + ps, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		die_errno(3, "mmap");
	mprotect(p + bt->bytes, ps, PROT_NONE);
	madvise(p, bt->bytes, MADV_NOHUGEPAGE);
	for (o = 0; o < bt->bytes; o += STEP) {
		len = bt->bytes - o < STEP ? bt->bytes - o : STEP;
		if (bt->method == BARE_POPULATE)
			madvise(p + o, len, MADV_POPULATE_WRITE);
		for (i = 0; i < len; i += ps)
			p[o + i] = 1;
	}
	bt->end_ns = units_now_ns();
	bt->map = p;
	return (NULL);
}

/*
 * The bare loop: bytes over nthreads threads, one mapping each; pages/s
 * from the common start to the last thread's end.
 */
static double
bare_pages(uint64_t bytes, int nthreads, int method)
{
	struct bare_thread bt[2];
	pthread_t tid[2];
	pthread_barrier_t start;
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t t0, t1 = 0;
	int i;

	pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1);
	for (i = 0; i < nthreads; i++) {
		bt[i].start = &start;
		bt[i].bytes = bytes / (uint64_t)nthreads / ps * ps;
		bt[i].method = method;
		if (pthread_create(&tid[i], NULL, bare_pages_thread, &bt[i]) !=
		    0)
			die(3, "pthread_create");
	}
	t0 = units_now_ns();
	pthread_barrier_wait(&start);
	for (i = 0; i < nthreads; i++) {
		pthread_join(tid[i], NULL);
		if (bt[i].end_ns > t1)
			t1 = bt[i].end_ns;
	}
	for (i = 0; i < nthreads; i++)
		munmap(bt[i].map, bt[i].bytes + ps);
	pthread_barrier_destroy(&start);
	return ((double)(bt[0].bytes / ps) * nthreads * 1e9 /
	    (double)(t1 - t0));
}

/* A fork loop thread: n times clone3 (fork-heavy's call), _exit, wait. */
static void *
bare_fork_thread(void *arg)
{
	int n = *(int *)arg, k;
	pid_t pid;

	for (k = 0; k < n; k++) {
		/* fork-heavy's call: clone3 without glibc's fork handlers. */
#ifdef SYS_clone3
		struct clone_args args = { .exit_signal = SIGCHLD };

		if ((pid = (pid_t)syscall(SYS_clone3, &args, sizeof args)) ==
		    -1 && errno == ENOSYS)
			pid = fork();
#else
		pid = fork();
#endif
		if (pid == 0)
			_exit(0);
		if (pid == -1)
			die_errno(3, "fork");
		waitpid(pid, NULL, 0);
	}
	return (NULL);
}

/*
 * The bare fork loop with a parent of `bytes` touched, n forks shared by
 * nthreads threads of this process: forks/s.
 */
static double
bare_fork(uint64_t bytes, int n, int nthreads)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), i;
	pthread_t tid[2];
	uint64_t t0, t1;
	char *p = NULL;
	int k, each = n / nthreads;

	if (bytes > 0) {
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die_errno(3, "mmap");
		for (i = 0; i < bytes; i += ps)
			p[i] = 1;
	}
	t0 = units_now_ns();
	if (nthreads == 1)
		bare_fork_thread(&each);
	else {
		for (k = 0; k < nthreads; k++)
			if (pthread_create(&tid[k], NULL, bare_fork_thread,
			    &each) != 0)
				die(3, "pthread_create");
		for (k = 0; k < nthreads; k++)
			pthread_join(tid[k], NULL);
	}
	t1 = units_now_ns();
	if (p != NULL)
		munmap(p, bytes);
	return ((double)each * nthreads * 1e9 / (double)(t1 - t0));
}

/* Bare read + fadvise(DONTNEED) passes over fd: MB/s of the cold passes. */
static double
bare_read_evict(int fd, uint64_t size, int passes)
{
	const size_t chunk = 4 << 20;
	char *buf = xmalloc(chunk);
	uint64_t off, t0, ns = 0, bytes = 0;
	ssize_t n;
	int pass;

	posix_fadvise(fd, 0, (off_t)size, POSIX_FADV_DONTNEED);
	for (pass = 0; pass < passes; pass++) {
		t0 = units_now_ns();
		for (off = 0; off < size; off += (uint64_t)n) {
			if ((n = pread(fd, buf, chunk, (off_t)off)) <= 0)
				die_errno(3, "pread");
			bytes += (uint64_t)n;
		}
		for (off = 0; off < size; off += chunk)
			posix_fadvise(fd, (off_t)off, chunk,
			    POSIX_FADV_DONTNEED);
		ns += units_now_ns() - t0;
	}
	free(buf);
	return ((double)bytes / 1e6 * 1e9 / (double)ns);
}

/* A file of size bytes, written and synced, unlinked at once. */
static int
scratch_file(const char *dir, uint64_t size)
{
	char path[4096];
	char *buf = xmalloc(4 << 20);
	uint64_t off;
	int fd;

	if (snprintf(path, sizeof path, "%s/perf-XXXXXX", dir) >=
	    (int)sizeof path)
		die(2, "%s: path too long", dir);
	if ((fd = mkstemp(path)) == -1)
		die_errno(3, "mkstemp %s", path);
	unlink(path);
	memset(buf, 0x5a, 4 << 20);
	for (off = 0; off < size; off += 4 << 20)
		if (pwrite(fd, buf, 4 << 20, (off_t)off) != 4 << 20)
			die_errno(3, "pwrite");
	fdatasync(fd);
	free(buf);
	return (fd);
}

/*
 * A stress-ng metric (bogo ops/s, real time) from its YAML, or -1; the
 * kernel's page faults per second of the whole invocation in *fps.
 */
static double
stressng(const char *args, double *fps)
{
	char yaml[] = "/tmp/rbperf-XXXXXX", cmd[512], line[256];
	double v = -1;
	uint64_t t0, f0;
	FILE *f;
	int fd, rc;

	if ((fd = mkstemp(yaml)) == -1)
		return (-1);
	close(fd);
	snprintf(cmd, sizeof cmd, "%s %s --metrics-brief --yaml %s "
	    ">/dev/null 2>&1", STRESS_NG, args, yaml);
	t0 = units_now_ns();
	f0 = pgfault_now();
	rc = system(cmd);
	if (fps != NULL)
		*fps = (double)(pgfault_now() - f0) * 1e9 /
		    (double)(units_now_ns() - t0);
	if (rc == 0 && (f = fopen(yaml, "r")) != NULL) {
		while (fgets(line, sizeof line, f) != NULL)
			if (sscanf(line, " bogo-ops-per-second-real-time: %lf",
			    &v) == 1)
				break;
		fclose(f);
	}
	unlink(yaml);
	return (v);
}

/*
 * Run a workload as workload_metric does: its total pages/s, and the
 * kernel's page faults per second of the whole run (fork, setup and exit
 * included, as stress-ng's count includes its own), measured from here the
 * same way.
 */
static double
workload_faults_per_s(const char *name, const char *const *kv, double *pps)
{
	uint64_t t0 = units_now_ns(), f0 = pgfault_now();

	*pps = workload_metric(name, kv, "pages_per_s");
	return ((double)(pgfault_now() - f0) * 1e9 /
	    (double)(units_now_ns() - t0));
}

/*
 * pagetest: the bare loops (first touch, and MADV_POPULATE_WRITE then the
 * writes; the faster of the two in each round is the limit) and pagetest's
 * default, with 1 and 2 threads, and --prefault none with 1, interleaved.
 */
static void
section_pagetest(void)
{
	static const char *const one[] = { "size", "1G", "threads", "1",
	    "thp", "never", NULL };
	static const char *const two[] = { "size", "1G", "threads", "2",
	    "thp", "never", NULL };
	static const char *const none[] = { "size", "1G", "threads", "1",
	    "thp", "never", "prefault", "none", NULL };
	double v[7][ROUNDS], lim1[ROUNDS], lim2[ROUNDS], r[5][ROUNDS];
	int i, j, k;

	print_load("pagetest");
	for (i = 0; i < ROUNDS; i++) {
		for (j = 0; j < 7; j++) {
			k = i % 2 == 0 ? j : 6 - j;
			switch (k) {
			case 0: v[k][i] = bare_pages(GIB, 1, BARE_TOUCH); break;
			case 1: v[k][i] = bare_pages(GIB, 1, BARE_POPULATE);
				break;
			case 2: v[k][i] = workload_metric("pagetest", one,
				    "pages_per_s"); break;
			case 3: v[k][i] = workload_metric("pagetest", none,
				    "pages_per_s"); break;
			case 4: v[k][i] = bare_pages(GIB, 2, BARE_TOUCH); break;
			case 5: v[k][i] = bare_pages(GIB, 2, BARE_POPULATE);
				break;
			case 6: v[k][i] = workload_metric("pagetest", two,
				    "pages_per_s"); break;
			}
		}
		lim1[i] = v[0][i] > v[1][i] ? v[0][i] : v[1][i];
		lim2[i] = v[4][i] > v[5][i] ? v[4][i] : v[5][i];
		r[0][i] = lim2[i] / lim1[i];
		r[1][i] = v[2][i] / lim1[i];
		r[2][i] = v[6][i] / lim2[i];
		r[3][i] = v[2][i] / v[3][i];
		r[4][i] = v[6][i] / v[2][i];
	}
	printf("bare_touch_pages_per_s=%.0f\n", perf_median(v[0], ROUNDS));
	printf("bare_populate_pages_per_s=%.0f\n", perf_median(v[1], ROUNDS));
	printf("bare_touch_2t_pages_per_s=%.0f\n", perf_median(v[4], ROUNDS));
	printf("bare_populate_2t_pages_per_s=%.0f\n",
	    perf_median(v[5], ROUNDS));
	printf("bare_2t_scaling=%.3f\n", perf_median(r[0], ROUNDS));
	printf("pagetest_pages_per_s=%.0f\n", perf_median(v[2], ROUNDS));
	printf("pagetest_2t_pages_per_s=%.0f\n", perf_median(v[6], ROUNDS));
	printf("pagetest_prefault_none_pages_per_s=%.0f\n",
	    perf_median(v[3], ROUNDS));
	print_target("pagetest_vs_limit", perf_median(r[1], ROUNDS), 0.95);
	print_target("pagetest_2t_vs_limit", perf_median(r[2], ROUNDS), 0.95);
	print_target("pagetest_vs_prefault_none", perf_median(r[3], ROUNDS),
	    1.0);
	print_scaling("pagetest", perf_median(r[4], ROUNDS),
	    PAGETEST_2T_TARGET);
	print_load("pagetest done");
}

/* fork-heavy and the bare fork loop, 64 MiB parent, 1 and 2 forkers. */
static void
section_fork(void)
{
	static const char *const one[] = { "size", "64M", "forkers", "1",
	    "forks", "150", NULL };
	static const char *const two[] = { "size", "64M", "forkers", "2",
	    "forks", "150", NULL };
	double bf[ROUNDS], bf2[ROUNDS], wf[ROUNDS], wf2[ROUNDS];
	double rf[ROUNDS], rb2[ROUNDS], rw2[ROUNDS];
	int i;

	print_load("fork");
	for (i = 0; i < ROUNDS; i++) {
		bf[i] = bare_fork(64 << 20, 150, 1);
		wf[i] = workload_metric("fork-heavy", one, "forks_per_s");
		bf2[i] = bare_fork(64 << 20, 150, 2);
		wf2[i] = workload_metric("fork-heavy", two, "forks_per_s");
		rf[i] = wf[i] / bf[i];
		rb2[i] = bf2[i] / bf[i];
		rw2[i] = wf2[i] / wf[i];
	}
	printf("bare_fork_64m_per_s=%.1f\n", perf_median(bf, ROUNDS));
	printf("bare_fork_64m_2t_per_s=%.1f\n", perf_median(bf2, ROUNDS));
	printf("bare_fork_2t_scaling=%.3f\n", perf_median(rb2, ROUNDS));
	printf("fork_heavy_64m_per_s=%.1f\n", perf_median(wf, ROUNDS));
	printf("fork_heavy_64m_2t_per_s=%.1f\n", perf_median(wf2, ROUNDS));
	print_target("fork_vs_limit", perf_median(rf, ROUNDS), 0.90);
	print_scaling("fork-heavy", perf_median(rw2, ROUNDS),
	    FORK_HEAVY_2T_TARGET);
	print_load("fork done");
}

/* page-cache-churn against the bare read + evict loop; 1 and 2 threads. */
static void
section_pagecache(const char *dir)
{
	double bp[ROUNDS], wp[ROUNDS], wp2[ROUNDS], rp[ROUNDS], r2[ROUNDS];
	int i, fd = scratch_file(dir, 256 << 20);

	print_load("pagecache");
	for (i = 0; i < ROUNDS; i++) {
		bp[i] = bare_read_evict(fd, 256 << 20, 3);
		wp[i] = workload_metric("page-cache-churn", (const char *[]){
		    "size", "256M", "threads", "1", "passes", "4", "dir", dir,
		    NULL }, "read_evict_per_s");
		wp2[i] = workload_metric("page-cache-churn", (const char *[]){
		    "size", "256M", "threads", "2", "passes", "4", "dir", dir,
		    NULL }, "read_evict_per_s");
		rp[i] = wp[i] / bp[i];
		r2[i] = wp2[i] / wp[i];
	}
	close(fd);
	printf("bare_read_evict_mb_per_s=%.0f\n", perf_median(bp, ROUNDS));
	printf("pagecache_read_evict_mb_per_s=%.0f\n",
	    perf_median(wp, ROUNDS));
	printf("pagecache_2t_read_evict_mb_per_s=%.0f\n",
	    perf_median(wp2, ROUNDS));
	print_target("pagecache_vs_limit", perf_median(rp, ROUNDS),
	    0.90);
	print_scaling("page-cache-churn", perf_median(r2, ROUNDS),
	    PAGE_CACHE_CHURN_2T_TARGET);
	print_load("pagecache done");
}

/* frag-churn, 1 and 2 threads, the same ops over the same size. */
static void
section_frag(void)
{
	static const char *const one[] = { "size", "256M", "threads", "1",
	    "thp", "never", "ops", "4000", NULL };
	static const char *const two[] = { "size", "256M", "threads", "2",
	    "thp", "never", "ops", "4000", NULL };
	double f1[ROUNDS], f2[ROUNDS], r[ROUNDS];
	int i;

	print_load("frag");
	for (i = 0; i < ROUNDS; i++) {
		f1[i] = workload_metric("frag-churn", one, "ops_per_s");
		f2[i] = workload_metric("frag-churn", two, "ops_per_s");
		r[i] = f2[i] / f1[i];
	}
	printf("frag_churn_ops_per_s=%.0f\n", perf_median(f1, ROUNDS));
	printf("frag_churn_2t_ops_per_s=%.0f\n", perf_median(f2, ROUNDS));
	print_scaling("frag-churn", perf_median(r, ROUNDS),
	    FRAG_CHURN_2T_TARGET);
	print_load("frag done");
}

/*
 * Against stress-ng, in pages per second (what a user gets) and in page
 * faults per second as the kernel counts them (pgfault deltas around
 * each whole invocation), 1 and 2 instances.  stress-ng's vm stressor
 * populates its mapping with MADV_POPULATE_READ (the zero page) and then
 * writes every word: two faults per page, one of them a copy-on-write;
 * pagetest's default takes one.  Both sides do 2 GiB in two cycles per
 * instance or thread pair; stress-ng stops after a number of bogo ops
 * (1 MiB written each), not after a time: cut short, it would count the
 * faults of a whole populated mapping but only the part it had written.
 */
static void
section_stressng(void)
{
	static const char *const pt1[] = { "size", "1G", "threads", "1",
	    "thp", "never", "cycles", "2", NULL };
	static const char *const pt2[] = { "size", "1G", "threads", "2",
	    "thp", "never", "cycles", "2", NULL };
	static const char *const none[] = { "size", "1G", "threads", "1",
	    "thp", "never", "cycles", "2", "prefault", "none", NULL };
	static const char *const pop[] = { "size", "1G", "threads", "1",
	    "thp", "never", "cycles", "2", "populate", "yes", NULL };
	double sv[5], sv2[5], sf[5], sf2[5], pp[5], pp2[5], pf[5], pf2[5];
	double nf[5], np[5], of[5], op[5], r[8][5], fs[5], ws[5], rf[5];
	int i;

	print_load("stressng");
	for (i = 0; i < 5; i++) {
		/* write64: one bogo op is 1 MiB written, 256 pages. */
		sv[i] = stressng("--vm 1 --vm-bytes 1G --vm-method write64 "
		    "--vm-madvise nohugepage --vm-ops 2048 -t 120", &sf[i]) *
		    256;
		pf[i] = workload_faults_per_s("pagetest", pt1, &pp[i]);
		sv2[i] = stressng("--vm 2 --vm-bytes 512M --vm-method write64 "
		    "--vm-madvise nohugepage --vm-ops 2048 -t 120", &sf2[i]) *
		    256;
		pf2[i] = workload_faults_per_s("pagetest", pt2, &pp2[i]);
		nf[i] = workload_faults_per_s("pagetest", none, &np[i]);
		of[i] = workload_faults_per_s("pagetest", pop, &op[i]);
		fs[i] = stressng("--fork 1 -t 3", NULL);
		ws[i] = workload_metric("fork-heavy", (const char *[]){ "size",
		    "0", "forkers", "1", "forks", "3000", NULL },
		    "forks_per_s");
		r[0][i] = pp[i] / sv[i];
		r[1][i] = pp2[i] / sv2[i];
		r[2][i] = pf[i] / sf[i];
		r[3][i] = nf[i] / sf[i];
		r[4][i] = of[i] / sf[i];
		r[5][i] = sv2[i] / sv[i];
		r[6][i] = np[i] / sv[i];
		rf[i] = ws[i] / fs[i];
	}
	printf("stressng_vm_pages_per_s=%.0f\n", perf_median(sv, 5));
	printf("stressng_vm2_pages_per_s=%.0f\n", perf_median(sv2, 5));
	printf("stressng_vm_2i_scaling=%.3f\n", perf_median(r[5], 5));
	printf("pagetest_cycles_pages_per_s=%.0f\n", perf_median(pp, 5));
	printf("pagetest_cycles_2t_pages_per_s=%.0f\n", perf_median(pp2, 5));
	print_target("pagetest_vs_stressng", perf_median(r[0], 5), 1.0);
	print_target("pagetest_2t_vs_stressng_2i", perf_median(r[1], 5), 1.0);
	printf("pagetest_prefault_none_vs_stressng=%.3f\n",
	    perf_median(r[6], 5));
	printf("stressng_vm_faults_per_s=%.0f\n", perf_median(sf, 5));
	printf("stressng_vm2_faults_per_s=%.0f\n", perf_median(sf2, 5));
	printf("pagetest_faults_per_s=%.0f\n", perf_median(pf, 5));
	printf("pagetest_2t_faults_per_s=%.0f\n", perf_median(pf2, 5));
	printf("pagetest_faults_vs_stressng=%.3f\n", perf_median(r[2], 5));
	printf("pagetest_prefault_none_faults_per_s=%.0f\n",
	    perf_median(nf, 5));
	printf("pagetest_prefault_none_faults_vs_stressng=%.3f\n",
	    perf_median(r[3], 5));
	printf("pagetest_populate_faults_per_s=%.0f\n", perf_median(of, 5));
	printf("pagetest_populate_faults_vs_stressng=%.3f\n",
	    perf_median(r[4], 5));
	printf("stressng_fork_per_s=%.0f\n", perf_median(fs, 5));
	printf("fork_heavy_small_per_s=%.0f\n", perf_median(ws, 5));
	print_target("fork_vs_stressng", perf_median(rf, 5), 1.0);
	print_load("stressng done");
}

/* Is section name selected by the command line (none: all)? */
static int
selected(int argc, char **argv, const char *name)
{
	int i;

	if (argc < 2)
		return (1);
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return (1);
	return (0);
}

/*
 * Sections: pagetest, fork, pagecache, frag, stressng; all without
 * arguments.
 */
int
main(int argc, char **argv)
{
	const struct workload_desc *const *d = workload_all();
	const char *tmp = getenv("TMPDIR");
	char dir[4096], key[96];
	int i;

	log_set_program("perf-workloads");
	if (workload_size_limit(units_mem_available(),
	    units_mem_total()) < 2 * GIB) {
		printf("# SKIP less than 2 GiB to spare\n");
		return (0);
	}
	snprintf(dir, sizeof dir, "%s", tmp != NULL && *tmp != '\0' ? tmp :
	    "/var/tmp");

	/* Warm the memory this process and the workloads will reuse. */
	bare_pages(GIB, 1, BARE_TOUCH);
	bare_pages(GIB, 2, BARE_TOUCH);
	if (selected(argc, argv, "pagetest"))
		section_pagetest();
	if (selected(argc, argv, "fork"))
		section_fork();
	if (selected(argc, argv, "pagecache"))
		section_pagecache(dir);
	if (selected(argc, argv, "frag"))
		section_frag();
	if (selected(argc, argv, "stressng")) {
		if (access(STRESS_NG, X_OK) == 0)
			section_stressng();
		else
			printf("# stress-ng not installed: no *_vs_stressng\n");
	}
	/* A workload added to the registry without a scaling measurement. */
	for (i = 0; argc < 2 && d[i] != NULL; i++)
		if (i >= 64 || !scaling_done[i]) {
			scaling_key(key, sizeof key, d[i]->name);
			printf("%s=missing FAIL (no measurement in "
			    "tests/perf-workloads.c)\n", key);
			below_target++;
		}
	if (below_target > 0)
		printf("# %d figure%s below target\n", below_target,
		    below_target == 1 ? "" : "s");
	return (0);
}
