/*
 * make perf: how fast is `regionbench analyze` on a long run?  Generates a
 * one-hour, 10 Hz, 50-region results directory (1.8 M samples.csv rows;
 * buddy.csv at 1 Hz, 11 orders: 1.98 M rows) in a temporary directory,
 * then times, interleaved, the whole analyze command and, where
 * /usr/bin/python3 has pandas, tests/pandas-means.py computing the same
 * per-phase means.  Medians of 5.  Prints key=value lines:
 *   analyze_seconds      whole `regionbench analyze DIR --format csv`
 *   analyze_rows_per_s   CSV rows read per second by that command
 *   analyze_cpu_seconds  its user + system CPU time (steadier when the
 *                        host is busy)
 *   analyze_vs_pandas    pandas seconds / analyze seconds (> 1: faster),
 *                        and analyze_vs_pandas_cpu the same in CPU time
 * "perf-analyze --generate DIR" only writes the run into DIR (which must
 * exist), for profiling.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "perf.h"
#include "units.h"

#define REGIONS		50
#define HZ		10
#define SECONDS		3600
#define PRESENT		131072	/* 512 MiB of 4 KiB pages */
#define ORDERS		11
#define ROUNDS		5

/* Used pages of region r at second t: a fill that sweeps up and back. */
static uint64_t
gen_used(int r, double t)
{
	double level, phase = t / SECONDS;

	/* Fill to 60% of the regions in the first half, drain in the second. */
	level = (phase < 0.5 ? phase * 2 : (1 - phase) * 2) * 0.6 * REGIONS;
	level += 0.05 * REGIONS * sin(t / 7.0);
	if (level <= r)
		return (r % 7 == 0 ? 300 : 0);	/* kernel residue */
	if (level >= r + 1)
		return (PRESENT - 100 * (r % 3));
	return ((uint64_t)((level - r) * PRESENT));
}

/* Open a file in dir for writing with a big buffer, or die. */
static FILE *
gen_open(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	if (f == NULL)
		die_errno(RB_EXIT_ENV, "%s", path);
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	free(path);
	return (f);
}

/* Write the whole results directory. */
static void
gen_results(const char *dir)
{
	FILE *meta, *regions, *samples, *buddy, *events;
	uint64_t used, free_pages, high, rest;
	const char *phase;
	double t;
	int s, r, o;

	meta = gen_open(dir, "meta.json");
	fprintf(meta, "{\"schema_version\": 1, \"tool\": {\"name\": "
	    "\"regionbench\", \"version\": \"perf\"}, \"command\": \"run\", "
	    "\"label\": \"perf\", \"host\": \"perf\", \"kernel\": "
	    "{\"release\": \"perf\"}, \"page_size\": 4096, "
	    "\"region_size_bytes\": 536870912, \"source\": {\"name\": "
	    "\"kpageflags\"}, \"status\": \"complete\", \"phases\": "
	    "[\"fill\", \"drain\"]}\n");
	fclose(meta);
	regions = gen_open(dir, "regions.csv");
	fprintf(regions, "node,region,zone,start_pfn,spanned_pages,"
	    "present_pages,managed_pages\n");
	for (r = 0; r < REGIONS; r++)
		fprintf(regions, "0,%d,Normal,%d,%d,%d,%d\n", r, r * PRESENT,
		    PRESENT, PRESENT, PRESENT);
	fclose(regions);
	samples = gen_open(dir, "samples.csv");
	buddy = gen_open(dir, "buddy.csv");
	fprintf(samples, "t_s,phase,node,region,zone,present_pages,"
	    "free_pages,managed_pages,anon_pages,file_pages,slab_pages,"
	    "pgtable_pages,other_pages\n");
	fprintf(buddy, "t_s,phase,node,region,zone,order,free_blocks\n");
	for (s = 0; s < SECONDS * HZ; s++) {
		t = (double)s / HZ;
		phase = s < SECONDS * HZ / 2 ? "fill" : "drain";
		for (r = 0; r < REGIONS; r++) {
			used = gen_used(r, t);
			free_pages = PRESENT - used;
			fprintf(samples,
			    "%.3f,%s,0,%d,Normal,%d,%llu,%d,,,,,\n", t, phase,
			    r, PRESENT, (unsigned long long)free_pages,
			    PRESENT);
			if (s % HZ != 0)
				continue;
			/* Free memory: whole order-10 blocks, then order 0. */
			high = free_pages / 1024;
			rest = free_pages - high * 1024;
			for (o = 0; o < ORDERS; o++)
				fprintf(buddy, "%.3f,%s,0,%d,Normal,%d,%llu\n",
				    t, phase, r, o, (unsigned long long)
				    (o == 10 ? high : o == 0 ? rest : 0));
		}
	}
	if (fclose(samples) != 0 || fclose(buddy) != 0)
		die_errno(RB_EXIT_ENV, "writing %s", dir);
	events = gen_open(dir, "events.csv");
	fprintf(events, "t_s,event,detail,phase\n0.000,phase_start,,fill\n"
	    "1800.000,phase_end,,fill\n1800.000,phase_start,,drain\n"
	    "3600.000,phase_end,,drain\n");
	fclose(events);
}

/*
 * Run argv with stdout to out (NULL: /dev/null); elapsed seconds, or -1.
 * *cpu gets the child's user + system seconds (steadier on a busy host).
 */
static double
run_timed(char *const argv[], const char *out, double *cpu)
{
	uint64_t start = units_now_ns();
	struct rusage ru;
	int status, fd;
	pid_t pid;

	if ((pid = fork()) == -1)
		die_errno(RB_EXIT_ENV, "fork");
	if (pid == 0) {
		fd = open(out != NULL ? out : "/dev/null",
		    O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd == -1 || dup2(fd, 1) == -1)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) == -1)
		if (errno != EINTR)
			die_errno(RB_EXIT_ENV, "wait4");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return (-1);
	if (cpu != NULL)
		*cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return ((units_now_ns() - start) / 1e9);
}

/* A value from a "phase,metric,value[,unit]" file, or NAN. */
static double
lookup(const char *path, const char *phase, const char *metric)
{
	char line[512], *want = xasprintf("%s,%s,", phase, metric);
	double v = NAN;
	FILE *f;

	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof line, f) != NULL)
			if (strncmp(line, want, strlen(want)) == 0) {
				v = strtod(line + strlen(want), NULL);
				break;
			}
		fclose(f);
	}
	free(want);
	return (v);
}

int
main(int argc, char **argv)
{
	static const char *const checks[][2] = {
		{ "fill", "used_pages.mean" },
		{ "drain", "active_regions.mean" },
		{ "fill", "usable_free_share.mean" }
	};
	const char *srcdir = TOP_SRCDIR;
	char tmpl[] = "/tmp/rbperf.XXXXXX", *dir, *script, *summary, *pdout;
	char *rb_argv[5], *py_argv[4];
	double ta[ROUNDS], tp[ROUNDS], ca[ROUNDS], cp[ROUNDS], rows, a, p;
	int i, have_pandas, agree = 1;

	/* "--generate DIR" only writes the run, for profiling by hand. */
	if (argc == 3 && strcmp(argv[1], "--generate") == 0) {
		gen_results(argv[2]);
		return (0);
	}
	if ((dir = mkdtemp(tmpl)) == NULL)
		die_errno(RB_EXIT_ENV, "mkdtemp");
	gen_results(dir);
	rows = (double)SECONDS * HZ * REGIONS + SECONDS * REGIONS * ORDERS +
	    REGIONS + 4;
	rb_argv[0] = "bench/regionbench";
	rb_argv[1] = "analyze";
	rb_argv[2] = dir;
	rb_argv[3] = "--format=csv";
	rb_argv[4] = NULL;
	script = xasprintf("%s/tests/pandas-means.py", srcdir);
	pdout = xasprintf("%s/pandas.out", dir);
	summary = xasprintf("%s/summary.csv", dir);
	py_argv[0] = "/usr/bin/python3";
	py_argv[1] = script;
	py_argv[2] = dir;
	py_argv[3] = NULL;
	have_pandas = access(py_argv[0], X_OK) == 0 &&
	    system("/usr/bin/python3 -c 'import pandas' 2>/dev/null") == 0;

	/* Warm the page cache and check that both agree. */
	if (run_timed(rb_argv, NULL, NULL) < 0)
		die(RB_EXIT_FAIL, "regionbench analyze %s failed", dir);
	if (have_pandas) {
		if (run_timed(py_argv, pdout, NULL) < 0)
			die(RB_EXIT_FAIL, "%s failed", script);
		for (i = 0; i < 3; i++) {
			a = lookup(summary, checks[i][0], checks[i][1]);
			p = lookup(pdout, checks[i][0], checks[i][1]);
			if (!(fabs(a - p) <= 1e-6 * fmax(1, fabs(a)))) {
				fprintf(stderr, "perf-analyze: %s %s: analyze "
				    "%.9g, pandas %.9g\n", checks[i][0],
				    checks[i][1], a, p);
				agree = 0;
			}
		}
	}
	for (i = 0; i < ROUNDS; i++) {
		ta[i] = run_timed(rb_argv, NULL, &ca[i]);
		if (have_pandas)
			tp[i] = run_timed(py_argv, NULL, &cp[i]);
	}
	a = perf_median(ta, ROUNDS);
	printf("analyze_seconds=%.3f\n", a);
	printf("analyze_rows_per_s=%.0f\n", rows / a);
	printf("analyze_cpu_seconds=%.3f\n", perf_median(ca, ROUNDS));
	if (have_pandas) {
		p = perf_median(tp, ROUNDS);
		printf("pandas_seconds=%.3f\n", p);
		printf("analyze_vs_pandas=%.2f\n", p / a);
		printf("analyze_vs_pandas_cpu=%.2f\n", perf_median(cp, ROUNDS) /
		    perf_median(ca, ROUNDS));
		printf("analyze_pandas_means_agree=%s\n", agree ? "yes" : "no");
	} else
		printf("# analyze_vs_pandas skipped: /usr/bin/python3 cannot "
		    "import pandas (apt-get install python3-pandas)\n");
	free(script);
	free(pdout);
	free(summary);
	if (system(NULL) != 0) {
		char *rm = xasprintf("rm -rf '%s'", dir);

		if (system(rm) != 0)
			log_warnx("could not remove %s", dir);
		free(rm);
	}
	return (agree ? 0 : 1);
}
