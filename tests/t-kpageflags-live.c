/*
 * The kpageflags source and placement on this machine's /proc (root only):
 * per-zone free pages counted from kpageflags against zoneinfo read around
 * the scan, a child that touches 256 MiB found by placement, and one that
 * touches 1 MiB over a 64 GiB reservation.  The VM is shared and noisy,
 * so the free check is retried a few times.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "placement.h"
#include "procfile.h"
#include "procfs.h"
#include "region-map.h"
#include "src-kpageflags.h"
#include "tap.h"

#define LIVE_TRIES	8
#define LIVE_CHILD_MB	256
/* The kernel never sets a per-CPU vmstat threshold above 125. */
#define LIVE_MAX_THRESHOLD 125

/* Read and parse /proc/zoneinfo. */
static int
live_zoneinfo(struct procfile *pf, struct snapshot *snap)
{
	char *cause = NULL;

	snapshot_reset(snap);
	if (procfile_read(pf, "/proc", "zoneinfo", &cause) != 0 ||
	    procfs_parse_zoneinfo(snap, pf->path, pf->buf, pf->len,
	    &cause) != 0) {
		tap_diag("zoneinfo: %s", cause);
		free(cause);
		return (-1);
	}
	return (0);
}

/*
 * Is every zone's counted free inside [before, after] widened by slack?
 * zoneinfo's side is its free pages plus its per-CPU list pages.
 */
static int
live_free_ok(const struct snapshot *snap, const struct snapshot *before,
    const struct snapshot *after, uint64_t slack)
{
	const struct snap_entry *b, *a;
	uint64_t counted, lo, hi, fb, fa;
	int i, j, ok = 1;

	for (i = 0; i < before->nentries; i++) {
		b = &before->entries[i];
		if (b->spanned == 0)
			continue;
		a = snapshot_find((struct snapshot *)after, b->node, -1,
		    b->zone);
		if (a == NULL)
			return (0);
		counted = 0;
		for (j = 0; j < snap->nentries; j++) {
			if (snap->entries[j].node == b->node &&
			    strcmp(snap->entries[j].zone, b->zone) == 0)
				counted += snap->entries[j].free_pages;
		}
		/* Free pages include the per-CPU lists (count: lines). */
		fb = b->free_pages + b->pcp_pages;
		fa = a->free_pages + a->pcp_pages;
		lo = fb < fa ? fb : fa;
		hi = fb < fa ? fa : fb;
		lo = lo > slack ? lo - slack : 0;
		hi += slack;
		if (counted < lo || counted > hi) {
			tap_diag("node %d zone %s: counted %llu, zoneinfo %llu "
			    "before, %llu after (slack %llu)", b->node, b->zone,
			    (unsigned long long)counted,
			    (unsigned long long)fb, (unsigned long long)fa,
			    (unsigned long long)slack);
			ok = 0;
		}
	}
	return (ok);
}

/* Scan the machine a few times until one scan matches zoneinfo. */
static void
test_free(int threads)
{
	struct snapshot snap, before, after;
	struct src_kpageflags_settings set = { 0 };
	struct procfile pf;
	struct source src;
	const struct snap_entry *e, *z;
	uint64_t slack = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN) *
	    LIVE_MAX_THRESHOLD, sum, managed;
	char *cause = NULL;
	int try, ok = 0, sums = 1, quiet = 1, i, j, rc;

	memset(&src, 0, sizeof src);
	snapshot_init(&snap);
	snapshot_init(&before);
	snapshot_init(&after);
	procfile_init(&pf);
	procfile_init(&src.zoneinfo);
	procfile_init(&src.buddyinfo);
	src.ops = &src_kpageflags_ops;
	snprintf(src.cfg.proc_root, sizeof src.cfg.proc_root, "/proc");
	snprintf(src.cfg.sys_root, sizeof src.cfg.sys_root, "/sys");
	set.region_bytes = 512 << 20;
	set.scan_threads = threads;
	src.settings = &set;
	rc = src.ops->open(&src, &cause);
	if (!tap_ok(rc == 0, "%d thread(s): open (%s)", threads,
	    cause ? cause : "ok"))
		return;
	for (try = 0; try < LIVE_TRIES && !ok; try++) {
		if (live_zoneinfo(&pf, &before) != 0 ||
		    src.ops->read(&src, &snap, 0, &cause) != 0 ||
		    live_zoneinfo(&pf, &after) != 0) {
			tap_diag("read: %s", cause ? cause : "");
			break;
		}
		ok = live_free_ok(&snap, &before, &after, slack);
	}
	tap_ok(ok, "%d thread(s): per-zone free pages match zoneinfo within "
	    "the window (%d tries)", threads, try);
	for (i = 0; i < snap.nentries; i++) {
		e = &snap.entries[i];
		sum = e->free_pages;
		for (j = 0; j < SNAP_USED_NCLASS; j++)
			sum += e->used[j];
		if (sum != e->present || e->managed > e->present) {
			sums = 0;
			tap_diag("%d/%d/%s: free + used %llu, present %llu",
			    e->node, e->region, e->zone,
			    (unsigned long long)sum,
			    (unsigned long long)e->present);
		}
	}
	tap_ok(sums, "%d thread(s): free + used classes = present in every "
	    "key", threads);
	/* DMA and DMA32 are idle here: their managed pages must match. */
	for (i = 0; i < after.nentries; i++) {
		z = &after.entries[i];
		if (strcmp(z->zone, "DMA") != 0 &&
		    strcmp(z->zone, "DMA32") != 0)
			continue;
		if (z->spanned == 0)
			continue;
		managed = 0;
		for (j = 0; j < snap.nentries; j++) {
			if (snap.entries[j].node == z->node &&
			    strcmp(snap.entries[j].zone, z->zone) == 0)
				managed += snap.entries[j].managed;
		}
		if (managed != z->managed) {
			quiet = 0;
			tap_diag("%s: managed %llu, zoneinfo %llu", z->zone,
			    (unsigned long long)managed,
			    (unsigned long long)z->managed);
		}
	}
	tap_ok(quiet, "%d thread(s): managed pages of DMA and DMA32 match "
	    "zoneinfo", threads);
	src.ops->close(&src);
	procfile_free(&src.zoneinfo);
	procfile_free(&src.buddyinfo);
	procfile_free(&pf);
	snapshot_free(&snap);
	snapshot_free(&before);
	snapshot_free(&after);
}

/* A "Vm...: N kB" line of /proc/PID/status, in pages. */
static uint64_t
live_status_pages(pid_t pid, const char *field)
{
	char path[64], line[256];
	unsigned long long kb = 0;
	size_t len = strlen(field);
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (0);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, field, len) == 0 && line[len] == ':' &&
		    sscanf(line + len + 1, "%llu kB", &kb) == 1)
			break;
	}
	fclose(f);
	return (kb * 1024 / (uint64_t)sysconf(_SC_PAGESIZE));
}

/* Resident set of a process, in pages. */
static uint64_t
live_rss(pid_t pid)
{
	return (live_status_pages(pid, "VmRSS"));
}

/*
 * This machine's region map of 512 MiB regions, from zoneinfo read into
 * pf and zones (both initialised here, freed by the caller); -1 with a
 * failed test named after tag.
 */
static int
live_region_map(struct procfile *pf, struct snapshot *zones,
    struct region_map *map, const char *tag)
{
	struct region_map_config cfg;
	char *cause = NULL;

	procfile_init(pf);
	snapshot_init(zones);
	memset(&cfg, 0, sizeof cfg);
	cfg.sys_root = "/sys";
	cfg.region_size = 512 << 20;
	if (live_zoneinfo(pf, zones) != 0 ||
	    region_map_build(map, &cfg, zones, &cause) != 0) {
		tap_ok(0, "%s: region map (%s)", tag, cause ? cause : "");
		free(cause);
		return (-1);
	}
	return (0);
}

/* Huge pages of a process from smaps_rollup, in kB. */
static uint64_t
live_anon_huge_kb(pid_t pid)
{
	char path[64], line[256];
	unsigned long long kb = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (0);
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "AnonHugePages: %llu kB", &kb) == 1)
			break;
	}
	fclose(f);
	return (kb);
}

/*
 * A child maps 256 MiB and only reads it (in huge pages when thp is set):
 * every page maps the shared zero page (or the huge zero page), which is
 * no memory of the child's.  placement must count what VmRSS counts and
 * report the zero page's mappings apart; page_by_page reads pagemap
 * without PAGEMAP_SCAN, as on kernels before 6.7.
 */
static void
test_placement_read(int thp, int page_by_page)
{
	size_t len = (size_t)LIVE_CHILD_MB << 20;
	struct placement_result r;
	struct region_map map;
	struct placement pl;
	struct snapshot zones;
	struct procfile pf;
	uint64_t rss, want, slack, zero_elsewhere;
	char tag[64], *cause = NULL, c;
	volatile char sum = 0;
	int fds[2], rc;
	pid_t pid;
	char *p;

	snprintf(tag, sizeof tag, "read-only placement%s%s", thp ? " (THP)" :
	    "", page_by_page ? " (page by page)" : "");
	if (pipe(fds) == -1)
		return;
	if ((pid = fork()) == 0) {
		close(fds[0]);
		p = mmap(NULL, len + (2 << 20), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		p = (char *)(((uintptr_t)p + (2 << 20) - 1) &
		    ~(uintptr_t)((2 << 20) - 1));
		madvise(p, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
		for (size_t off = 0; off < len; off += 4096)
			sum += p[off];
		if (write(fds[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(sum);
	}
	close(fds[1]);
	if (!tap_ok(read(fds[0], &c, 1) == 1, "%s: child read %d MiB", tag,
	    LIVE_CHILD_MB)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return;
	}
	if (live_region_map(&pf, &zones, &map, tag) != 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return;
	}
	placement_init(&pl, "/proc", &map);
	pl.no_present_scan = page_by_page;
	placement_result_init(&r, &map);
	rc = placement_scan(&pl, pid, &r, &cause);
	tap_ok(rc == 0 && !r.exited, "%s: scan of the child (%s)", tag,
	    cause ? cause : "ok");
	rss = live_rss(pid);
	want = len / (uint64_t)sysconf(_SC_PAGESIZE);
#ifdef __SANITIZE_ADDRESS__
	/*
	 * ASan's shadow of what the child read (a byte per 8) is read too,
	 * and maps the zero page as well.
	 */
	zero_elsewhere = want / 8 + 64;
#else
	zero_elsewhere = 0;
#endif
	slack = rss / 100 + 64;
	tap_ok(r.pages <= rss + slack && r.pages + slack >= rss, "%s: "
	    "resident pages %llu match VmRSS %llu (within 1 %% and 64 pages)",
	    tag, (unsigned long long)r.pages, (unsigned long long)rss);
	tap_ok(r.zero_page_mapped >= want * 99 / 100 &&
	    r.zero_page_mapped <= want + zero_elsewhere, "%s: %llu of the "
	    "%llu pages read map the zero page, counted apart", tag,
	    (unsigned long long)r.zero_page_mapped, (unsigned long long)want);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	placement_result_free(&r);
	placement_free(&pl);
	region_map_free(&map);
	snapshot_free(&zones);
	procfile_free(&pf);
	close(fds[0]);
}

/*
 * A child touches 256 MiB (in transparent huge pages when thp is set);
 * placement must find it all, huge pages as their 4 KiB pages.
 */
static void
test_placement(int thp)
{
	size_t len = (size_t)LIVE_CHILD_MB << 20;
	struct placement_result r;
	struct region_map map;
	struct placement pl;
	struct snapshot zones;
	struct procfile pf;
	uint64_t inkeys = 0, rss, want;
	const char *tag = thp ? "placement (THP)" : "placement";
	char *cause = NULL, c;
	int fds[2], i, rc;
	pid_t pid;
	char *p;

	if (pipe(fds) == -1)
		return;
	if ((pid = fork()) == 0) {
		close(fds[0]);
		p = mmap(NULL, len + (2 << 20), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		p = (char *)(((uintptr_t)p + (2 << 20) - 1) &
		    ~(uintptr_t)((2 << 20) - 1));
		if (thp)
			madvise(p, len, MADV_HUGEPAGE);
		for (size_t off = 0; off < len; off += 4096)
			p[off] = 1;
		if (write(fds[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	if (!tap_ok(read(fds[0], &c, 1) == 1, "%s: child touched %d MiB",
	    tag, LIVE_CHILD_MB)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return;
	}
	if (live_region_map(&pf, &zones, &map, tag) != 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return;
	}
	placement_init(&pl, "/proc", &map);
	placement_result_init(&r, &map);
	rc = placement_scan(&pl, pid, &r, &cause);
	tap_ok(rc == 0 && !r.exited, "%s: scan of the child (%s)", tag,
	    cause ? cause : "ok");
	rss = live_rss(pid);
	if (thp)
		tap_diag("placement (THP): %llu kB in huge pages",
		    (unsigned long long)live_anon_huge_kb(pid));
	for (i = 0; i < r.nkeys; i++)
		inkeys += r.key_pages[i];
	want = len / (uint64_t)sysconf(_SC_PAGESIZE);
	tap_ok(r.pages >= want && inkeys >= r.pages * 99 / 100, "%s: %llu "
	    "of %llu resident pages (%llu touched) are in region keys", tag,
	    (unsigned long long)inkeys, (unsigned long long)r.pages,
	    (unsigned long long)want);
	tap_ok(r.pages + 64 >= rss && r.pages <= rss + 64 + rss / 200,
	    "%s: resident pages %llu match VmRSS %llu", tag,
	    (unsigned long long)r.pages, (unsigned long long)rss);
	tap_diag("%s: %d regions hold >= 1%%, scan took %.1f ms",
	    tag, placement_regions_over(&map, &r, 0.01), r.scan_ns / 1e6);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	tap_ok(placement_scan(&pl, pid, &r, &cause) == 0 && r.exited,
	    "%s: a reaped child is reported as exited", tag);
	placement_result_free(&r);
	placement_free(&pl);
	region_map_free(&map);
	snapshot_free(&zones);
	procfile_free(&pf);
}

/*
 * A child that reserves 64 GiB (MAP_NORESERVE) and touches 64 KiB at the
 * start of every 4 GiB of it, as a sanitizer's shadow or a runtime's heap
 * reservation would: placement counts what VmRSS says, and where the
 * kernel has PAGEMAP_SCAN it reads pagemap only where pages are, so the
 * reservation costs a page-table walk instead of 16 Mi entries.  The
 * same scan read page by page counts the same pages.
 */
static void
test_sparse(void)
{
	const uint64_t span = (uint64_t)64 << 30, step = (uint64_t)4 << 30;
	const size_t chunk = 64 << 10;
	struct placement_result r, full;
	struct region_map map;
	struct placement pl;
	struct snapshot zones;
	struct procfile pf;
	uint64_t rss, reserved;
	char *cause = NULL, c, *p;
	int fds[2], rc, scanned_sparse;
	pid_t pid;

	if (pipe(fds) == -1)
		return;
	if ((pid = fork()) == 0) {
		close(fds[0]);
		p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		madvise(p, span, MADV_NOHUGEPAGE);
		for (uint64_t at = 0; at < span; at += step)
			for (size_t off = 0; off < chunk; off += 4096)
				p[at + off] = 1;
		if (write(fds[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1) {
		/* vm.overcommit_memory=2 refuses the reservation. */
		tap_ok(1, "# SKIP sparse placement: no 64 GiB reservation here");
		waitpid(pid, NULL, 0);
		return;
	}
	if (live_region_map(&pf, &zones, &map, "sparse placement") != 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return;
	}
	placement_init(&pl, "/proc", &map);
	placement_result_init(&r, &map);
	placement_result_init(&full, &map);
	rc = placement_scan(&pl, pid, &r, &cause);
	scanned_sparse = !pl.no_present_scan;
	rss = live_rss(pid);
	reserved = span / (uint64_t)sysconf(_SC_PAGESIZE);
	tap_ok(rc == 0 && !r.exited, "sparse placement: scan of the child "
	    "(%s)", cause ? cause : "ok");
	tap_ok(r.pages + 64 >= rss && r.pages <= rss + 64 + rss / 200,
	    "sparse placement: resident pages %llu match VmRSS %llu",
	    (unsigned long long)r.pages, (unsigned long long)rss);
	if (scanned_sparse)
		tap_ok(r.entries_read < reserved / 100, "sparse placement: "
		    "PAGEMAP_SCAN: %llu pagemap entries read for %llu pages "
		    "reserved", (unsigned long long)r.entries_read,
		    (unsigned long long)reserved);
	else
		tap_ok(1, "# SKIP sparse placement: this kernel has no "
		    "PAGEMAP_SCAN (Linux 6.7)");
	/* Built with ASan, the child also holds its terabytes of shadow:
	 * page by page, that is minutes of pagemap. */
	if (live_status_pages(pid, "VmSize") > 2 * reserved)
		tap_ok(1, "# SKIP sparse placement page by page: %llu MiB "
		    "mapped besides the reservation (a sanitizer's shadow)",
		    (unsigned long long)((live_status_pages(pid, "VmSize") -
		    reserved) * (uint64_t)sysconf(_SC_PAGESIZE) >> 20));
	else {
		pl.no_present_scan = 1;
		rc = placement_scan(&pl, pid, &full, &cause);
		tap_ok(rc == 0 && full.pages == r.pages &&
		    full.entries_read >= reserved, "sparse placement: page "
		    "by page, the same %llu pages (%llu entries read)",
		    (unsigned long long)full.pages,
		    (unsigned long long)full.entries_read);
		tap_diag("sparse placement: %.1f ms with PAGEMAP_SCAN, %.1f "
		    "ms page by page", r.scan_ns / 1e6, full.scan_ns / 1e6);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	placement_result_free(&full);
	placement_result_free(&r);
	placement_free(&pl);
	region_map_free(&map);
	snapshot_free(&zones);
	procfile_free(&pf);
}

int
main(void)
{
	int fd;

	if (geteuid() != 0)
		tap_skip_all("not root: /proc/kpageflags and PFNs need root");
	if ((fd = open("/proc/kpageflags", O_RDONLY)) == -1)
		tap_skip_all("/proc/kpageflags is not readable here");
	close(fd);
	log_set_program("t-kpageflags-live");
	test_free(1);
	test_free(2);
	test_placement(0);
	test_placement(1);
	test_placement_read(0, 0);
	test_placement_read(1, 0);
	test_placement_read(0, 1);
	test_sparse();
	return (tap_done());
}
