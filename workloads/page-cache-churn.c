/*
 * page-cache-churn: each thread writes a file (or makes a sparse one),
 * reads it, reads it again from the cache, evicts it with
 * posix_fadvise(DONTNEED) and repeats the read/evict cycle.  This fills
 * and empties the page cache through the allocator without memory
 * pressure.
 *
 * Files live in a private directory (mkdtemp, 0700) under --dir; each is
 * created with O_EXCL|O_NOFOLLOW and unlinked at once, and the directory
 * removed before the work starts, so nothing is left behind even when
 * the worker is killed.  ext4 on recent kernels caches files in large
 * folios and DONTNEED drops only folios wholly inside the range, so
 * eviction uses aligned ranges of at least 4 MiB and is checked with
 * mincore.  tmpfs is refused unless --force: its pages are not page cache
 * that can be evicted.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "units.h"
#include "workload.h"

#define PCC_EVICT_MIN	(4ULL << 20)

struct pcc_settings {
	char		*dir;
	uint64_t	 chunk;
	long		 passes;
	int		 sparse;
};

/* The run's plan (prepare) and its files (setup, in the child). */
struct pcc_plan {
	char		 dir[4096];	/* the parent of the scratch dir */
	uint64_t	 file_size;	/* per thread */
	uint64_t	 range;		/* eviction range, 4 MiB aligned */
	uint64_t	 chunk;
	int		*fds;
	char		**maps;		/* read-only views for mincore */
};

enum {
	PCC_WRITTEN, PCC_READ, PCC_REREAD, PCC_EVICTED, PCC_STILL_CACHED,
	PCC_CHURN
};
enum { PCC_T_WRITE, PCC_T_READ, PCC_T_REREAD, PCC_T_EVICT, PCC_T_CHURN };

#define CO(f) offsetof(struct pcc_settings, f)
static const struct opt_def pcc_options[] = {
	{ .name = "dir", .type = OPT_STRING, .offset = CO(dir), .arg = "DIR",
	  .help = "where the scratch directory goes [default: $TMPDIR or "
	  "/var/tmp]" },
	{ .name = "chunk", .type = OPT_SIZE, .offset = CO(chunk), .arg = "SIZE",
	  .def = "4M", .min = 4096, .max = 1LL << 30,
	  .help = "size of each read and write" },
	{ .name = "passes", .type = OPT_LONG, .offset = CO(passes), .arg = "N",
	  .def = "2", .min = 1, .max = 1000000,
	  .help = "read/re-read/evict passes over each file (fixed work)" },
	{ .name = "sparse", .type = OPT_FLAG, .offset = CO(sparse),
	  .help = "sparse files: fill the cache without device I/O" },
	{ .name = NULL }
};
#undef CO

static const struct workload_counter pcc_counters[] = {
	{ "write", "MB", 1e-6, WORKLOAD_RATE, PCC_T_WRITE + 1 },
	{ "read", "MB", 1e-6, WORKLOAD_RATE, PCC_T_READ + 1 },
	{ "reread", "MB", 1e-6, WORKLOAD_RATE, PCC_T_REREAD + 1 },
	{ "evicted", "pages", 1, WORKLOAD_RATE, PCC_T_EVICT + 1 },
	{ "still_cached", "pages", 1, WORKLOAD_GAUGE, 0 },
	{ "read_evict", "MB", 1e-6, WORKLOAD_RATE, PCC_T_CHURN + 1 },
	{ NULL, NULL, 0, 0, 0 }
};

/* The scratch parent: --dir, else $TMPDIR, else /var/tmp. */
static const char *
pcc_default_dir(void)
{
	const char *d = getenv("TMPDIR");

	return (d != NULL && *d != '\0' ? d : "/var/tmp");
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void
pcc_unescape(char *s)
{
	char *d = s;

	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0');
			s += 3;
		} else
			*d++ = *s;
	}
	*d = '\0';
}

/*
 * The upper layer of the overlay mount holding dir (from the super options
 * of its /proc/self/mountinfo line), or NULL.
 */
static char *
pcc_overlay_upper(const char *dir)
{
	char real[PATH_MAX], *line = NULL, *best = NULL, *mnt, *rest, *sep;
	char *up;
	size_t cap = 0, bestlen = 0, len;
	FILE *f;

	if (realpath(dir, real) == NULL ||
	    (f = fopen("/proc/self/mountinfo", "re")) == NULL)
		return (NULL);
	while (getline(&line, &cap, f) != -1) {
		/* id parent maj:min root MOUNTPOINT opts ... - type src super */
		if (strtok(line, " ") == NULL || strtok(NULL, " ") == NULL ||
		    strtok(NULL, " ") == NULL || strtok(NULL, " ") == NULL ||
		    (mnt = strtok(NULL, " ")) == NULL)
			continue;
		rest = mnt + strlen(mnt) + 1;
		pcc_unescape(mnt);
		len = strlen(mnt);
		if (strncmp(real, mnt, len) != 0 || (real[len] != '/' &&
		    real[len] != '\0' && len > 1) || len < bestlen)
			continue;
		bestlen = len;
		free(best);
		best = NULL;
		sep = strstr(rest, " - overlay ");
		if (sep == NULL || (up = strstr(sep, "upperdir=")) == NULL)
			continue;
		up += strlen("upperdir=");
		up[strcspn(up, ",\n")] = '\0';
		pcc_unescape(up);
		best = strdup(up);
	}
	free(line);
	fclose(f);
	return (best);
}

/* Can files under dir be page cache we can evict? */
static int
pcc_check_dir(const char *dir, int force, int code, char **cause)
{
	struct statfs sfs;
	struct stat st;

	if (stat(dir, &st) != 0)
		return (fail_with(cause, code, "page-cache-churn: %s: %s", dir,
		    strerror(errno)));
	if (!S_ISDIR(st.st_mode))
		return (fail_with(cause, code, "page-cache-churn: %s is not a "
		    "directory", dir));
	if (access(dir, W_OK | X_OK) != 0)
		return (fail_with(cause, code, "page-cache-churn: %s: %s", dir,
		    strerror(errno)));
	if (statfs(dir, &sfs) != 0)
		return (fail_with(cause, code, "page-cache-churn: statfs %s: "
		    "%s", dir, strerror(errno)));
	if (!force && (sfs.f_type == TMPFS_MAGIC ||
	    sfs.f_type == RAMFS_MAGIC))
		return (fail_with(cause, code, "page-cache-churn: %s is on "
		    "tmpfs, whose pages can't be evicted; use --dir on a disk "
		    "file system, or --force", dir));
	/* New files of an overlay live in its upper layer: look there. */
	if (!force && sfs.f_type == OVERLAYFS_SUPER_MAGIC) {
		char *upper = pcc_overlay_upper(dir);
		int rc = 0;

		if (upper != NULL && statfs(upper, &sfs) == 0 &&
		    (sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC))
			rc = fail_with(cause, code, "page-cache-churn: %s is "
			    "on an overlay whose upper layer %s is tmpfs, "
			    "whose pages can't be evicted; use --dir on a disk "
			    "file system, or --force", dir, upper);
		free(upper);
		return (rc);
	}
	return (0);
}

/*
 * Is there room for the files?  Better refused before the phase than
 * ENOSPC halfway through writing them (a small scratch disk of
 * regionbench vm, a nearly full /var/tmp).
 */
static int
pcc_check_space(const char *dir, uint64_t bytes, char **cause)
{
	char need[32], have[32];
	struct statvfs sv;
	uint64_t avail;

	if (statvfs(dir, &sv) != 0)
		return (0);	/* pcc_check_dir's statfs worked: unlikely */
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (bytes <= avail)
		return (0);
	units_format_size(need, sizeof need, bytes);
	units_format_size(have, sizeof have, avail);
	return (fail_with(cause, RB_EXIT_ENV, "page-cache-churn: its files "
	    "need %s in %s, which has %s free; use a smaller --size, or "
	    "--dir on a larger file system", need, dir, have));
}

/* Check the directory and size each thread's file. */
static int
pcc_prepare(struct workload_ctx *ctx, char **cause)
{
	struct pcc_settings *s = ctx->settings;
	struct pcc_plan *plan = xcalloc(1, sizeof *plan);
	const char *dir = s->dir != NULL ? s->dir : pcc_default_dir();
	int rc;

	ctx->priv = plan;
	if ((rc = pcc_check_dir(dir, ctx->common->force, s->dir != NULL ?
	    RB_EXIT_INPUT : RB_EXIT_ENV, cause)) != 0)
		return (rc);
	snprintf(plan->dir, sizeof plan->dir, "%s", dir);
	plan->chunk = (s->chunk + ctx->page_size - 1) & ~(uint64_t)
	    (ctx->page_size - 1);
	plan->range = s->chunk > PCC_EVICT_MIN ? (s->chunk + PCC_EVICT_MIN -
	    1) & ~(PCC_EVICT_MIN - 1) : PCC_EVICT_MIN;
	plan->file_size = ctx->size / ctx->nthreads / plan->range *
	    plan->range;
	if (plan->file_size == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "page-cache-churn: "
		    "--size must give each thread at least %llu MiB",
		    (unsigned long long)(plan->range >> 20)));
	return (pcc_check_space(dir, plan->file_size * ctx->nthreads, cause));
}

/* Create the files in a private directory, unlink them, drop the dir. */
static int
pcc_setup(struct workload_ctx *ctx, char **cause)
{
	struct pcc_settings *s = ctx->settings;
	struct pcc_plan *plan = ctx->priv;
	char scratch[4200], path[4300];
	uint64_t nchunks = plan->file_size / plan->chunk;
	int i, rc = 0;

	snprintf(scratch, sizeof scratch, "%s/regionbench-XXXXXX", plan->dir);
	if (mkdtemp(scratch) == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "page-cache-churn: "
		    "mkdtemp %s: %s", scratch, strerror(errno)));
	plan->fds = xcalloc(ctx->nthreads, sizeof *plan->fds);
	plan->maps = xcalloc(ctx->nthreads, sizeof *plan->maps);
	for (i = 0; i < ctx->nthreads; i++)
		plan->fds[i] = -1;
	for (i = 0; i < ctx->nthreads && rc == 0; i++) {
		snprintf(path, sizeof path, "%s/file-%d", scratch, i);
		plan->fds[i] = open(path, O_RDWR | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (plan->fds[i] == -1) {
			rc = fail_with(cause, RB_EXIT_ENV, "page-cache-churn: "
			    "%s: %s", path, strerror(errno));
			break;
		}
		unlink(path);
		if (ftruncate(plan->fds[i], (off_t)plan->file_size) != 0) {
			rc = fail_with(cause, RB_EXIT_ENV, "page-cache-churn: "
			    "ftruncate %s: %s", path, strerror(errno));
			break;
		}
		plan->maps[i] = mmap(NULL, plan->file_size, PROT_READ,
		    MAP_SHARED, plan->fds[i], 0);
		if (plan->maps[i] == MAP_FAILED) {
			plan->maps[i] = NULL;
			rc = fail_with(cause, RB_EXIT_ENV, "page-cache-churn: "
			    "mmap %s: %s", path, strerror(errno));
			break;
		}
		workload_plan(ctx, i, nchunks * (s->sparse ? 3 : 4) +
		    nchunks * 3 * (uint64_t)(s->passes - 1));
	}
	if (rmdir(scratch) != 0 && rc == 0)
		rc = fail_with(cause, RB_EXIT_ENV, "page-cache-churn: rmdir "
		    "%s: %s", scratch, strerror(errno));
	return (rc);
}

/* Pages of the thread's file in the page cache. */
static uint64_t
pcc_cached(struct workload_thread *t, unsigned char *vec)
{
	const struct pcc_plan *plan = t->ctx->priv;
	uint64_t i, n = 0, pages = plan->file_size / t->ctx->page_size;

	if (mincore(plan->maps[t->index], plan->file_size, vec) != 0)
		return (0);
	for (i = 0; i < pages; i++)
		n += vec[i] & 1;
	return (n);
}

/* Read or write the whole file in chunks; bytes done, or -1. */
static int64_t
pcc_io(struct workload_thread *t, char *buf, int writing)
{
	const struct pcc_plan *plan = t->ctx->priv;
	int fd = plan->fds[t->index];
	uint64_t off;
	ssize_t n;

	for (off = 0; off < plan->file_size; off += (uint64_t)n) {
		if (writing)
			n = pwrite(fd, buf, plan->chunk, (off_t)off);
		else
			n = pread(fd, buf, plan->chunk, (off_t)off);
		if (n <= 0)
			return (n == 0 ? (int64_t)off : -1);
		workload_work(t, 1);
		if (workload_stop_requested(t->ctx))
			return ((int64_t)(off + (uint64_t)n));
	}
	return ((int64_t)off);
}

/* Drop the file from the cache in aligned ranges. */
static void
pcc_evict(struct workload_thread *t)
{
	const struct pcc_plan *plan = t->ctx->priv;
	uint64_t off;

	for (off = 0; off < plan->file_size; off += plan->range) {
		posix_fadvise(plan->fds[t->index], (off_t)off,
		    (off_t)plan->range, POSIX_FADV_DONTNEED);
		workload_work(t, plan->range / plan->chunk);
	}
}

/* Write, then read, re-read and evict, pass after pass. */
static int
pcc_run(struct workload_thread *t)
{
	const struct pcc_settings *s = t->ctx->settings;
	const struct pcc_plan *plan = t->ctx->priv;
	int fixed = t->ctx->common->duration_ns == 0 && !t->warmup;
	unsigned char *vec = xmalloc(plan->file_size / t->ctx->page_size);
	char *buf = xmalloc(plan->chunk);
	uint64_t read_w, read_c, evict_w, evict_c, read_bytes;
	struct workload_timer tm;
	uint64_t before, after;
	int64_t n;
	long pass;
	int rc = 0, cold = s->sparse;

	memset(buf, 0x5a, plan->chunk);
	if (!s->sparse) {
		workload_timer_start(&tm);
		n = pcc_io(t, buf, 1);
		if (n >= 0 && fdatasync(plan->fds[t->index]) != 0)
			n = -1;
		workload_timer_stop(t, PCC_T_WRITE, &tm);
		if (n < 0) {
			rc = workload_fail(t, RB_EXIT_ENV, "page-cache-churn: "
			    "write: %s", strerror(errno));
			goto out;
		}
		workload_count(t, PCC_WRITTEN, (uint64_t)n);
	}
	for (pass = 0; fixed ? pass < s->passes : !workload_stopping(t);
	    pass++) {
		if (workload_stop_requested(t->ctx))
			break;
		read_bytes = t->slot->count[PCC_READ];
		read_w = t->record->timer_ns[PCC_T_READ];
		read_c = t->record->timer_cpu_ns[PCC_T_READ];
		workload_timer_start(&tm);
		n = pcc_io(t, buf, 0);
		workload_timer_stop(t, PCC_T_READ, &tm);
		if (n < 0) {
			rc = workload_fail(t, RB_EXIT_ENV, "page-cache-churn: "
			    "read: %s", strerror(errno));
			goto out;
		}
		workload_count(t, PCC_READ, (uint64_t)n);
		workload_timer_start(&tm);
		n = pcc_io(t, buf, 0);
		workload_timer_stop(t, PCC_T_REREAD, &tm);
		if (n > 0)
			workload_count(t, PCC_REREAD, (uint64_t)n);
		before = pcc_cached(t, vec);
		evict_w = t->record->timer_ns[PCC_T_EVICT];
		evict_c = t->record->timer_cpu_ns[PCC_T_EVICT];
		workload_timer_start(&tm);
		pcc_evict(t);
		workload_timer_stop(t, PCC_T_EVICT, &tm);
		if (cold) {
			/* read_evict: a cold read and the eviction after it. */
			workload_count(t, PCC_CHURN, t->slot->count[PCC_READ] -
			    read_bytes);
			t->record->timer_ns[PCC_T_CHURN] +=
			    t->record->timer_ns[PCC_T_READ] - read_w +
			    t->record->timer_ns[PCC_T_EVICT] - evict_w;
			t->record->timer_cpu_ns[PCC_T_CHURN] +=
			    t->record->timer_cpu_ns[PCC_T_READ] - read_c +
			    t->record->timer_cpu_ns[PCC_T_EVICT] - evict_c;
		}
		after = pcc_cached(t, vec);
		workload_count(t, PCC_EVICTED, before > after ? before - after :
		    0);
		workload_gauge(t, PCC_STILL_CACHED, after);
		cold = 1;
	}
out:
	workload_end_measure(t);
	free(vec);
	free(buf);
	return (rc);
}

/* Close and unmap the (already unlinked) files. */
static void
pcc_teardown(struct workload_ctx *ctx)
{
	struct pcc_plan *plan = ctx->priv;
	int i;

	for (i = 0; plan->fds != NULL && i < ctx->nthreads; i++) {
		if (plan->maps[i] != NULL)
			munmap(plan->maps[i], plan->file_size);
		if (plan->fds[i] != -1)
			close(plan->fds[i]);
	}
}

/* Runnable when the default scratch directory can hold page cache. */
static int
pcc_supported(char **reason)
{
	return (pcc_check_dir(pcc_default_dir(), 0, RB_EXIT_ENV, reason) == 0);
}

const struct workload_desc workload_page_cache_churn = {
	.name = "page-cache-churn",
	.summary = "write, read, re-read and evict files: page cache fill and "
	    "drop",
	.options = pcc_options,
	.settings_size = sizeof(struct pcc_settings),
	.counters = pcc_counters,
	.supported = pcc_supported,
	.prepare = pcc_prepare,
	.setup = pcc_setup,
	.run = pcc_run,
	.teardown = pcc_teardown,
};
