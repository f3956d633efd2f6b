/*
 * Unit tests of lib/damon.c on a synthetic sysfs tree in a temporary
 * directory: support checks, ownership (a foreign kdamond, one configured
 * by someone else, our own leftover named by the record, a record naming
 * another pid), the tried regions, the map of System RAM ranges onto the
 * regions and the accounting of DAMON regions that straddle them, and
 * /proc/iomem parsing.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "damon.h"
#include "log.h"
#include "snapshot.h"
#include "tap.h"

static char root[256];

/* Write a file under the root, its directories made first. */
static void RB_PRINTF(2, 3)
put(const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX], *p;
	va_list ap;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if ((f = fopen(path, "w")) == NULL) {
		perror(path);
		exit(1);
	}
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* A file's contents, trailing newline removed (static buffer). */
static const char *
get(const char *rel)
{
	static char buf[256];
	char path[PATH_MAX];
	size_t n;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	if ((f = fopen(path, "r")) == NULL)
		return ("(missing)");
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return (buf);
}

#define KD "sys/kernel/mm/damon/admin/kdamonds"
#define CTX KD "/0/contexts/0"

/* A tree whose kdamond 0 exists with the given state and pid. */
static void
tree(int nr, const char *state, long pid, int paddr, int tried)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof cmd, "rm -rf %s/sys", root);
	if (system(cmd) != 0)
		exit(1);
	put(KD "/nr_kdamonds", "%d\n", nr);
	put(KD "/0/state", "%s\n", state);
	put(KD "/0/pid", "%ld\n", pid);
	put(KD "/0/contexts/nr_contexts", "1\n");
	put(CTX "/avail_operations", paddr ? "vaddr\nfvaddr\npaddr\n" :
	    "vaddr\nfvaddr\n");
	put(CTX "/operations", "vaddr\n");
	put(CTX "/targets/nr_targets", "0\n");
	put(CTX "/schemes/nr_schemes", "0\n");
	put(CTX "/schemes/0/action", "pageout\n");
	if (tried) {
		snprintf(cmd, sizeof cmd, "%s/" CTX
		    "/schemes/0/tried_regions", root);
		mkdir(cmd, 0755);
	}
}

/* Open the tree with the record in the temporary directory. */
static int
open_tree(struct damon *d, char **cause)
{
	char sys[PATH_MAX], record[PATH_MAX];

	snprintf(sys, sizeof sys, "%s/sys", root);
	snprintf(record, sizeof record, "%s/run/damon-kdamond", root);
	return (damon_open(d, sys, root, record, cause));
}

static void
test_support(void)
{
	struct damon d;
	char sys[PATH_MAX], *cause = NULL;
	int rc;

	snprintf(sys, sizeof sys, "%s/nosys", root);
	rc = damon_open(&d, sys, root, NULL, &cause);
	tap_ok(rc == -3 && strstr(cause, "CONFIG_DAMON_SYSFS") != NULL &&
	    strstr(cause, "kernel >= 6.2") != NULL,
	    "no admin tree: exit 3 naming the kernel options");
	tap_diag("%s", cause);
	free(cause);
	cause = NULL;

	tree(0, "off", -1, 0, 1);
	tap_eq_u64(open_tree(&d, NULL), 0, "an admin tree opens");
	tap_eq_u64(damon_claim(&d, NULL), 0, "nr_kdamonds 0: free");
	rc = damon_setup(&d, &cause);
	tap_ok(rc == -3 && strstr(cause, "lacks paddr") != NULL &&
	    strstr(cause, "CONFIG_DAMON_PADDR") != NULL,
	    "no paddr in avail_operations: exit 3 naming the option");
	free(cause);
	cause = NULL;
	damon_stop(&d, NULL);
	tap_eq_str(get(KD "/nr_kdamonds"), "0", "the probe is undone");

	tree(0, "off", -1, 1, 0);
	open_tree(&d, NULL);
	rc = damon_setup(&d, &cause);
	tap_ok(rc == -3 && strstr(cause, "no tried_regions") != NULL &&
	    strstr(cause, ">= 6.2") != NULL,
	    "no tried_regions (6.1): exit 3 naming the kernel version");
	free(cause);
	cause = NULL;
	damon_stop(&d, NULL);

	tree(0, "off", -1, 1, 1);
	open_tree(&d, NULL);
	tap_eq_u64(damon_setup(&d, NULL), 0, "paddr and tried_regions: set up");
	tap_eq_str(get(KD "/nr_kdamonds"), "1", "one kdamond");
	tap_eq_str(get(CTX "/operations"), "paddr", "paddr operations");
	tap_eq_str(get(CTX "/schemes/0/action"), "stat", "a stat scheme");
	tap_ok(strncmp(get("run/damon-kdamond"), "pid 0\n", 6) == 0,
	    "the record says configured, not started");
	damon_close(&d);
}

static void
test_ownership(void)
{
	struct damon d;
	char *cause = NULL, path[PATH_MAX];
	int rc;

	tree(1, "on", 4242, 1, 1);
	open_tree(&d, NULL);
	rc = damon_claim(&d, &cause);
	tap_ok(rc == -3 && strstr(cause, "kdamond 0 is on (pid 4242") !=
	    NULL, "a foreign kdamond on: exit 3 naming its pid");
	free(cause);
	cause = NULL;
	tap_eq_str(get(KD "/0/state"), "on", "and it is left on");

	/* (The record of test_support would make this one ours.) */
	snprintf(path, sizeof path, "%s/run/damon-kdamond", root);
	unlink(path);
	tree(1, "off", -1, 1, 1);
	open_tree(&d, NULL);
	rc = damon_claim(&d, &cause);
	tap_ok(rc == -3 && strstr(cause, "1 kdamond is configured") != NULL,
	    "a kdamond configured by someone else: exit 3");
	free(cause);
	cause = NULL;

	tree(2, "off", -1, 1, 1);
	put(KD "/1/state", "on\n");
	put(KD "/1/pid", "55\n");
	open_tree(&d, NULL);
	rc = damon_claim(&d, &cause);
	tap_ok(rc == -3 && strstr(cause, "kdamond 1 is on (pid 55") != NULL,
	    "two kdamonds, the second on: exit 3 naming it");
	free(cause);
	cause = NULL;

	/* Our leftover: the record names the running kdamond's pid. */
	tree(1, "on", 777, 1, 1);
	put("run/damon-kdamond", "pid 777\nboot %s\nadmin %s/sys/kernel/mm/"
	    "damon/admin\n", "b00t", root);
	put("sys/kernel/random/boot_id", "b00t\n");
	open_tree(&d, NULL);
	tap_eq_u64(damon_claim(&d, NULL), 1, "our leftover is recognised");
	tap_eq_str(get(KD "/0/state"), "off", "turned off");
	tap_eq_str(get(KD "/nr_kdamonds"), "0", "and removed");
	tap_eq_str(get("run/damon-kdamond"), "(missing)", "record removed");

	/* A record naming another pid does not make a kdamond ours. */
	tree(1, "on", 778, 1, 1);
	put("sys/kernel/random/boot_id", "b00t\n");
	put("run/damon-kdamond", "pid 777\nboot b00t\nadmin %s/sys/kernel/mm/"
	    "damon/admin\n", root);
	open_tree(&d, NULL);
	tap_ok(damon_claim(&d, &cause) == -3, "record of another pid: refused");
	free(cause);
	cause = NULL;
	tap_eq_str(get(KD "/0/state"), "on", "and left on");

	/* Nor does one of another boot. */
	tree(1, "on", 777, 1, 1);
	put("sys/kernel/random/boot_id", "b00t\n");
	put("run/damon-kdamond", "pid 777\nboot 0ther\nadmin %s/sys/kernel/"
	    "mm/damon/admin\n", root);
	open_tree(&d, NULL);
	tap_ok(damon_claim(&d, &cause) == -3, "record of another boot: "
	    "refused");
	free(cause);
	cause = NULL;

	put("run/damon-kdamond", "garbage\n");
	open_tree(&d, NULL);
	rc = damon_claim(&d, &cause);
	tap_ok(rc == -2 && strstr(cause, "damon-kdamond: expected") != NULL,
	    "a malformed record: exit 2 naming it");
	free(cause);
	cause = NULL;
	snprintf(path, sizeof path, "%s/run/damon-kdamond", root);
	unlink(path);

	/* Stop turns off only the pid we started. */
	tree(0, "off", -1, 1, 1);
	open_tree(&d, NULL);
	damon_setup(&d, NULL);
	d.pid = 900;
	put(KD "/0/state", "on\n");
	put(KD "/0/pid", "901\n");
	rc = damon_stop(&d, &cause);
	tap_ok(rc == -3 && strstr(cause, "left alone") != NULL,
	    "stop: another pid is left alone");
	free(cause);
	cause = NULL;
	tap_eq_str(get(KD "/0/state"), "on", "still on");
	put(KD "/0/pid", "900\n");
	tap_eq_u64(damon_stop(&d, NULL), 0, "stop: our pid");
	tap_eq_str(get(KD "/0/state"), "off", "turned off");
	tap_eq_str(get(KD "/nr_kdamonds"), "0", "nr_kdamonds 0");
	damon_close(&d);
}

static void
test_tried(void)
{
	struct damon d;
	char *cause = NULL;
	int rc;

	tree(0, "off", -1, 1, 1);
	open_tree(&d, NULL);
	damon_setup(&d, NULL);
	put(CTX "/schemes/0/tried_regions/0/start", "4096\n");
	put(CTX "/schemes/0/tried_regions/0/end", "8192\n");
	put(CTX "/schemes/0/tried_regions/0/nr_accesses", "3\n");
	put(CTX "/schemes/0/tried_regions/0/age", "0\n");
	put(CTX "/schemes/0/tried_regions/1/start", "8192\n");
	put(CTX "/schemes/0/tried_regions/1/end", "16384\n");
	put(CTX "/schemes/0/tried_regions/1/nr_accesses", "0\n");
	put(CTX "/schemes/0/tried_regions/1/age", "7\n");
	tap_eq_u64(damon_update(&d, NULL), 0, "update and read");
	tap_eq_str(get(KD "/0/state"), "update_schemes_tried_regions",
	    "the update command was written to state");
	tap_eq_u64(d.ntried, 2, "two tried regions");
	tap_ok(d.ntried == 2 && d.tried[1].start == 8192 &&
	    d.tried[1].end == 16384 && d.tried[1].age == 7 &&
	    d.tried[0].nr_accesses == 3, "their fields");

	put(CTX "/schemes/0/tried_regions/1/end", "4096\n");
	rc = damon_update(&d, &cause);
	tap_ok(rc == -2 && strstr(cause, "tried_regions/1: end 4096 is not "
	    "after start 8192") != NULL, "end before start: exit 2");
	free(cause);
	cause = NULL;
	put(CTX "/schemes/0/tried_regions/1/end", "lots\n");
	rc = damon_update(&d, &cause);
	tap_ok(rc == -2 && strstr(cause, "expected an unsigned number, "
	    "found 'lots'") != NULL, "not a number: exit 2 naming the file");
	free(cause);
	cause = NULL;
	damon_stop(&d, NULL);
	damon_close(&d);

	tree(0, "off", -1, 1, 1);
	open_tree(&d, NULL);
	damon_setup(&d, NULL);
	tap_eq_u64(damon_update(&d, NULL), 0, "an empty update is no error");
	tap_eq_u64(d.empty_updates, 2, "it was retried once");
	damon_stop(&d, NULL);
	damon_close(&d);
}

static void
test_map(void)
{
	struct snapshot snap;
	struct snap_entry *e;
	struct damon_map m;
	struct damon_range ram[] = {
		{ 0x1000, 0x9fc00 },		/* not page aligned */
		{ 0x100000, 0x8000000 },	/* 1 MiB to 128 MiB */
	};
	struct damon_tried t[] = {
		/* straddles regions 0 and 1 (64 MiB) */
		{ 0x3000000, 0x5000000, 2, 0 },
		{ 0x5000000, 0x6000000, 0, 4 },
		{ 0x6000000, 0x8000000, 0, 2 },
		{ 0x100000, 0x3000000, 0, 9 },
	};
	uint64_t ps = 4096;

	snapshot_init(&snap);
	/* Node 0: region 0 = [0, 64 MiB) in two zones, region 1 after. */
	e = snapshot_add(&snap, 0, 0, "DMA");
	e->start_pfn = 1;
	e->spanned = 4095;
	e = snapshot_add(&snap, 0, 0, "DMA32");
	e->start_pfn = 4096;
	e->spanned = 16384 - 4096;
	e = snapshot_add(&snap, 0, 1, "DMA32");
	e->start_pfn = 16384;
	e->spanned = 16384;
	tap_eq_u64(damon_map_build(&m, &snap, ram, 2, ps), 3,
	    "three ranges: two RAM ranges in region 0, one in region 1");
	tap_ok(m.nranges == 3 && m.ranges[0].start == 0x1000 &&
	    m.ranges[0].end == 0x9f000, "the first is page aligned");
	tap_ok(m.nranges == 3 && m.ranges[1].end == 0x4000000 &&
	    m.ranges[2].start == 0x4000000 + ps &&
	    m.ranges[2].end == 0x8000000,
	    "a page's gap where regions 0 and 1 touch");
	damon_map_account(&m, t, 4);
	tap_eq_u64(m.regions[0].monitored, 0x4000000 - 0x100000,
	    "region 0: monitored bytes");
	tap_eq_u64(m.regions[0].referenced, 0x1000000,
	    "region 0: the straddling region's part below 64 MiB");
	tap_eq_u64(m.regions[1].referenced, 0x1000000 - ps,
	    "region 1: its part above, less the gap");
	tap_eq_u64(m.regions[1].monitored, 0x4000000 - ps,
	    "region 1: monitored");
	tap_ok(m.regions[0].has_idle && m.regions[0].idle_age == 9,
	    "region 0: idle age of its idle part");
	tap_ok(m.regions[1].has_idle && m.regions[1].idle_age == 2,
	    "region 1: the shortest age of its idle parts");
	t[1].nr_accesses = 1;
	t[2].nr_accesses = 1;
	damon_map_account(&m, t, 4);
	tap_ok(!m.regions[1].has_idle, "all referenced: no idle age");
	damon_map_free(&m);
	snapshot_free(&snap);
}

static void
test_iomem(void)
{
	struct damon_range *r;
	char *cause = NULL;
	int n, rc;

	put("iomem", "00000000-00000fff : Reserved\n"
	    "00001000-0009fbff : System RAM\n"
	    "000a0000-000bffff : PCI Bus 0000:00\n"
	    "00100000-7ffdcfff : System RAM\n"
	    "  01000000-01ffffff : Kernel code\n"
	    "100000000-17fffffff : System RAM\n");
	tap_eq_u64(damon_system_ram(root, &r, &n, NULL), 0, "iomem parses");
	tap_eq_u64(n, 3, "three System RAM ranges");
	tap_ok(n == 3 && r[1].start == 0x100000 && r[1].end == 0x7ffdd000 &&
	    r[2].end == 0x180000000ULL, "their bounds, end exclusive");
	free(r);
	put("iomem", "00000000-00000000 : System RAM\n");
	damon_system_ram(root, &r, &n, NULL);
	tap_eq_u64(n, 0, "zeros (not root): no ranges");
	free(r);
	put("iomem", "00100000-7ffdcfff : System RAM\nzz-1 : System RAM\n");
	rc = damon_system_ram(root, &r, &n, &cause);
	tap_ok(rc == -2 && strstr(cause, "iomem:2: expected") != NULL,
	    "a malformed line: exit 2 with file and line");
	free(cause);
}

int
main(void)
{
	snprintf(root, sizeof root, "%s", tap_scratch_dir("t-damon"));
	test_support();
	test_ownership();
	test_tried();
	test_map();
	test_iomem();
	return (tap_done());
}
