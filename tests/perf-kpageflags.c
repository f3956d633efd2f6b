/*
 * make perf: cost of the kpageflags source and of placement on this
 * machine (root only).  kpageflags_scan_ratio is the median time of one
 * full sample (scan with classification, zoneinfo around it) over the
 * median time of plain sequential preads of the same byte ranges of
 * /proc/kpageflags, interleaved in the same run; _2t is the same with two
 * scan threads.  placement_pages_per_s scans a child holding 1 GiB.
 * kpageflags_allocs_per_sample counts malloc calls per sample after the
 * first (must be 0: everything is set up at open).
 *
 * The scale part needs no root: it writes the proc and sys trees of a
 * 1 TiB, two-node machine (268 Mi pfns; a 2 GiB sparse kpageflags file)
 * into a temporary directory, removed afterwards, and times the scanner
 * over it: kpageflags_1tib_scan_s with one thread, _2t_s with two and
 * _frac_s with --scan-fraction 0.05 (a sampled scan), the estimate made
 * at open, and the process's peak
 * resident memory (kpageflags_scan_peak_rss_mib), which the fixed 4 MiB
 * batches keep independent of the memory size.  The file reads from the
 * page cache, so this is the scanner's own cost, not the kernel's work
 * behind /proc/kpageflags (about 23 ns per pfn on one thread).
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kpf-tree.h"

#include "log.h"
#include "perf.h"
#include "placement.h"
#include "procfile.h"
#include "procfs.h"
#include "region-map.h"
#include "src-kpageflags.h"
#include "units.h"

#define PERF_ROUNDS	11
#define PERF_BATCH	(4 << 20)
#define PERF_CHILD_MB	1024
#define PERF_BIG_GIB	1024
#define PERF_BIG_ROUNDS	3

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static volatile unsigned long perf_allocs;

/* Count every allocation of the process (interposes libc's). */
void *
malloc(size_t size)
{
	perf_allocs++;
	return (__libc_malloc(size));
}

/* Counted calloc. */
void *
calloc(size_t n, size_t size)
{
	perf_allocs++;
	return (__libc_calloc(n, size));
}

/* Counted realloc. */
void *
realloc(void *p, size_t size)
{
	perf_allocs++;
	return (__libc_realloc(p, size));
}

/* Open the kpageflags source on this machine; exit quietly on failure. */
static void
perf_open(struct source *src, int threads)
{
	static struct src_kpageflags_settings set[2];
	static int nset;
	char *cause = NULL;

	memset(src, 0, sizeof *src);
	src->ops = &src_kpageflags_ops;
	snprintf(src->cfg.proc_root, sizeof src->cfg.proc_root, "/proc");
	snprintf(src->cfg.sys_root, sizeof src->cfg.sys_root, "/sys");
	set[nset % 2].region_bytes = 512 << 20;
	set[nset % 2].scan_threads = threads;
	src->settings = &set[nset++ % 2];
	procfile_init(&src->zoneinfo);
	procfile_init(&src->buddyinfo);
	if (src->ops->open(src, &cause) != 0)
		die(RB_EXIT_ENV, "perf-kpageflags: %s", cause);
}

/* One sample of the source, in seconds. */
static double
perf_sample(struct source *src, struct snapshot *snap)
{
	uint64_t t0 = units_now_ns();
	char *cause = NULL;

	if (src->ops->read(src, snap, 0, &cause) != 0)
		die(RB_EXIT_ENV, "perf-kpageflags: %s", cause);
	return ((units_now_ns() - t0) / 1e9);
}

/* Open the source on a tree with the given scan settings. */
static int
perf_open_tree(struct source *src, struct src_kpageflags_settings *set,
    const char *tree, int threads, double fraction, char **cause)
{
	memset(src, 0, sizeof *src);
	memset(set, 0, sizeof *set);
	src->ops = &src_kpageflags_ops;
	if (snprintf(src->cfg.proc_root, sizeof src->cfg.proc_root, "%s/proc",
	    tree) >= (int)sizeof src->cfg.proc_root ||
	    snprintf(src->cfg.sys_root, sizeof src->cfg.sys_root, "%s/sys",
	    tree) >= (int)sizeof src->cfg.sys_root)
		return (-1);
	set->region_bytes = 512 << 20;
	set->scan_threads = threads;
	set->scan_fraction = fraction;
	set->full_scan_every = 1000000;
	set->scan_seed = 1;
	src->settings = set;
	procfile_init(&src->zoneinfo);
	procfile_init(&src->buddyinfo);
	return (src->ops->open(src, cause));
}

/* Median seconds of the sampled (or full) scans of one setting. */
static double
perf_big_scan(const char *tree, int threads, double fraction, double *est)
{
	struct src_kpageflags_settings set;
	struct snapshot snap;
	struct source src;
	double t[PERF_BIG_ROUNDS];
	char *cause = NULL, *basis, *advice;
	int i;

	snapshot_init(&snap);
	if (perf_open_tree(&src, &set, tree, threads, fraction, &cause) != 0)
		die(RB_EXIT_ENV, "perf-kpageflags: %s", cause);
	if (est != NULL) {
		*est = source_estimate(&src, 0, &basis, &advice);
		free(basis);
		free(advice);
	}
	/* The first sample is always a full scan. */
	if (fraction < 1)
		perf_sample(&src, &snap);
	for (i = 0; i < PERF_BIG_ROUNDS; i++)
		t[i] = perf_sample(&src, &snap);
	src.ops->close(&src);
	procfile_free(&src.zoneinfo);
	procfile_free(&src.buddyinfo);
	snapshot_free(&snap);
	return (perf_median(t, PERF_BIG_ROUNDS));
}

/*
 * The scale benchmark: a 1 TiB machine written to a temporary directory
 * when the file system has room for its kpageflags file (sparse, but not
 * every file system keeps holes).
 */
static void
perf_big(void)
{
	const char *tmp = getenv("TMPDIR");
	uint64_t need = (uint64_t)PERF_BIG_GIB << 21, room;
	char dir[128], cmd[160];
	struct statvfs sv;
	struct rusage ru;
	double est, one, two, frac, rss0;

	snprintf(dir, sizeof dir, "%s/perf-kpf.XXXXXX", tmp != NULL ? tmp :
	    "/tmp");
	if (mkdtemp(dir) == NULL) {
		printf("kpageflags_1tib_scan_s=skipped (mkdtemp %s: %s)\n", dir,
		    strerror(errno));
		return;
	}
	/* Room for the whole file and the rest, as df would count it. */
	room = statvfs(dir, &sv) == 0 ? (uint64_t)sv.f_bavail * sv.f_frsize :
	    0;
	if (room < need + (256ULL << 20)) {
		printf("kpageflags_1tib_scan_s=skipped (%s has %llu MiB free, "
		    "the 1 TiB tree needs %llu MiB)\n", dir,
		    (unsigned long long)(room >> 20),
		    (unsigned long long)(need >> 20));
		rmdir(dir);
		return;
	}
	getrusage(RUSAGE_SELF, &ru);
	rss0 = ru.ru_maxrss / 1024.0;
	if (kpf_tree_build_big(dir, PERF_BIG_GIB) != 0) {
		printf("kpageflags_1tib_scan_s=skipped (writing the tree in "
		    "%s: %s)\n", dir, strerror(errno));
	} else {
		one = perf_big_scan(dir, 1, 1, &est);
		two = perf_big_scan(dir, 2, 1, NULL);
		frac = perf_big_scan(dir, 1, 0.05, NULL);
		printf("kpageflags_1tib_pfns=%llu\n",
		    (unsigned long long)PERF_BIG_GIB << 18);
		printf("kpageflags_1tib_estimate_s=%.3f\n", est);
		printf("kpageflags_1tib_scan_s=%.3f\n", one);
		printf("kpageflags_1tib_scan_2t_s=%.3f\n", two);
		printf("kpageflags_1tib_scan_fraction=0.05\n");
		printf("kpageflags_1tib_scan_frac_s=%.3f\n", frac);
		getrusage(RUSAGE_SELF, &ru);
		printf("kpageflags_scan_peak_rss_mib=%.1f\n", ru.ru_maxrss /
		    1024.0);
		/* What the scans added to the process (buffers, counters). */
		printf("kpageflags_scan_rss_growth_mib=%.1f\n",
		    ru.ru_maxrss / 1024.0 - rss0);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "perf-kpageflags: could not remove %s\n", dir);
}

/* The baseline: read the same online byte ranges with plain preads. */
static double
perf_plain(const struct region_map *map, char *buf)
{
	uint64_t t0 = units_now_ns(), p, end, n;
	int fd, s;

	if ((fd = open("/proc/kpageflags", O_RDONLY)) == -1)
		die_errno(RB_EXIT_ENV, "/proc/kpageflags");
	for (s = 0; s < map->nsegs; s++) {
		if (!map->blocks[map->segs[s].block].online)
			continue;
		p = map->segs[s].start_pfn;
		end = map->segs[s].end_pfn;
		while (s + 1 < map->nsegs && map->segs[s + 1].start_pfn ==
		    end && map->blocks[map->segs[s + 1].block].online)
			end = map->segs[++s].end_pfn;
		for (; p < end; p += n) {
			n = end - p;
			if (n > PERF_BATCH / 8)
				n = PERF_BATCH / 8;
			if (pread(fd, buf, n * 8, (off_t)(p * 8)) <= 0)
				break;
		}
	}
	close(fd);
	return ((units_now_ns() - t0) / 1e9);
}

/* Pages per second of placement over a child holding 1 GiB. */
static double
perf_placement(const struct region_map *map)
{
	size_t len = (size_t)PERF_CHILD_MB << 20, off;
	struct placement_result r;
	struct placement pl;
	double rate[PERF_ROUNDS];
	char *cause = NULL, c, *p;
	int fds[2], i;
	pid_t pid;

	if (pipe(fds) == -1)
		die_errno(RB_EXIT_ENV, "pipe");
	if ((pid = fork()) == 0) {
		close(fds[0]);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		for (off = 0; off < len; off += 4096)
			p[off] = 1;
		if (write(fds[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1)
		die(RB_EXIT_ENV, "perf-kpageflags: child failed");
	placement_init(&pl, "/proc", map);
	placement_result_init(&r, map);
	for (i = 0; i < PERF_ROUNDS; i++) {
		if (placement_scan(&pl, pid, &r, &cause) != 0)
			die(RB_EXIT_ENV, "perf-kpageflags: %s", cause);
		rate[i] = r.pages / (r.scan_ns / 1e9);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	placement_result_free(&r);
	placement_free(&pl);
	return (perf_median(rate, PERF_ROUNDS));
}

int
main(void)
{
	double plain[PERF_ROUNDS], one[PERF_ROUNDS], two[PERF_ROUNDS];
	struct source src1, src2;
	struct snapshot snap;
	double m0, m1, m2;
	unsigned long allocs = 0;
	char *buf;
	int i, fd;

	log_set_program("perf-kpageflags");
	/* First, while the process is small: its peak RSS is the scanner's. */
	perf_big();
	if (geteuid() != 0 || (fd = open("/proc/kpageflags", O_RDONLY)) == -1) {
		printf("# perf-kpageflags: skipped (needs root and "
		    "/proc/kpageflags)\n");
		return (0);
	}
	close(fd);
	buf = xmalloc(PERF_BATCH);
	snapshot_init(&snap);
	perf_open(&src1, 1);
	perf_open(&src2, 2);
	/* Warm up: first reads pay for page cache and lazy allocations. */
	perf_sample(&src1, &snap);
	perf_sample(&src2, &snap);
	perf_plain(source_region_map(&src1), buf);
	for (i = 0; i < PERF_ROUNDS; i++) {
		plain[i] = perf_plain(source_region_map(&src1), buf);
		allocs -= perf_allocs;
		one[i] = perf_sample(&src1, &snap);
		two[i] = perf_sample(&src2, &snap);
		allocs += perf_allocs;
	}
	m0 = perf_median(plain, PERF_ROUNDS);
	m1 = perf_median(one, PERF_ROUNDS);
	m2 = perf_median(two, PERF_ROUNDS);
	printf("kpageflags_plain_read_s=%.4f\n", m0);
	printf("kpageflags_scan_s=%.4f\n", m1);
	printf("kpageflags_scan_2t_s=%.4f\n", m2);
	printf("kpageflags_scan_ratio=%.3f\n", m1 / m0);
	printf("kpageflags_scan_ratio_2t=%.3f\n", m2 / m0);
	printf("kpageflags_allocs_per_sample=%.3f\n",
	    (double)allocs / (2 * PERF_ROUNDS));
	printf("placement_pages_per_s=%.0f\n",
	    perf_placement(source_region_map(&src1)));
	src1.ops->close(&src1);
	src2.ops->close(&src2);
	procfile_free(&src1.zoneinfo);
	procfile_free(&src1.buddyinfo);
	procfile_free(&src2.zoneinfo);
	procfile_free(&src2.buddyinfo);
	snapshot_free(&snap);
	free(buf);
	return (0);
}
