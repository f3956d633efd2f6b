/*
 * DAMON's sysfs admin tree, for the references of the memory regions
 * (docs/damon.md).  The tree is one per machine and has no owner: a
 * platform may already run a kdamond there, and writing nr_kdamonds while
 * any runs fails with EBUSY.  So this module refuses any kdamond it did not
 * start, turns off only the one whose pid it recorded, and keeps that pid
 * in a record file so that a run killed with SIGKILL leaves enough for the
 * next one to recognise and clean its own leftover.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic-file.h"
#include "damon.h"
#include "log.h"

/* Build a path under the kdamond's directory; fails only when too long. */
static int
damon_path(char *buf, size_t len, const char *base, const char *fmt, ...)
    RB_PRINTF(4, 5);

static int
damon_path(char *buf, size_t len, const char *base, const char *fmt, ...)
{
	va_list ap;
	int n, m;

	n = snprintf(buf, len, "%s/", base);
	if (n < 0 || (size_t)n >= len)
		return (-1);
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	return (m < 0 || (size_t)m >= len - n ? -1 : 0);
}

/* Read a small sysfs file, trailing newline removed. */
static int
damon_read(const char *path, char *buf, size_t len, char **cause)
{
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", path,
		    strerror(errno)));
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return (fail_with(cause, RB_EXIT_ENV, "%s: read: %s", path,
		    strerror(errno)));
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return (0);
}

/* Read a number from a sysfs file ("-1" for a kdamond's absent pid). */
static int
damon_read_num(const char *path, long long *v, char **cause)
{
	char buf[64], *end;
	int rc;

	if ((rc = damon_read(path, buf, sizeof buf, cause)) != 0)
		return (rc);
	errno = 0;
	*v = strtoll(buf, &end, 10);
	if (errno != 0 || end == buf || *end != '\0')
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected a "
		    "number, found '%s'", path, buf));
	return (0);
}

/* Read an unsigned 64-bit number (addresses, counts). */
static int
damon_read_u64(const char *path, uint64_t *v, char **cause)
{
	char buf[64], *end;
	int rc;

	if ((rc = damon_read(path, buf, sizeof buf, cause)) != 0)
		return (rc);
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno != 0 || end == buf || *end != '\0' || buf[0] == '-')
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected an "
		    "unsigned number, found '%s'", path, buf));
	return (0);
}

/* Write a value to a sysfs file, as one write. */
static int
damon_write(const char *path, const char *value, char **cause)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, e;

	if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", path,
		    strerror(errno)));
	n = write(fd, value, len);
	e = errno;
	close(fd);
	if (n != (ssize_t)len)
		return (fail_with(cause, RB_EXIT_ENV, "%s: writing '%s': %s",
		    path, value, n < 0 ? strerror(e) : "short write"));
	return (0);
}

/* Write under the kdamond's directory. */
static int
damon_kd_write(struct damon *d, const char *rel, const char *value,
    char **cause)
{
	char path[PATH_MAX];

	if (damon_path(path, sizeof path, d->kd, "%s", rel) != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s/%s: path too long",
		    d->kd, rel));
	return (damon_write(path, value, cause));
}

/* The same with a number. */
static int
damon_kd_write_u64(struct damon *d, const char *rel, uint64_t v,
    char **cause)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%" PRIu64, v);
	return (damon_kd_write(d, rel, buf, cause));
}

/*
 * Find the admin tree under the sys root; exit 3 naming the kernel
 * options when there is none.  Nothing is written.
 */
int
damon_open(struct damon *d, const char *sys_root, const char *proc_root,
    const char *record, char **cause)
{
	char path[PATH_MAX];
	struct stat st;

	memset(d, 0, sizeof *d);
	errno = 0;
	if (snprintf(d->admin, sizeof d->admin, "%s/kernel/mm/damon/admin",
	    sys_root) >= (int)sizeof d->admin ||
	    snprintf(d->kd, sizeof d->kd, "%s/kdamonds/0", d->admin) >=
	    (int)sizeof d->kd ||
	    snprintf(d->record, sizeof d->record, "%s",
	    record != NULL ? record : DAMON_RECORD_DEFAULT) >=
	    (int)sizeof d->record)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: path too long",
		    sys_root));
	if (stat(d->admin, &st) == -1 || !S_ISDIR(st.st_mode))
		return (fail_with(cause, RB_EXIT_ENV, "no DAMON sysfs "
		    "interface (%s: %s): the kernel needs %s", d->admin,
		    errno != 0 ? strerror(errno) : "not a directory",
		    DAMON_NEEDS));
	/* A record from another boot names a pid that means nothing now. */
	snprintf(path, sizeof path, "%s/sys/kernel/random/boot_id",
	    proc_root);
	if (damon_read(path, d->boot_id, sizeof d->boot_id, NULL) != 0)
		d->boot_id[0] = '\0';
	return (0);
}

/*
 * Write the record: our kdamond's pid (0: configured, not started yet),
 * replaced whole (lib/atomic-file.c) and readable by its owner only.
 */
static int
damon_record_write(struct damon *d, long pid, char **cause)
{
	struct atomic_file af;
	char text[256], dir[PATH_MAX], *slash;
	int len, rc;

	snprintf(dir, sizeof dir, "%s", d->record);
	if ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0700) == -1 && errno != EEXIST)
			return (fail_with(cause, RB_EXIT_ENV, "%s: mkdir: %s",
			    dir, strerror(errno)));
	}
	len = snprintf(text, sizeof text, "pid %ld\nboot %s\nadmin %s\n",
	    pid, d->boot_id[0] != '\0' ? d->boot_id : "-", d->admin);
	if ((rc = atomic_file_open(&af, d->record, cause)) != 0)
		return (rc);
	if (fchmod(af.fd, 0600) == -1) {
		rc = fail_with(cause, RB_EXIT_ENV, "%s: chmod: %s", d->record,
		    strerror(errno));
		atomic_file_abort(&af);
		return (rc);
	}
	if ((rc = atomic_file_append(&af, text, len, cause)) != 0) {
		atomic_file_abort(&af);
		return (rc);
	}
	return (atomic_file_commit(&af, cause));
}

/*
 * Read the record: 1 with the pid when it names a kdamond of this boot
 * started through this admin tree, 0 when there is none or it does not
 * apply, -2 when it is malformed (docs/damon.md, "after SIGKILL").
 */
static int
damon_record_read(struct damon *d, long *pid, char **cause)
{
	char text[512], boot[64], admin[PATH_MAX];
	ssize_t n;
	int fd;

	if ((fd = open(d->record, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return (0);
	n = read(fd, text, sizeof text - 1);
	close(fd);
	if (n < 0)
		return (0);
	text[n] = '\0';
	if (sscanf(text, "pid %ld\nboot %63s\nadmin %4095s", pid, boot,
	    admin) != 3 || *pid < 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected 'pid N', "
		    "'boot ID' and 'admin PATH' lines: remove it if no "
		    "kdamond of regionbench runs", d->record));
	if (strcmp(admin, d->admin) != 0)
		return (0);
	if (d->boot_id[0] != '\0' && strcmp(boot, d->boot_id) != 0)
		return (0);
	return (1);
}

/* The state and pid of kdamond i (pid -1 when it is off). */
static int
damon_kdamond_state(struct damon *d, long long i, char *state, size_t len,
    long long *pid, char **cause)
{
	char path[PATH_MAX];
	int rc;

	damon_path(path, sizeof path, d->admin, "kdamonds/%lld/state", i);
	if ((rc = damon_read(path, state, len, cause)) != 0)
		return (rc);
	damon_path(path, sizeof path, d->admin, "kdamonds/%lld/pid", i);
	return (damon_read_num(path, pid, cause));
}

/* Turn kdamond 0 off and remove every kdamond: the tree as we found it. */
static int
damon_reset(struct damon *d, char **cause)
{
	char path[PATH_MAX], state[16];
	long long pid;
	int rc, tries;

	if (damon_kdamond_state(d, 0, state, sizeof state, &pid, NULL) == 0 &&
	    strcmp(state, "on") == 0 &&
	    (rc = damon_kd_write(d, "state", "off", cause)) != 0)
		return (rc);
	damon_path(path, sizeof path, d->admin, "kdamonds/nr_kdamonds");
	/* The kdamond may take a moment to finish after "off". */
	for (tries = 0; ; tries++) {
		if ((rc = damon_write(path, "0", tries < 50 ? NULL :
		    cause)) == 0)
			break;
		if (tries >= 50)
			return (rc);
		nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	}
	d->configured = 0;
	d->pid = 0;
	unlink(d->record);
	return (0);
}

/*
 * Make sure the admin tree is free for us.  Any kdamond that is on, or
 * kdamonds configured by someone else, make this refuse (exit 3, saying
 * which and its pid); our own leftover of a run killed with SIGKILL (the
 * record names its pid on this boot) is turned off and removed.  Returns
 * 0 when the tree was free, 1 when a leftover of ours was cleaned.
 */
int
damon_claim(struct damon *d, char **cause)
{
	char path[PATH_MAX], state[16];
	long long n, pid, i;
	long mine;
	int rc, recorded;

	damon_path(path, sizeof path, d->admin, "kdamonds/nr_kdamonds");
	if ((rc = damon_read_num(path, &n, cause)) != 0)
		return (rc);
	if ((recorded = damon_record_read(d, &mine, cause)) < 0)
		return (recorded);
	if (n == 0) {
		if (recorded)
			unlink(d->record);
		return (0);
	}
	if ((rc = damon_kdamond_state(d, 0, state, sizeof state, &pid,
	    cause)) != 0)
		return (rc);
	/* Ours: started (same pid, on) or configured and not started. */
	if (n == 1 && recorded && ((mine > 0 && pid == mine &&
	    strcmp(state, "on") == 0) || (mine == 0 &&
	    strcmp(state, "off") == 0))) {
		if ((rc = damon_reset(d, cause)) != 0)
			return (rc);
		return (1);
	}
	/* Name the first kdamond that is on, if any. */
	for (i = 0; i < n && strcmp(state, "on") != 0; i++) {
		if ((rc = damon_kdamond_state(d, i, state, sizeof state, &pid,
		    cause)) != 0)
			return (rc);
	}
	if (strcmp(state, "on") == 0)
		return (fail_with(cause, RB_EXIT_ENV, "DAMON is in use: "
		    "kdamond %lld is on (pid %lld, %s/kdamonds/%lld) and was "
		    "not started by regionbench; it only monitors when no "
		    "kdamond is on or configured (run without --references, "
		    "or in a guest: regionbench vm)", i > 0 ? i - 1 : 0, pid,
		    d->admin, i > 0 ? i - 1 : 0));
	damon_kdamond_state(d, 0, state, sizeof state, &pid, NULL);
	return (fail_with(cause, RB_EXIT_ENV, "DAMON is in use: %lld "
	    "kdamond%s configured (%s/kdamonds/nr_kdamonds; kdamond 0 is "
	    "%s, pid %lld) by someone else; regionbench only monitors when "
	    "nr_kdamonds is 0 (run without --references)", n,
	    n == 1 ? " is" : "s are", d->admin, state, pid));
}

/*
 * Make one kdamond with one paddr context, one target and one stat
 * scheme, and check the kernel has what the references need: paddr in
 * avail_operations and the scheme's tried_regions (kernel >= 6.2).  The
 * record is written first, so a kill in between leaves a tree the next
 * run recognises.  On failure the caller calls damon_stop.
 */
int
damon_setup(struct damon *d, char **cause)
{
	char path[PATH_MAX], ops[256], *w, *save;
	struct stat st;
	int rc, found = 0;

	if ((rc = damon_record_write(d, 0, cause)) != 0)
		return (rc);
	damon_path(path, sizeof path, d->admin, "kdamonds/nr_kdamonds");
	if ((rc = damon_write(path, "1", cause)) != 0)
		return (rc);
	d->configured = 1;
	d->owner = getpid();
	if ((rc = damon_kd_write(d, "contexts/nr_contexts", "1", cause)) != 0)
		return (rc);
	damon_path(path, sizeof path, d->kd, "contexts/0/avail_operations");
	if ((rc = damon_read(path, ops, sizeof ops, cause)) != 0)
		return (rc);
	for (w = strtok_r(ops, " \n", &save); w != NULL;
	    w = strtok_r(NULL, " \n", &save))
		found |= strcmp(w, "paddr") == 0;
	if (!found)
		return (fail_with(cause, RB_EXIT_ENV, "DAMON has no physical "
		    "address monitoring (%s lacks paddr): the kernel needs %s",
		    path, DAMON_NEEDS));
	if ((rc = damon_kd_write(d, "contexts/0/operations", "paddr",
	    cause)) != 0 ||
	    (rc = damon_kd_write(d, "contexts/0/targets/nr_targets", "1",
	    cause)) != 0 ||
	    (rc = damon_kd_write(d, "contexts/0/schemes/nr_schemes", "1",
	    cause)) != 0 ||
	    (rc = damon_kd_write(d, "contexts/0/schemes/0/action", "stat",
	    cause)) != 0)
		return (rc);
	damon_path(path, sizeof path, d->kd,
	    "contexts/0/schemes/0/tried_regions");
	errno = 0;
	if (stat(path, &st) == -1 || !S_ISDIR(st.st_mode))
		return (fail_with(cause, RB_EXIT_ENV, "DAMON schemes have no "
		    "tried_regions (%s: %s): the kernel needs %s", path,
		    strerror(errno != 0 ? errno : ENOTDIR), DAMON_NEEDS));
	return (0);
}

/*
 * Give the kdamond its attributes and the memory ranges, match every
 * access pattern, and turn it on; its pid goes into the record.
 */
int
damon_start(struct damon *d, const struct damon_range *ranges, int nranges,
    const struct damon_attrs *attrs, char **cause)
{
	static const char *const pattern[] = { "sz", "nr_accesses", "age" };
	static const uint64_t pattern_max[] = { UINT64_MAX, UINT32_MAX,
	    UINT32_MAX };
	char rel[256], path[PATH_MAX];
	long long pid;
	int i, rc;

	if (nranges <= 0)
		return (fail_with(cause, RB_EXIT_ENV, "DAMON: no System RAM "
		    "in the memory regions to monitor"));
	if ((rc = damon_kd_write_u64(d,
	    "contexts/0/monitoring_attrs/intervals/sample_us",
	    attrs->sample_us, cause)) != 0 ||
	    (rc = damon_kd_write_u64(d,
	    "contexts/0/monitoring_attrs/intervals/aggr_us", attrs->aggr_us,
	    cause)) != 0 ||
	    (rc = damon_kd_write_u64(d,
	    "contexts/0/monitoring_attrs/intervals/update_us",
	    attrs->aggr_us, cause)) != 0 ||
	    /* max first: min may not exceed it at any time. */
	    (rc = damon_kd_write_u64(d,
	    "contexts/0/monitoring_attrs/nr_regions/max", attrs->max_regions,
	    cause)) != 0 ||
	    (rc = damon_kd_write_u64(d,
	    "contexts/0/monitoring_attrs/nr_regions/min", attrs->min_regions,
	    cause)) != 0 ||
	    (rc = damon_kd_write_u64(d,
	    "contexts/0/targets/0/regions/nr_regions", (uint64_t)nranges,
	    cause)) != 0)
		return (rc);
	for (i = 0; i < nranges; i++) {
		snprintf(rel, sizeof rel, "contexts/0/targets/0/regions/%d/"
		    "start", i);
		if ((rc = damon_kd_write_u64(d, rel, ranges[i].start,
		    cause)) != 0)
			return (rc);
		snprintf(rel, sizeof rel, "contexts/0/targets/0/regions/%d/end",
		    i);
		if ((rc = damon_kd_write_u64(d, rel, ranges[i].end,
		    cause)) != 0)
			return (rc);
	}
	for (i = 0; i < 3; i++) {
		snprintf(rel, sizeof rel, "contexts/0/schemes/0/access_pattern/"
		    "%s/max", pattern[i]);
		if ((rc = damon_kd_write_u64(d, rel, pattern_max[i],
		    cause)) != 0)
			return (rc);
		snprintf(rel, sizeof rel, "contexts/0/schemes/0/access_pattern/"
		    "%s/min", pattern[i]);
		if ((rc = damon_kd_write_u64(d, rel, 0, cause)) != 0)
			return (rc);
	}
	if ((rc = damon_kd_write(d, "state", "on", cause)) != 0)
		return (rc);
	damon_path(path, sizeof path, d->kd, "pid");
	if ((rc = damon_read_num(path, &pid, cause)) != 0)
		return (rc);
	if (pid <= 0)
		return (fail_with(cause, RB_EXIT_ENV, "%s: no kdamond after "
		    "state=on (pid %lld)", path, pid));
	d->pid = (long)pid;
	return (damon_record_write(d, d->pid, cause));
}

/* Read every tried_regions/N of the scheme into d->tried. */
static int
damon_read_tried(struct damon *d, char **cause)
{
	static const char *const field[] = { "start", "end", "nr_accesses",
	    "age" };
	char path[PATH_MAX];
	struct damon_tried *t;
	uint64_t v[4];
	int i, k, rc;

	d->ntried = 0;
	for (i = 0; ; i++) {
		for (k = 0; k < 4; k++) {
			damon_path(path, sizeof path, d->kd, "contexts/0/"
			    "schemes/0/tried_regions/%d/%s", i, field[k]);
			if (k == 0 && access(path, F_OK) == -1 &&
			    errno == ENOENT)
				return (0);
			if ((rc = damon_read_u64(path, &v[k], cause)) != 0)
				return (rc);
		}
		if (v[1] <= v[0])
			return (fail_with(cause, RB_EXIT_INPUT, "%s/contexts/0/"
			    "schemes/0/tried_regions/%d: end %" PRIu64 " is "
			    "not after start %" PRIu64, d->kd, i, v[1], v[0]));
		if (d->ntried == d->tried_cap) {
			d->tried_cap = d->tried_cap == 0 ? 256 :
			    d->tried_cap * 2;
			d->tried = xreallocarray(d->tried, d->tried_cap,
			    sizeof *d->tried);
		}
		t = &d->tried[d->ntried++];
		t->start = v[0];
		t->end = v[1];
		t->nr_accesses = v[2];
		t->age = v[3];
	}
}

/*
 * Ask the kdamond for the regions its scheme tried in the last
 * aggregation interval and read them.  The write may block up to one
 * aggregation interval (kernels >= 6.14), so callers use their own
 * thread.  An empty answer happens now and then: retry once.
 */
int
damon_update(struct damon *d, char **cause)
{
	int rc, attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		if ((rc = damon_kd_write(d, "state",
		    "update_schemes_tried_regions", cause)) != 0)
			return (rc);
		if ((rc = damon_read_tried(d, cause)) != 0)
			return (rc);
		if (d->ntried > 0)
			return (0);
		d->empty_updates++;
	}
	return (0);
}

/*
 * Turn off and remove the kdamond we configured, and only that one: when
 * its pid is no longer ours, someone else took the tree over and it is
 * left alone.  Does nothing when we configured nothing.
 */
int
damon_stop(struct damon *d, char **cause)
{
	char state[16];
	long long pid;
	int rc;

	if (!d->configured)
		return (0);
	if ((rc = damon_kdamond_state(d, 0, state, sizeof state, &pid,
	    cause)) != 0)
		return (rc);
	if (strcmp(state, "on") == 0 && (d->pid == 0 || pid != d->pid))
		return (fail_with(cause, RB_EXIT_ENV, "%s: kdamond 0 (pid "
		    "%lld) is not the one regionbench started (pid %ld): "
		    "left alone", d->kd, pid, d->pid));
	return (damon_reset(d, cause));
}

/* Release the memory of the tried regions. */
void
damon_close(struct damon *d)
{
	free(d->tried);
	d->tried = NULL;
	d->ntried = d->tried_cap = 0;
}
