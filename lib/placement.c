/*
 * Placement of a process's pages over the emulated regions.  The scan
 * reads maps once and pagemap in large batches; it allocates only when the
 * maps text is longer than any before, so the runner can call it on every
 * sample.  A process that exits is a normal outcome here, not an error.
 *
 * pagemap holds 8 bytes for every page of every mapping, touched or not,
 * so a process that reserves terabytes and touches megabytes (a
 * sanitizer's shadow, a runtime's heap reservation) took minutes to scan.
 * Where the kernel has PAGEMAP_SCAN (Linux 6.7), it names the ranges that
 * hold present pages, skipping empty page tables a level at a time, and
 * pagemap is read only there; elsewhere every page is read as before.
 */
#include "config.h"

#include <sys/ioctl.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/fs.h>

#include "log.h"
#include "placement.h"
#include "units.h"

#ifndef PAGEMAP_SCAN
/* PAGEMAP_SCAN as Linux 6.7's include/uapi/linux/fs.h defines it, for
 * older headers; an older kernel answers it with ENOTTY. */
#define PAGE_IS_PRESENT		(1 << 3)
struct page_region {
	uint64_t	start;
	uint64_t	end;
	uint64_t	categories;
};
struct pm_scan_arg {
	uint64_t	size;
	uint64_t	flags;
	uint64_t	start;
	uint64_t	end;
	uint64_t	walk_end;
	uint64_t	vec;
	uint64_t	vec_len;
	uint64_t	max_pages;
	uint64_t	category_inverted;
	uint64_t	category_mask;
	uint64_t	category_anyof_mask;
	uint64_t	return_mask;
};
#define PAGEMAP_SCAN		_IOWR('f', 16, struct pm_scan_arg)
#endif

#define PLACEMENT_BATCH		(64 * 1024)	/* entries a pread */
#define PLACEMENT_RANGES	1024		/* ranges a PAGEMAP_SCAN */
#define PAGEMAP_PRESENT		(1ULL << 63)
#define PAGEMAP_EXCLUSIVE	(1ULL << 56)	/* mapped only here */
#define KPF_ZERO_PAGE		(1ULL << 24)
#define PAGEMAP_PFN_MASK	((1ULL << 55) - 1)

/* Prepare a scanner for one region map. */
void
placement_init(struct placement *pl, const char *proc_root,
    const struct region_map *map)
{
	memset(pl, 0, sizeof *pl);
	snprintf(pl->proc_root, sizeof pl->proc_root, "%s",
	    proc_root != NULL ? proc_root : "/proc");
	pl->map = map;
	pl->buf_entries = PLACEMENT_BATCH;
	pl->buf = xcalloc(pl->buf_entries, sizeof *pl->buf);
	pl->present = xcalloc(PLACEMENT_RANGES, sizeof(struct page_region));
	pl->kpf_fd = -1;
	pl->kpf_flags = xcalloc(PLACEMENT_KPF_BLOCKS * PLACEMENT_KPF_BLOCK,
	    sizeof *pl->kpf_flags);
	memset(pl->kpf_block, 0xff, sizeof pl->kpf_block);
	procfile_init(&pl->maps);
}

/* Release a scanner. */
void
placement_free(struct placement *pl)
{
	free(pl->buf);
	free(pl->present);
	free(pl->kpf_flags);
	if (pl->kpf_fd >= 0)
		close(pl->kpf_fd);
	procfile_free(&pl->maps);
	memset(pl, 0, sizeof *pl);
}

/* Prepare a result with one counter per region key. */
void
placement_result_init(struct placement_result *r, const struct region_map *map)
{
	memset(r, 0, sizeof *r);
	r->nkeys = map->nkeys;
	r->key_pages = xcalloc(map->nkeys > 0 ? map->nkeys : 1,
	    sizeof *r->key_pages);
}

/* Release a result. */
void
placement_result_free(struct placement_result *r)
{
	free(r->key_pages);
	memset(r, 0, sizeof *r);
}

/* Mappings whose pagemap entries are not the process's memory. */
static int
placement_skip(const char *name, size_t len)
{
	return ((len >= 5 && strncmp(name, "[vvar", 5) == 0) ||
	    (len == 10 && strncmp(name, "[vsyscall]", 10) == 0));
}

/* Read the command name of a process, or "?". */
static void
placement_comm(struct placement *pl, pid_t pid, char *comm, size_t len)
{
	char path[PATH_MAX + 32];
	ssize_t n;
	int fd;

	snprintf(comm, len, "?");
	snprintf(path, sizeof path, "%s/%d/comm", pl->proc_root, (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	n = read(fd, comm, len - 1);
	close(fd);
	if (n <= 0) {
		snprintf(comm, len, "?");
		return;
	}
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
}

/*
 * Does a present pagemap entry map the zero page or the huge zero page?
 * Only entries of anonymous mappings that are not mapped exclusively can
 * (pagemap marks the huge zero page as a file page), and for those
 * kpageflags says (KPF_ZERO_PAGE), read a block of 512 pfns at a time so
 * that the 512 pages of a huge zero page cost one read.  Without a
 * readable kpageflags nothing is taken for the zero page.
 */
static int
placement_zero(struct placement *pl, uint64_t v, uint64_t pfn)
{
	char path[PATH_MAX + 16];
	uint64_t block = pfn / PLACEMENT_KPF_BLOCK, *flags;
	int slot = (int)(block % PLACEMENT_KPF_BLOCKS);
	ssize_t got;

	if (!pl->anon || (v & PAGEMAP_EXCLUSIVE))
		return (0);
	if (pl->kpf_fd == -1) {
		snprintf(path, sizeof path, "%s/kpageflags", pl->proc_root);
		if ((pl->kpf_fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
			pl->kpf_fd = -2;
	}
	if (pl->kpf_fd < 0)
		return (0);
	flags = pl->kpf_flags + (size_t)slot * PLACEMENT_KPF_BLOCK;
	if (pl->kpf_block[slot] != block) {
		do {
			got = pread(pl->kpf_fd, flags, PLACEMENT_KPF_BLOCK *
			    sizeof *flags, (off_t)(block * PLACEMENT_KPF_BLOCK *
			    sizeof *flags));
		} while (got == -1 && errno == EINTR);
		if (got < 0)
			got = 0;
		memset((char *)flags + got, 0, PLACEMENT_KPF_BLOCK *
		    sizeof *flags - (size_t)got);
		pl->kpf_block[slot] = block;
	}
	return ((flags[pfn % PLACEMENT_KPF_BLOCK] & KPF_ZERO_PAGE) != 0);
}

/* Count the resident pages of [start, end) (virtual page numbers). */
static int
placement_range(struct placement *pl, int fd, const char *path,
    uint64_t start, uint64_t end, struct placement_result *r, char **cause)
{
	const struct region_map *map = pl->map;
	const struct region_seg *seg = NULL;
	uint64_t v, pfn, n, i;
	ssize_t got;
	int s;

	while (start < end) {
		n = end - start;
		if (n > pl->buf_entries)
			n = pl->buf_entries;
		got = pread(fd, pl->buf, n * sizeof *pl->buf,
		    (off_t)(start * sizeof *pl->buf));
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1 && errno == ESRCH) {
			r->exited = 1;
			return (0);
		}
		if (got == -1)
			return (fail_with(cause, RB_EXIT_ENV, "%s: pread: %s",
			    path, strerror(errno)));
		if (got == 0) {
			r->exited = 1;
			return (0);
		}
		n = (uint64_t)got / sizeof *pl->buf;
		r->entries_read += n;
		for (i = 0; i < n; i++) {
			v = pl->buf[i];
			if (!(v & PAGEMAP_PRESENT))
				continue;
			pfn = v & PAGEMAP_PFN_MASK;
			if (pfn == 0)
				return (fail_with(cause, RB_EXIT_ENV, "%s: the "
				    "kernel hides page frame numbers from this "
				    "user; placement needs root "
				    "(CAP_SYS_ADMIN): run it with sudo", path));
			if (placement_zero(pl, v, pfn)) {
				r->zero_page_mapped++;
				continue;
			}
			r->pages++;
			if (seg == NULL || pfn < seg->start_pfn ||
			    pfn >= seg->end_pfn) {
				if ((s = region_map_seg(map, pfn)) == -1) {
					r->outside++;
					seg = NULL;
					continue;
				}
				seg = &map->segs[s];
			}
			r->key_pages[seg->key]++;
		}
		start += n;
	}
	return (0);
}

/*
 * Count the resident pages of [start, end) (virtual page numbers),
 * reading pagemap only over the ranges PAGEMAP_SCAN finds present pages
 * in; the rest of the range page by page once the kernel (or a file
 * standing in for pagemap in the tests) turns out not to have it.
 */
static int
placement_mapping(struct placement *pl, int fd, const char *path,
    uint64_t start, uint64_t end, struct placement_result *r, char **cause)
{
	struct page_region *v = pl->present;
	struct pm_scan_arg arg;
	uint64_t ps = pl->map->page_size, from = start * ps, to = end * ps;
	long i, n;
	int rc;

	while (!pl->no_present_scan && from < to && !r->exited) {
		memset(&arg, 0, sizeof arg);
		arg.size = sizeof arg;
		arg.start = from;
		arg.end = to;
		arg.vec = (uint64_t)(uintptr_t)v;
		arg.vec_len = PLACEMENT_RANGES;
		arg.category_mask = PAGE_IS_PRESENT;
		arg.return_mask = PAGE_IS_PRESENT;
		if ((n = ioctl(fd, PAGEMAP_SCAN, &arg)) == -1) {
			if (errno == EINTR)
				continue;
			if (errno == ESRCH) {
				r->exited = 1;
				return (0);
			}
			pl->no_present_scan = 1;
			break;
		}
		for (i = 0; i < n && !r->exited; i++) {
			if ((rc = placement_range(pl, fd, path,
			    v[i].start / ps, v[i].end / ps, r, cause)) != 0)
				return (rc);
		}
		/* A walk that stops short without filling the ranges, or
		 * does not move, is not trusted: read the rest. */
		if (arg.walk_end <= from || (n < PLACEMENT_RANGES &&
		    arg.walk_end < to))
			return (placement_range(pl, fd, path,
			    arg.walk_end > from ? arg.walk_end / ps : from / ps,
			    end, r, cause));
		from = arg.walk_end;
	}
	if (from >= to || r->exited)
		return (0);
	return (placement_range(pl, fd, path, from / ps, end, r, cause));
}

/* Does the process still exist under the proc root? */
static int
placement_alive(struct placement *pl, pid_t pid)
{
	char name[32];

	snprintf(name, sizeof name, "%d", (int)pid);
	return (procfile_exists(pl->proc_root, name));
}

/*
 * Count the resident pages of pid per region key into r.  Returns 0 (with
 * r->exited set when the process went away), -RB_EXIT_ENV when pfns are
 * not visible, -RB_EXIT_INPUT when maps cannot be parsed.
 */
int
placement_scan(struct placement *pl, pid_t pid, struct placement_result *r,
    char **cause)
{
	char path[PATH_MAX + 32], name[32], *line, *next, *err = NULL;
	uint64_t start, end, t0 = units_now_ns();
	unsigned long long a, b, inode;
	int fd, n, lineno = 0, rc = 0, saved;

	memset(r->key_pages, 0, r->nkeys * sizeof *r->key_pages);
	r->pid = pid;
	r->exited = 0;
	r->pages = r->outside = r->entries_read = r->zero_page_mapped = 0;
	/* The kernel's flags change between scans. */
	memset(pl->kpf_block, 0xff, sizeof pl->kpf_block);
	placement_comm(pl, pid, r->comm, sizeof r->comm);

	snprintf(name, sizeof name, "%d/maps", (int)pid);
	if ((rc = procfile_read(&pl->maps, pl->proc_root, name, &err)) != 0) {
		if (!placement_alive(pl, pid)) {
			free(err);
			r->exited = 1;
			return (0);
		}
		if (cause != NULL)
			*cause = err;
		else
			free(err);
		return (rc);
	}
	snprintf(path, sizeof path, "%s/%d/pagemap", pl->proc_root, (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		saved = errno;
		if (!placement_alive(pl, pid) || saved == ESRCH) {
			r->exited = 1;
			return (0);
		}
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s%s", path,
		    strerror(saved), saved == EACCES || saved == EPERM ?
		    " (placement needs root: run it with sudo)" : ""));
	}
	for (line = pl->maps.buf; *line != '\0' && !r->exited; line = next) {
		lineno++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		else
			next = line + strlen(line);
		n = 0;
		if (sscanf(line, "%llx-%llx %*s %*s %*s %llu %n", &a, &b,
		    &inode, &n) < 3 || n == 0 || a > b) {
			rc = fail_with(cause, RB_EXIT_INPUT, "%s:%d: expected "
			    "START-END PERMS OFFSET DEV INODE [PATH]",
			    pl->maps.path, lineno);
			break;
		}
		if (placement_skip(line + n, strlen(line + n)))
			continue;
		/* Only anonymous memory can map the zero pages. */
		pl->anon = inode == 0;
		start = a / pl->map->page_size;
		end = (b + pl->map->page_size - 1) / pl->map->page_size;
		if ((rc = placement_mapping(pl, fd, path, start, end, r,
		    cause)) != 0)
			break;
	}
	close(fd);
	if (rc == 0 && r->exited == 0 && !placement_alive(pl, pid))
		r->exited = 1;
	r->scan_ns = units_now_ns() - t0;
	return (rc);
}

/* Pages of a result in one region (summing its zones). */
uint64_t
placement_region_pages(const struct region_map *map,
    const struct placement_result *r, int span)
{
	uint64_t pages = 0;
	int i;

	for (i = 0; i < map->nkeys && i < r->nkeys; i++) {
		if (map->keys[i].span == span)
			pages += r->key_pages[i];
	}
	return (pages);
}

/* How many regions hold at least share (0..1) of the process's pages. */
int
placement_regions_over(const struct region_map *map,
    const struct placement_result *r, double share)
{
	uint64_t pages;
	int i, n = 0;

	if (r->pages == 0)
		return (0);
	for (i = 0; i < map->nregions; i++) {
		pages = placement_region_pages(map, r, i);
		if (pages > 0 && (double)pages >= share * (double)r->pages)
			n++;
	}
	return (n);
}
