/*
 * The vacate probe (lib/vacate.h): offline the memory blocks of emulated
 * regions through sysfs, measure what the kernel did, and online every
 * block again.  Every path goes through the sys and proc roots, so a
 * synthetic tree exercises the same code without touching the machine.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "procfile.h"
#include "units.h"
#include "vacate.h"
#include "vmstat.h"

#define VACATE_SYS_MEMORY	"devices/system/memory"

/* Stable bits of include/uapi/linux/kernel-page-flags.h. */
#define VACATE_KPF_UPTODATE	(1ULL << 3)
#define VACATE_KPF_DIRTY	(1ULL << 4)
#define VACATE_KPF_LRU		(1ULL << 5)
#define VACATE_KPF_SLAB		(1ULL << 7)
#define VACATE_KPF_WRITEBACK	(1ULL << 8)
#define VACATE_KPF_BUDDY	(1ULL << 10)
#define VACATE_KPF_MMAP		(1ULL << 11)
#define VACATE_KPF_ANON		(1ULL << 12)
#define VACATE_KPF_SWAPCACHE	(1ULL << 13)
#define VACATE_KPF_NOPAGE	(1ULL << 20)
#define VACATE_KPF_OFFLINE	(1ULL << 23)
#define VACATE_KPF_PGTABLE	(1ULL << 26)
#define VACATE_KPF_RESERVED	(1ULL << 32)
#define VACATE_KPF_FILE_MASK	(VACATE_KPF_LRU | VACATE_KPF_MMAP | \
	VACATE_KPF_SWAPCACHE | VACATE_KPF_UPTODATE | VACATE_KPF_DIRTY | \
	VACATE_KPF_WRITEBACK)

/* Set by SIGALRM: the block being offlined ran past the timeout. */
static volatile sig_atomic_t vacate_alarmed;

static void
vacate_on_alarm(int sig)
{
	(void)sig;
	vacate_alarmed = 1;
}

/* Read a small sysfs file into buf without its trailing newline; -1. */
static int
vacate_read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	do
		n = read(fd, buf, len - 1);
	while (n == -1 && errno == EINTR);
	close(fd);
	if (n == -1)
		return (-1);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return (0);
}

/* Path of an attribute of memory block id. */
static void
vacate_block_path(const struct vacate *v, int id, const char *attr,
    char *path, size_t len)
{
	snprintf(path, len, "%s/%s/memory%d/%s", v->sys_root,
	    VACATE_SYS_MEMORY, id, attr);
}

/*
 * Read a block's state after a step, and the zone it is in: never over
 * the valid_zones of before the probe, which say where it goes back.
 */
static void
vacate_block_after(const struct vacate *v, struct vacate_block *b)
{
	char path[4096];

	vacate_block_path(v, b->id, "state", path, sizeof path);
	if (vacate_read_small(path, b->state_after, sizeof b->state_after)
	    != 0)
		snprintf(b->state_after, sizeof b->state_after, "unreadable");
	vacate_block_path(v, b->id, "valid_zones", path, sizeof path);
	if (vacate_read_small(path, b->zones_after, sizeof b->zones_after)
	    != 0)
		b->zones_after[0] = '\0';
}

/* Read state, valid_zones and removable of a block ("" when absent). */
static void
vacate_block_read(const struct vacate *v, struct vacate_block *b,
    char *state, size_t statelen)
{
	char path[4096];

	vacate_block_path(v, b->id, "state", path, sizeof path);
	if (vacate_read_small(path, state, statelen) != 0)
		snprintf(state, statelen, "unreadable");
	vacate_block_path(v, b->id, "valid_zones", path, sizeof path);
	if (vacate_read_small(path, b->valid_zones, sizeof b->valid_zones)
	    != 0)
		b->valid_zones[0] = '\0';
	vacate_block_path(v, b->id, "removable", path, sizeof path);
	if (vacate_read_small(path, b->removable, sizeof b->removable) != 0)
		b->removable[0] = '\0';
}

/*
 * Write "offline" or "online" to a block's state: 0, or the errno the
 * kernel answered with (its reason for refusing).
 */
static int
vacate_block_write(const struct vacate *v, int id, const char *what)
{
	char path[4096];
	ssize_t n;
	int fd, saved;

	vacate_block_path(v, id, "state", path, sizeof path);
	if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) == -1)
		return (errno);
	n = write(fd, what, strlen(what));
	saved = errno;
	close(fd);
	if (n == -1)
		return (saved);
	if ((size_t)n != strlen(what))
		return (EIO);
	return (0);
}

/* Parse "N/R": node N, region R. */
int
vacate_parse_region(const char *s, int *node, int *region, char **cause)
{
	const char *slash = strchr(s, '/');
	char *nodes;
	long n, r;
	int rc;

	if (slash == NULL)
		return (fail_with(cause, RB_EXIT_INPUT, "region '%s': expected "
		    "NODE/REGION, such as 0/3", s));
	nodes = xstrndup(s, slash - s);
	rc = units_parse_long(nodes, 0, INT32_MAX, &n, NULL);
	free(nodes);
	if (rc != 0 || units_parse_long(slash + 1, 0, INT32_MAX, &r,
	    NULL) != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "region '%s': expected "
		    "NODE/REGION, two numbers from 0, such as 0/3", s));
	*node = (int)n;
	*region = (int)r;
	return (0);
}

/*
 * The kernel's image from iomem ("Kernel code", "Kernel data", ...), in
 * pfns; none when it is unreadable or, without CAP_SYS_ADMIN, all zeros.
 */
static void
vacate_kernel_image(const struct vacate *v, uint64_t *lo, uint64_t *hi)
{
	char path[4096], line[256];
	unsigned long long a, b;
	FILE *f;

	*lo = UINT64_MAX;
	*hi = 0;
	snprintf(path, sizeof path, "%s/iomem", v->proc_root);
	if ((f = fopen(path, "re")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strstr(line, ": Kernel ") == NULL ||
		    sscanf(line, " %llx-%llx", &a, &b) != 2 || b == 0)
			continue;
		if (a / v->page_size < *lo)
			*lo = a / v->page_size;
		if (b / v->page_size + 1 > *hi)
			*hi = b / v->page_size + 1;
	}
	fclose(f);
}

/* Append a note to a block. */
static void
vacate_note(struct vacate_block *b, const char *note)
{
	size_t len = strlen(b->notes);

	snprintf(b->notes + len, sizeof b->notes - len, "%s%s",
	    len > 0 ? "; " : "", note);
}

/*
 * What the kernel is known to refuse: a block whose pages lie in several
 * zones (valid_zones "none") or that has holes, pages that are not System
 * RAM (the firmware's ranges of the region map), is EINVAL; the kernel's
 * image never moves.
 */
static void
vacate_block_notes(const struct vacate *v, const struct region_map *map,
    struct vacate_block *b, uint64_t klo, uint64_t khi)
{
	const struct region_range *fw;
	char note[96];
	int i;

	if (strcmp(b->state_before, "online") == 0 &&
	    strcmp(b->valid_zones, "none") == 0)
		vacate_note(b, "spans several zones");
	for (i = 0; i < map->nfirmware; i++) {
		fw = &map->firmware[i];
		if (fw->start_pfn < b->end_pfn && fw->end_pfn > b->start_pfn) {
			snprintf(note, sizeof note, "holes: pfn %" PRIu64 "-%"
			    PRIu64 " is not System RAM", fw->start_pfn >
			    b->start_pfn ? fw->start_pfn : b->start_pfn,
			    fw->end_pfn < b->end_pfn ? fw->end_pfn :
			    b->end_pfn);
			vacate_note(b, note);
			break;
		}
	}
	if (klo < b->end_pfn && khi > b->start_pfn)
		vacate_note(b, "holds the kernel image");
	(void)v;
}

/* The blocks of one region of the map, with their state now. */
static int
vacate_add_region(struct vacate *v, const struct region_map *map, int node,
    int region, char **cause)
{
	const struct region_block *mb;
	const struct region_span *span = NULL;
	struct vacate_region *r;
	struct vacate_block *b;
	uint64_t klo, khi;
	int i, last = -1;

	for (i = 0; i < map->nregions; i++) {
		if (map->regions[i].node != node)
			continue;
		last = map->regions[i].region;
		if (map->regions[i].region == region)
			span = &map->regions[i];
	}
	if (span == NULL && last == -1)
		return (fail_with(cause, RB_EXIT_INPUT, "region %d/%d: no node "
		    "%d with memory blocks", node, region, node));
	if (span == NULL)
		return (fail_with(cause, RB_EXIT_INPUT, "region %d/%d: node %d "
		    "has regions 0-%d", node, region, node, last));
	v->regions = xreallocarray(v->regions, v->nregions + 1,
	    sizeof *v->regions);
	r = &v->regions[v->nregions++];
	memset(r, 0, sizeof *r);
	r->node = node;
	r->region = region;
	r->start_pfn = span->start_pfn;
	r->end_pfn = span->end_pfn;
	vacate_kernel_image(v, &klo, &khi);
	for (i = 0; i < map->nblocks; i++) {
		mb = &map->blocks[i];
		if (mb->node != node || mb->end_pfn <= span->start_pfn ||
		    mb->start_pfn >= span->end_pfn)
			continue;
		r->blocks = xreallocarray(r->blocks, r->nblocks + 1,
		    sizeof *r->blocks);
		b = &r->blocks[r->nblocks++];
		memset(b, 0, sizeof *b);
		b->id = mb->id;
		b->node = mb->node;
		b->start_pfn = mb->start_pfn;
		b->end_pfn = mb->end_pfn;
		vacate_block_read(v, b, b->state_before,
		    sizeof b->state_before);
		snprintf(b->state_after, sizeof b->state_after, "%s",
		    b->state_before);
		snprintf(b->zones_after, sizeof b->zones_after, "%s",
		    b->valid_zones);
		vacate_block_notes(v, map, b, klo, khi);
	}
	return (0);
}

/* Set up a probe of the regions (node, region) of the map. */
int
vacate_init(struct vacate *v, const struct region_map *map,
    const int *nodes, const int *regions, int n, char **cause)
{
	int i, j, rc;

	v->sys_root = xstrdup(map->sys_root);
	if (v->proc_root == NULL)
		v->proc_root = xstrdup("/proc");
	v->page_size = map->page_size;
	v->status = "running";
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (nodes[j] == nodes[i] && regions[j] == regions[i])
				return (fail_with(cause, RB_EXIT_INPUT,
				    "region %d/%d given twice", nodes[i],
				    regions[i]));
		}
		if ((rc = vacate_add_region(v, map, nodes[i], regions[i],
		    cause)) != 0)
			return (rc);
	}
	return (0);
}

void
vacate_free(struct vacate *v)
{
	int i;

	for (i = 0; i < v->nregions; i++)
		free(v->regions[i].blocks);
	free(v->regions);
	free(v->sys_root);
	free(v->proc_root);
	v->regions = NULL;
	v->nregions = 0;
	v->sys_root = v->proc_root = NULL;
}

/* Does a DMI string name a virtual machine? */
static int
vacate_dmi_virtual(const char *s)
{
	static const char *const names[] = {
		"QEMU", "KVM", "Bochs", "VMware", "VirtualBox", "innotek",
		"Xen", "Virtual Machine", "Cloud Hypervisor", NULL
	};
	int i;

	for (i = 0; names[i] != NULL; i++) {
		if (strstr(s, names[i]) != NULL)
			return (1);
	}
	return (0);
}

/*
 * Is this a guest of `regionbench vm` (the host names the boot's facts in
 * REGIONBENCH_VM_FACTS)?  Nothing else counts: a cloud machine is a
 * virtual machine and someone's live system.  When the firmware's DMI
 * strings (class/dmi/id) name a virtual machine, why says so, so the
 * refusal tells a user in their own scratch VM to add --force.
 */
int
vacate_check_guest(const char *sys_root, char *why, size_t len)
{
	static const char *const files[] = {
		"sys_vendor", "product_name", "board_vendor", NULL
	};
	const char *facts = getenv("REGIONBENCH_VM_FACTS");
	char path[4096], buf[128];
	int i;

	if (facts != NULL && *facts != '\0' && access(facts, R_OK) == 0) {
		snprintf(why, len, "a guest of regionbench vm (%s)", facts);
		return (1);
	}
	/*
	 * Any other virtual machine may be someone's live machine (a cloud
	 * machine is one): it is named in the refusal, never a pass.
	 */
	for (i = 0; files[i] != NULL; i++) {
		snprintf(path, sizeof path, "%s/class/dmi/id/%s", sys_root,
		    files[i]);
		if (vacate_read_small(path, buf, sizeof buf) == 0 &&
		    vacate_dmi_virtual(buf)) {
			snprintf(why, len, "a virtual machine (%s: %s), but "
			    "not a guest of regionbench vm", path, buf);
			return (0);
		}
	}
	snprintf(why, len, "not a guest of regionbench vm "
	    "(REGIONBENCH_VM_FACTS unset)");
	return (0);
}

/*
 * Can this kernel offline memory at all?  The memory directory must
 * exist, each block's "removable" must say 1 (it is absent or 0 without
 * CONFIG_MEMORY_HOTREMOVE) and its state must be writable.
 */
int
vacate_check_offlinable(const struct vacate *v, char **cause)
{
	const struct vacate_block *b;
	char path[4096];
	struct stat st;
	int i, j;

	snprintf(path, sizeof path, "%s/%s", v->sys_root, VACATE_SYS_MEMORY);
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return (fail_with(cause, RB_EXIT_ENV, "%s: no memory blocks "
		    "(a kernel without CONFIG_MEMORY_HOTPLUG): nothing can be "
		    "offlined", path));
	for (i = 0; i < v->nregions; i++) {
		for (j = 0; j < v->regions[i].nblocks; j++) {
			b = &v->regions[i].blocks[j];
			vacate_block_path(v, b->id, "removable", path,
			    sizeof path);
			if (b->removable[0] == '\0')
				return (fail_with(cause, RB_EXIT_ENV, "%s: "
				    "absent: a kernel without "
				    "CONFIG_MEMORY_HOTREMOVE cannot offline "
				    "memory", path));
			if (strcmp(b->removable, "1") != 0)
				return (fail_with(cause, RB_EXIT_ENV, "%s: "
				    "says %s: this kernel cannot offline "
				    "memory (CONFIG_MEMORY_HOTREMOVE)", path,
				    b->removable));
			vacate_block_path(v, b->id, "state", path,
			    sizeof path);
			if (stat(path, &st) != 0 ||
			    (st.st_mode & S_IWUSR) == 0 ||
			    access(path, W_OK) != 0)
				return (fail_with(cause, RB_EXIT_ENV, "%s: not "
				    "writable: run as root", path));
		}
	}
	return (0);
}

/* Seconds since an earlier CLOCK_MONOTONIC reading. */
static double
vacate_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return ((double)(t1.tv_sec - t0->tv_sec) +
	    (double)(t1.tv_nsec - t0->tv_nsec) / 1e9);
}

/* pgmigrate_success and pgmigrate_fail now (0 when vmstat lacks them). */
static void
vacate_vmstat(const struct vacate *v, struct procfile *pf, uint64_t *out)
{
	static const char *const keys[] = {
		"pgmigrate_success", "pgmigrate_fail"
	};
	int i;

	if (vmstat_read(pf, v->proc_root, keys, 2, out, NULL) != 0)
		out[0] = out[1] = VMSTAT_MISSING;
	for (i = 0; i < 2; i++) {
		if (out[i] == VMSTAT_MISSING)
			out[i] = 0;
	}
}

/*
 * What stayed in a block the kernel would not empty: its pages by
 * kpageflags class.  Slab, page tables, reserved pages and pages of no
 * class (kernel allocations) cannot be migrated.
 */
static void
vacate_block_pages(const struct vacate *v, struct vacate_block *b)
{
	struct vacate_pages *p = &b->pages;
	uint64_t buf[512], f, pfn, n;
	char path[4096];
	ssize_t got;
	size_t i;
	int fd;

	memset(p, 0, sizeof *p);
	snprintf(path, sizeof path, "%s/kpageflags", v->proc_root);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	for (pfn = b->start_pfn; pfn < b->end_pfn; pfn += n) {
		n = b->end_pfn - pfn;
		if (n > sizeof buf / sizeof buf[0])
			n = sizeof buf / sizeof buf[0];
		got = pread(fd, buf, n * sizeof buf[0],
		    (off_t)(pfn * sizeof buf[0]));
		if (got <= 0)
			break;
		n = (uint64_t)got / sizeof buf[0];
		for (i = 0; i < n; i++) {
			f = buf[i];
			if (f & (VACATE_KPF_NOPAGE | VACATE_KPF_OFFLINE))
				continue;
			if (f & VACATE_KPF_BUDDY)
				p->free++;
			else if (f & VACATE_KPF_RESERVED)
				p->reserved++;
			else if (f & VACATE_KPF_SLAB)
				p->slab++;
			else if (f & VACATE_KPF_PGTABLE)
				p->pgtable++;
			else if (f & VACATE_KPF_ANON)
				p->anon++;
			else if (f & VACATE_KPF_FILE_MASK)
				p->file++;
			else
				p->other++;
		}
	}
	close(fd);
	p->known = pfn >= b->end_pfn;
}

/* The reason a block was not emptied, with its unmovable pages. */
static void
vacate_block_reason(struct vacate_block *b, const char *what)
{
	const struct vacate_pages *p = &b->pages;
	char why[2 * VACATE_TEXT_LEN];

	snprintf(why, sizeof why, "%s%s%s%s", what, b->notes[0] != '\0' ?
	    " (" : "", b->notes, b->notes[0] != '\0' ? ")" : "");
	if (!p->known) {
		snprintf(b->reason, sizeof b->reason, "%s", why);
		return;
	}
	snprintf(b->reason, sizeof b->reason, "%s; unmovable pages: %" PRIu64
	    " reserved, %" PRIu64 " slab, %" PRIu64 " page tables, %" PRIu64
	    " unclassified", why, p->reserved, p->slab, p->pgtable,
	    p->other);
}

/* Arm (ns > 0) or disarm (ns == 0) the per-block timeout. */
static void
vacate_timer(uint64_t ns)
{
	struct itimerval it;

	memset(&it, 0, sizeof it);
	it.it_value.tv_sec = (time_t)(ns / 1000000000ULL);
	it.it_value.tv_usec = (suseconds_t)(ns % 1000000000ULL / 1000);
	if (ns > 0 && it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
		it.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &it, NULL);
}

static void
vacate_tell(struct vacate *v, struct vacate_block *b, const char *what)
{
	b->step = what;
	if (v->progress != NULL)
		v->progress(v, b, what, v->arg);
}

/* Offline one block, measuring the time and the pages it moved. */
static void
vacate_block(struct vacate *v, struct vacate_block *b, struct procfile *pf)
{
	struct timespec t0;
	uint64_t before[2], after[2];
	int err;

	if (strcmp(b->state_before, "online") != 0) {
		b->result = VACATE_SKIPPED;
		snprintf(b->reason, sizeof b->reason, "%s before the probe: "
		    "left alone", b->state_before);
		return;
	}
	vacate_tell(v, b, "offlining");
	vacate_vmstat(v, pf, before);
	vacate_alarmed = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (v->timeout_ns > 0)
		vacate_timer(v->timeout_ns);
	/*
	 * A signal makes the kernel stop migrating (EINTR).  One that asks
	 * neither to stop nor for the timeout (SIGWINCH of a terminal) only
	 * cost the work done so far: try again.
	 */
	do
		err = (v->stop != NULL && *v->stop) ? EINTR :
		    vacate_block_write(v, b->id, "offline");
	while (err == EINTR && !vacate_alarmed &&
	    (v->stop == NULL || !*v->stop));
	vacate_timer(0);
	b->offline_s = vacate_since(&t0);
	vacate_vmstat(v, pf, after);
	b->migrated = after[0] - before[0];
	b->migrate_failed = after[1] - before[1];
	if (err == 0) {
		b->offlined = 1;
		b->result = VACATE_EMPTIED;
		vacate_block_after(v, b);
		vacate_tell(v, b, "offline");
		return;
	}
	b->error = err;
	if (err == EINTR && v->stop != NULL && *v->stop) {
		b->result = VACATE_INTERRUPTED;
		snprintf(b->reason, sizeof b->reason, "interrupted");
	} else if (err == EINTR && vacate_alarmed) {
		b->result = VACATE_TIMEOUT;
		vacate_block_pages(v, b);
		vacate_block_reason(b, "still migrating at the timeout");
	} else {
		b->result = VACATE_REFUSED;
		vacate_block_pages(v, b);
		vacate_block_reason(b, strerror(err));
	}
	vacate_block_after(v, b);
	if (strcmp(b->state_after, "online") != 0)
		b->offlined = 1;	/* it went anyway: bring it back */
	vacate_tell(v, b, "failed");
}

/*
 * Online every block the probe offlined, the last first.  A block that
 * was in ZONE_MOVABLE goes back there (online_movable): plain "online"
 * would put it in a kernel zone once the movable zone's span shrank.
 * Returns how many blocks are still offline.
 */
int
vacate_restore(struct vacate *v)
{
	struct vacate_block *b;
	const char *how;
	int i, j, err, left = 0;

	for (i = v->nregions - 1; i >= 0; i--) {
		for (j = v->regions[i].nblocks - 1; j >= 0; j--) {
			b = &v->regions[i].blocks[j];
			if (!b->offlined)
				continue;
			how = strcmp(b->valid_zones, "Movable") == 0 ?
			    "online_movable" : "online";
			err = vacate_block_write(v, b->id, how);
			if (err == EINVAL && strcmp(how, "online") != 0)
				err = vacate_block_write(v, b->id, "online");
			vacate_block_after(v, b);
			if (strcmp(b->state_after, "online") == 0) {
				b->offlined = 0;
				b->online_failed = 0;
				vacate_tell(v, b, "online");
				continue;
			}
			b->online_failed = err != 0 ? err : EIO;
			left++;
			vacate_tell(v, b, "still offline");
		}
	}
	return (left);
}

/* Sum a region's blocks and say why it was not emptied. */
static void
vacate_region_sum(struct vacate_region *r)
{
	const struct vacate_block *b;
	int i, tried = 0, emptied = 0;

	r->seconds = 0;
	r->migrated = r->migrate_failed = 0;
	r->reason[0] = '\0';
	for (i = 0; i < r->nblocks; i++) {
		b = &r->blocks[i];
		r->seconds += b->offline_s;
		r->migrated += b->migrated;
		r->migrate_failed += b->migrate_failed;
		if (b->result == VACATE_SKIPPED || b->result ==
		    VACATE_NOT_TRIED)
			continue;
		tried++;
		if (b->result == VACATE_EMPTIED)
			emptied++;
		else if (r->reason[0] == '\0')
			snprintf(r->reason, sizeof r->reason, "memory%d: %s",
			    b->id, b->reason);
	}
	r->emptied = tried > 0 && emptied == tried;
	if (tried == 0 && r->reason[0] == '\0')
		snprintf(r->reason, sizeof r->reason, "no online block");
}

/*
 * Vacate the regions, one after the other: offline each online block of
 * the region, then online them all before the next region.  Returns 0
 * when it ran to the end (whatever the kernel said), -RB_EXIT_INTR when
 * stopped by a signal, -RB_EXIT_ENV when a block could not be onlined.
 */
int
vacate_run(struct vacate *v, char **cause)
{
	struct sigaction sa, old;
	struct procfile pf;
	int i, j, left, rc = 0;

	if (v->dry_run) {
		v->status = "complete";
		return (0);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = vacate_on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: the write must stop */
	sigaction(SIGALRM, &sa, &old);
	procfile_init(&pf);
	for (i = 0; i < v->nregions && rc == 0; i++) {
		for (j = 0; j < v->regions[i].nblocks; j++) {
			if (v->stop != NULL && *v->stop)
				break;
			vacate_block(v, &v->regions[i].blocks[j], &pf);
		}
		left = vacate_restore(v);
		if (left > 0)
			rc = fail_with(cause, RB_EXIT_ENV, "%d memory block%s "
			    "could not be onlined again", left, left == 1 ?
			    "" : "s");
		else if (v->stop != NULL && *v->stop)
			rc = fail_with(cause, RB_EXIT_INTR, "interrupted; "
			    "every block it offlined is online again");
	}
	for (i = 0; i < v->nregions; i++)
		vacate_region_sum(&v->regions[i]);
	procfile_free(&pf);
	sigaction(SIGALRM, &old, NULL);
	v->status = rc == 0 ? "complete" : rc == -RB_EXIT_INTR ?
	    "interrupted" : "failed";
	return (rc);
}

const char *
vacate_result_name(enum vacate_result r)
{
	switch (r) {
	case VACATE_NOT_TRIED:
		return ("not-tried");
	case VACATE_SKIPPED:
		return ("skipped");
	case VACATE_EMPTIED:
		return ("emptied");
	case VACATE_REFUSED:
		return ("refused");
	case VACATE_TIMEOUT:
		return ("timeout");
	case VACATE_INTERRUPTED:
		return ("interrupted");
	}
	return ("unknown");
}
