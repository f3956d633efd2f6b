/*
 * make perf: each workload against the smallest loop that does the same
 * work, measured in this process, interleaved (bare, workload, bare, ...)
 * so drift and the host's memory return hit both alike; ratios are
 * medians over the rounds.  Memory freed here goes back to the host after
 * a few seconds idle, so the rounds run back to back and start after a
 * warm-up touch.  Prints key=value lines.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
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
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14 */
#endif

#define ROUNDS		7
#define GIB		(1ULL << 30)

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

/*
 * The bare loop of pagetest's method and nothing else: per cycle mmap, no
 * THP, then for each 2 MiB step MADV_POPULATE_READ and one write per page,
 * munmap; pages/s over the cycles, the last munmap left out as pagetest
 * leaves it out.
 */
static double
bare_touch(uint64_t bytes, int cycles)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), step = 2 << 20, i, o, len;
	uint64_t t0, t1 = 0;
	char *p;
	int c;

	t0 = units_now_ns();
	for (c = 0; c < cycles; c++) {
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			die_errno(3, "mmap");
		madvise(p, bytes, MADV_NOHUGEPAGE);
		for (o = 0; o < bytes; o += step) {
			len = bytes - o < step ? bytes - o : step;
			madvise(p + o, len, MADV_POPULATE_READ);
			for (i = 0; i < len; i += ps)
				p[o + i] = 1;
		}
		t1 = units_now_ns();
		munmap(p, bytes);
	}
	return ((double)(bytes / ps) * cycles * 1e9 / (double)(t1 - t0));
}

/* The bare fork loop with a parent of `bytes` touched: forks/s. */
static double
bare_fork(uint64_t bytes, int n)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), i;
	uint64_t t0, t1;
	pid_t pid;
	char *p = NULL;
	int k;

	if (bytes > 0) {
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die_errno(3, "mmap");
		for (i = 0; i < bytes; i += ps)
			p[i] = 1;
	}
	t0 = units_now_ns();
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
	t1 = units_now_ns();
	if (p != NULL)
		munmap(p, bytes);
	return ((double)n * 1e9 / (double)(t1 - t0));
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
 * Run a workload as workload_metric does; the kernel's page faults per
 * second of the whole run (fork, setup and exit included, as stress-ng's
 * count includes its own), measured from here the same way.
 */
static double
workload_faults_per_s(const char *name, const char *const *kv)
{
	uint64_t t0 = units_now_ns(), f0 = pgfault_now();

	workload_metric(name, kv, "pages");
	return ((double)(pgfault_now() - f0) * 1e9 /
	    (double)(units_now_ns() - t0));
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
 * Sections: pagetest, fork, pagecache, stressng; all without arguments.
 */
int
main(int argc, char **argv)
{
	double bare[ROUNDS], pt1[ROUNDS], pt2[ROUNDS], r1[ROUNDS];
	double scale[ROUNDS], bf[ROUNDS], wf[ROUNDS], rf[ROUNDS];
	double bp[ROUNDS], wp[ROUNDS], rp[ROUNDS], sv[ROUNDS], sf[ROUNDS];
	double wsf[ROUNDS], rpp[ROUNDS], sfps[ROUNDS], pfps[ROUNDS];
	double tfps[ROUNDS], ppfps[ROUNDS], rt[ROUNDS];
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	int i, fd, have_stressng = access(STRESS_NG, X_OK) == 0;

	log_set_program("perf-workloads");
	if (workload_size_limit(units_mem_available(),
	    units_mem_total()) < 2 * GIB) {
		printf("# SKIP less than 2 GiB to spare\n");
		return (0);
	}
	snprintf(dir, sizeof dir, "%s", tmp != NULL && *tmp != '\0' ? tmp :
	    "/var/tmp");

	/* Warm the memory this process and the workloads will reuse. */
	bare_touch(GIB, 1);
	bare_touch(GIB, 1);
	for (i = 0; i < ROUNDS && selected(argc, argv, "pagetest"); i++) {
		bare[i] = bare_touch(GIB, 1);
		pt1[i] = workload_metric("pagetest", (const char *[]){ "size",
		    "1G", "threads", "1", "thp", "never", NULL },
		    "pages_per_s");
		pt2[i] = workload_metric("pagetest", (const char *[]){ "size",
		    "1G", "threads", "2", "thp", "never", NULL },
		    "pages_per_s");
		r1[i] = pt1[i] / bare[i];
		scale[i] = pt2[i] / pt1[i];
	}
	if (selected(argc, argv, "pagetest")) {
		printf("bare_touch_pages_per_s=%.0f\n",
		    perf_median(bare, ROUNDS));
		printf("pagetest_pages_per_s=%.0f\n", perf_median(pt1, ROUNDS));
		printf("pagetest_vs_limit=%.3f\n", perf_median(r1, ROUNDS));
		printf("pagetest_2t_scaling=%.3f\n",
		    perf_median(scale, ROUNDS));
		fflush(stdout);
	}

	for (i = 0; i < ROUNDS && selected(argc, argv, "fork"); i++) {
		bf[i] = bare_fork(64 << 20, 150);
		wf[i] = workload_metric("fork-heavy", (const char *[]){ "size",
		    "64M", "forkers", "1", "forks", "150", NULL },
		    "forks_per_s");
		rf[i] = wf[i] / bf[i];
	}
	if (selected(argc, argv, "fork")) {
		printf("bare_fork_64m_per_s=%.1f\n", perf_median(bf, ROUNDS));
		printf("fork_heavy_64m_per_s=%.1f\n", perf_median(wf, ROUNDS));
		printf("fork_vs_limit=%.3f\n", perf_median(rf, ROUNDS));
		fflush(stdout);
	}

	fd = selected(argc, argv, "pagecache") ? scratch_file(dir, 256 << 20) :
	    -1;
	for (i = 0; i < ROUNDS && fd != -1; i++) {
		bp[i] = bare_read_evict(fd, 256 << 20, 3);
		wp[i] = workload_metric("page-cache-churn", (const char *[]){
		    "size", "256M", "threads", "1", "passes", "4", "dir", dir,
		    NULL }, "read_evict_per_s");
		rp[i] = wp[i] / bp[i];
	}
	if (fd != -1) {
		close(fd);
		printf("bare_read_evict_mb_per_s=%.0f\n",
		    perf_median(bp, ROUNDS));
		printf("pagecache_read_evict_mb_per_s=%.0f\n",
		    perf_median(wp, ROUNDS));
		printf("pagecache_vs_limit=%.3f\n", perf_median(rp, ROUNDS));
		fflush(stdout);
	}

	if (!selected(argc, argv, "stressng"))
		return (0);
	if (!have_stressng) {
		printf("# stress-ng not installed: no *_vs_stressng\n");
		return (0);
	}
	/*
	 * Page faults per second as the kernel counts them (pgfault deltas
	 * around each whole invocation), two whole cycles of the same 1 GiB
	 * each: stress-ng's vm stressor populates a mapping with
	 * MADV_POPULATE_READ and then writes every word; pagetest (default
	 * --prefault read) populates 2 MiB at a time just ahead of one write
	 * per page.  stress-ng stops after 2048 bogo ops (2 GiB written), not
	 * after a time: cut short, it would count the faults of a whole
	 * populated mapping but only the part it had written.
	 */
	for (i = 0; i < 5; i++) {
		/* write64: one bogo op is 1 MiB written, 256 pages. */
		sv[i] = stressng("--vm 1 --vm-bytes 1G --vm-method write64 "
		    "--vm-madvise nohugepage --vm-ops 2048 -t 120", &sfps[i]) *
		    256;
		pfps[i] = workload_faults_per_s("pagetest", (const char *[]){
		    "size", "1G", "threads", "1", "thp", "never", "cycles", "2",
		    NULL });
		tfps[i] = workload_faults_per_s("pagetest", (const char *[]){
		    "size", "1G", "threads", "1", "thp", "never", "cycles", "2",
		    "prefault", "none", NULL });
		ppfps[i] = workload_faults_per_s("pagetest", (const char *[]){
		    "size", "1G", "threads", "1", "thp", "never", "cycles", "2",
		    "populate", "yes", NULL });
		sf[i] = stressng("--fork 1 -t 3", NULL);
		wsf[i] = workload_metric("fork-heavy", (const char *[]){ "size",
		    "0", "forkers", "1", "forks", "3000", NULL },
		    "forks_per_s");
		r1[i] = pfps[i] / sfps[i];
		rt[i] = tfps[i] / sfps[i];
		rpp[i] = ppfps[i] / sfps[i];
		rf[i] = wsf[i] / sf[i];
	}
	printf("stressng_vm_write64_pages_per_s=%.0f\n", perf_median(sv, 5));
	printf("stressng_vm_faults_per_s=%.0f\n", perf_median(sfps, 5));
	printf("pagetest_faults_per_s=%.0f\n", perf_median(pfps, 5));
	printf("pagetest_vs_stressng=%.3f\n", perf_median(r1, 5));
	printf("pagetest_prefault_none_faults_per_s=%.0f\n",
	    perf_median(tfps, 5));
	printf("pagetest_prefault_none_vs_stressng=%.3f\n", perf_median(rt, 5));
	printf("pagetest_populate_faults_per_s=%.0f\n", perf_median(ppfps, 5));
	printf("pagetest_populate_vs_stressng=%.3f\n", perf_median(rpp, 5));
	printf("stressng_fork_per_s=%.0f\n", perf_median(sf, 5));
	printf("fork_heavy_small_per_s=%.0f\n", perf_median(wsf, 5));
	printf("fork_vs_stressng=%.3f\n", perf_median(rf, 5));
	return (0);
}
