/*
 * make perf: what watching costs.  A CPU-bound load on every core (one
 * process per online CPU spinning on a counter: nothing but CPU, so every
 * CPU second the sampler takes shows up as iterations lost) runs for a
 * fixed time without and with `regionbench sample --interval 1s` running
 * alongside, interleaved (without, with, with, without, ...), five rounds
 * per source.  Our own loop rather than stress-ng --cpu: it is always there
 * and counts exactly what it did.  Prints key=value lines:
 *
 *   observer_cost_SOURCE_1hz        median over rounds of 1 - with/without
 *                                   (iterations); target <= 0.02
 *   observer_cpu_share_SOURCE_1hz   median of the sampler's CPU time during
 *                                   the window over window x CPUs (the
 *                                   same cost, counted by the kernel, less
 *                                   noisy)
 *
 * for kpageflags (--scan-rotation 1: every region at every sample),
 * kpageflags_frac05 (--scan-fraction 0.05 with a full scan every 10
 * samples: estimates) and procfs (--source zone, the /proc text sources'
 * cost).  Section "default" measures what a run pays by default, on a
 * real workload:
 *
 *   observer_cost_default_1hz       median over rounds of 1 - with/without
 *                                   of pagetest's pages per second (one
 *                                   thread per CPU, 256 MiB a thread,
 *                                   allocated and freed until the window
 *                                   ends)
 *                                   beside `sample --source kpageflags
 *                                   --interval 1s` with its defaults
 *                                   (exact counts, the rotation chosen
 *                                   for the budget); target <= 0.02
 *   observer_cpu_share_default_1hz  the sampler's CPU share meanwhile
 *
 * The window
 * opens once the sampler has written its first sample, so the open and the
 * calibration are not in it, and lasts 10 s: one full scan in ten samples.
 * Needs root for kpageflags; REGIONBENCH names the program
 * (default bench/regionbench), PERF_OBSERVER_SECONDS the window.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "perf.h"
#include "units.h"

#define ROUNDS	5

/* One cache line per spinning process, plus the start and stop flags. */
struct burn_shared {
	volatile int	 go;
	volatile int	 stop;
	volatile int	 ready;
	char		 pad[52];
	struct {
		volatile uint64_t n;
		char		 pad[56];
	} slot[];
};

/* Sleep for ns nanoseconds, whatever signals arrive. */
static void
sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000),
	    (long)(ns % 1000000000) };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* CPU seconds (user + system) of process pid so far, or -1. */
static double
proc_cpu_s(pid_t pid)
{
	char path[64], buf[2048], *p;
	unsigned long long ut, st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY)) == -1)
		return (-1);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return (-1);
	buf[n] = '\0';
	/* Fields after the command name, which may hold spaces. */
	if ((p = strrchr(buf, ')')) == NULL || sscanf(p + 2, "%*c %*d %*d "
	    "%*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return (-1);
	return ((double)(ut + st) / (double)sysconf(_SC_CLK_TCK));
}

/*
 * Spin one process per CPU for window_ns; total iterations per second.
 * If obs is not 0, *obs_cpu gets the CPU seconds it took in the window.
 */
static double
burn(int ncpu, uint64_t window_ns, pid_t obs, double *obs_cpu)
{
	size_t len = sizeof(struct burn_shared) + (size_t)ncpu * 64;
	struct burn_shared *sh;
	uint64_t t0, t1, total = 0, n;
	double c0 = 0;
	pid_t pid, pids[256];
	int i;

	sh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED |
	    MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die_errno(3, "mmap");
	for (i = 0; i < ncpu; i++) {
		if ((pid = fork()) == -1)
			die_errno(3, "fork");
		pids[i] = pid;
		if (pid == 0) {
			__atomic_add_fetch(&sh->ready, 1, __ATOMIC_RELAXED);
			while (!sh->go)
				;
			for (n = 0; !sh->stop; n++)
				;
			sh->slot[i].n = n;
			_exit(0);
		}
	}
	while (__atomic_load_n(&sh->ready, __ATOMIC_RELAXED) < ncpu)
		sleep_ns(1000000);
	if (obs != 0)
		c0 = proc_cpu_s(obs);
	t0 = units_now_ns();
	sh->go = 1;
	sleep_ns(window_ns);
	sh->stop = 1;
	t1 = units_now_ns();
	if (obs != 0)
		*obs_cpu = proc_cpu_s(obs) - c0;
	/* Only the spinners: the sampler is a child too. */
	for (i = 0; i < ncpu; i++)
		while (waitpid(pids[i], NULL, 0) == -1 && errno == EINTR)
			;
	for (i = 0; i < ncpu; i++)
		total += sh->slot[i].n;
	munmap(sh, len);
	return ((double)total * 1e9 / (double)(t1 - t0));
}

/*
 * Start `regionbench sample --interval 1s --out DIR` with the given source
 * options and wait for its first sample (a data row in samples.csv); its
 * pid, or -1 if it stopped first.
 */
static pid_t
observer_start(const char *prog, const char *dir, char *const *srcopts)
{
	char path[4200], line[4096];
	char *argv[32];
	int argc = 0, fd, rows;
	pid_t pid;
	FILE *f;

	argv[argc++] = (char *)prog;
	argv[argc++] = (char *)"sample";
	argv[argc++] = (char *)"--interval";
	argv[argc++] = (char *)"1s";
	argv[argc++] = (char *)"--quiet";
	argv[argc++] = (char *)"--out";
	argv[argc++] = (char *)dir;
	for (; *srcopts != NULL && argc < 31; srcopts++)
		argv[argc++] = *srcopts;
	argv[argc] = NULL;
	if ((pid = fork()) == -1)
		die_errno(3, "fork");
	if (pid == 0) {
		if ((fd = open("/dev/null", O_WRONLY)) != -1)
			dup2(fd, 1);
		execv(prog, argv);
		_exit(127);
	}
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	for (;;) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return (-1);
		rows = 0;
		if ((f = fopen(path, "r")) != NULL) {
			while (fgets(line, sizeof line, f) != NULL)
				rows++;
			fclose(f);
		}
		if (rows >= 2)
			return (pid);
		sleep_ns(20 * 1000000);
	}
}

/* Stop the sampler and remove its results directory. */
static void
observer_stop(pid_t pid, const char *dir)
{
	char cmd[4200];

	kill(pid, SIGINT);
	while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
		;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		log_warnx("cannot remove %s", dir);
}

/* Interleaved rounds for one source: prints its two keys. */
static void
measure(const char *prog, const char *key, char *const *srcopts, int ncpu,
    uint64_t window_ns)
{
	double cost[ROUNDS], share[ROUNDS], without, with, cpu = 0;
	char dir[4096];
	const char *tmp = getenv("TMPDIR");
	pid_t pid;
	int i;

	/*
	 * Alternate the order (without first, then with first): the host
	 * gives this guest's vCPUs more or less time from one moment to the
	 * next, and a fixed order would turn that into a bias.
	 */
	for (i = 0; i < ROUNDS; i++) {
		if (i % 2 == 0)
			without = burn(ncpu, window_ns, 0, NULL);
		snprintf(dir, sizeof dir, "%s/rbperf-obs-%ld-%d",
		    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", (long)getpid(),
		    i);
		if ((pid = observer_start(prog, dir, srcopts)) == -1) {
			printf("observer_cost_%s_1hz=skipped (sample failed: "
			    "run `%s sample --count 1 %s ...` to see why)\n",
			    key, prog, srcopts[0] != NULL ? srcopts[0] : "");
			return;
		}
		with = burn(ncpu, window_ns, pid, &cpu);
		observer_stop(pid, dir);
		if (i % 2 == 1)
			without = burn(ncpu, window_ns, 0, NULL);
		cost[i] = 1 - with / without;
		share[i] = cpu / ((double)window_ns / 1e9 * ncpu);
	}
	printf("observer_cost_%s_1hz=%.4f\n", key, perf_median(cost, ROUNDS));
	printf("observer_cpu_share_%s_1hz=%.4f\n", key,
	    perf_median(share, ROUNDS));
	fflush(stdout);
}

/*
 * pagetest's pages per second over window_ns, one thread per CPU: the
 * "total" row of `regionbench workload pagetest --format csv`; -1 when it
 * failed.  *obs_cpu gets the CPU seconds observer obs took meanwhile.
 */
static double
pagetest_rate(const char *prog, int ncpu, uint64_t window_ns, pid_t obs,
    double *obs_cpu)
{
	char size[32], threads[16], dur[32], line[512];
	char *argv[] = { (char *)prog, "workload", "pagetest", "--size", size,
	    "--threads", threads, "--duration", dur, "--format",
	    "csv", NULL };
	double rate = -1, c0 = obs != 0 ? proc_cpu_s(obs) : 0, v;
	int fds[2];
	pid_t pid;
	FILE *f;

	snprintf(size, sizeof size, "%dM", 256 * ncpu);
	snprintf(threads, sizeof threads, "%d", ncpu);
	snprintf(dur, sizeof dur, "%.3fs", (double)window_ns / 1e9);
	if (pipe(fds) == -1 || (pid = fork()) == -1)
		die_errno(3, "pagetest");
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 1);
		execv(prog, argv);
		_exit(127);
	}
	close(fds[1]);
	if ((f = fdopen(fds[0], "r")) == NULL)
		die_errno(3, "fdopen");
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "workload,pagetest,total,pages_per_s,%lf",
		    &v) == 1)
			rate = v;
	}
	fclose(f);
	while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
		;
	if (obs != 0)
		*obs_cpu = proc_cpu_s(obs) - c0;
	return (rate);
}

/*
 * run's default scanning against none, on pagetest: interleaved rounds,
 * the order alternating as in measure().
 */
static void
measure_default(const char *prog, int ncpu, uint64_t window_ns)
{
	static char *def[] = { "--source", "kpageflags", NULL };
	double cost[ROUNDS], share[ROUNDS], without = -1, with, cpu = 0;
	char dir[4096];
	const char *tmp = getenv("TMPDIR");
	pid_t pid;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		if (i % 2 == 0)
			without = pagetest_rate(prog, ncpu, window_ns, 0, NULL);
		snprintf(dir, sizeof dir, "%s/rbperf-obs-default-%ld-%d",
		    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", (long)getpid(),
		    i);
		if ((pid = observer_start(prog, dir, def)) == -1) {
			printf("observer_cost_default_1hz=skipped (sample "
			    "failed: run `%s sample --count 1 --source "
			    "kpageflags` to see why)\n", prog);
			return;
		}
		with = pagetest_rate(prog, ncpu, window_ns, pid, &cpu);
		observer_stop(pid, dir);
		if (i % 2 == 1)
			without = pagetest_rate(prog, ncpu, window_ns, 0, NULL);
		if (with <= 0 || without <= 0) {
			printf("observer_cost_default_1hz=skipped (pagetest "
			    "failed: run `%s workload pagetest` to see why)\n",
			    prog);
			return;
		}
		cost[i] = 1 - with / without;
		share[i] = cpu / ((double)window_ns / 1e9 * ncpu);
		fprintf(stderr, "perf-observer: default round %d: %.0f pages/s "
		    "without, %.0f with, sampler CPU %.2f s\n", i + 1, without,
		    with, cpu);
	}
	printf("observer_cost_default_1hz=%.4f\n", perf_median(cost, ROUNDS));
	printf("observer_cpu_share_default_1hz=%.4f\n",
	    perf_median(share, ROUNDS));
	fflush(stdout);
}

/* Sections: kpageflags, frac05, procfs, default; all without arguments. */
int
main(int argc, char **argv)
{
	static char *full[] = { "--source", "kpageflags", "--scan-rotation",
	    "1", NULL };
	static char *frac[] = { "--source", "kpageflags", "--scan-fraction",
	    "0.05", "--full-scan-every", "10", NULL };
	static char *procfs[] = { "--source", "zone", NULL };
	const char *prog = getenv("REGIONBENCH"), *secs;
	uint64_t window_ns = 10ULL * 1000000000;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), i, all = argc < 2;
	int want[4] = { all, all, all, all };

	log_set_program("perf-observer");
	if (ncpu > 256)
		ncpu = 256;
	if (prog == NULL || *prog == '\0')
		prog = "bench/regionbench";
	if ((secs = getenv("PERF_OBSERVER_SECONDS")) != NULL)
		window_ns = (uint64_t)(atof(secs) * 1e9);
	for (i = 1; i < argc; i++) {
		want[0] |= strcmp(argv[i], "kpageflags") == 0;
		want[1] |= strcmp(argv[i], "frac05") == 0;
		want[2] |= strcmp(argv[i], "procfs") == 0;
		want[3] |= strcmp(argv[i], "default") == 0;
	}
	if ((want[0] || want[1] || want[3]) && geteuid() != 0)
		printf("observer_cost_kpageflags_1hz=skipped (not root)\n");
	else {
		if (want[3])
			measure_default(prog, ncpu, window_ns);
		if (want[0])
			measure(prog, "kpageflags", full, ncpu, window_ns);
		if (want[1])
			measure(prog, "kpageflags_frac05", frac, ncpu,
			    window_ns);
	}
	if (want[2])
		measure(prog, "procfs", procfs, ncpu, window_ns);
	return (0);
}
