/*
 * The workloads' own memory cgroup.
 *
 * The runner and its workloads usually share one cgroup.  When that
 * cgroup has a memory limit and a workload exceeds it, the OOM killer
 * picks the workload (oom_score_adj +1000) but, where the runner cannot
 * lower its own score (no CAP_SYS_RESOURCE), the runner's next allocation
 * can trigger a second kill before the first victim's memory is back, and
 * a workload of several processes (fork-heavy) is killed one process at a
 * time.  With the workloads in a child cgroup with memory.oom.group set,
 * one OOM kill takes every workload process together, and the runner is
 * outside the group.
 *
 * cgroup v2 forbids processes in a cgroup whose children have controllers
 * enabled (the no-internal-process rule), except in the root.  So:
 *   - in the root cgroup, the workloads' cgroup is made beside the runner;
 *   - in a cgroup that holds only the runner, the runner first moves into
 *     a child of its own, then the memory controller is enabled for the
 *     children and the workloads' cgroup is made; teardown undoes each
 *     step in reverse order;
 *   - anywhere else (other processes beside the runner, cgroup v1, no
 *     permission) nothing changes and meta.json says why.
 * A runner killed by SIGKILL leaves its two empty cgroups behind.
 *
 * oom.group alone does not keep the runner out of a second kill: the OOM
 * domain is the limited ancestor, which holds the runner too, and when
 * the first victims' memory is slow to come back (an emulated guest on a
 * busy host) the next charge to that ancestor picks the runner.  So the
 * workloads' cgroup also gets a memory.max a reserve below the tightest
 * limit above it: the workloads reach their own limit first, and their
 * OOM kills choose among workload processes only.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/statfs.h>

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "log.h"
#include "procfile.h"
#include "workload-cgroup.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif

/*
 * What the workloads' memory.max leaves to the runner under the tightest
 * limit above it: an eighth of that limit, within these bounds.  Below
 * WORKLOAD_CGROUP_MIN_LIMIT the workloads keep the inherited limit (the
 * runner alone needs a few MiB; a reserve would leave them nothing).
 */
#define WORKLOAD_CGROUP_RESERVE_MIN	(16ULL << 20)
#define WORKLOAD_CGROUP_RESERVE_MAX	(256ULL << 20)
#define WORKLOAD_CGROUP_MIN_LIMIT	(4 * WORKLOAD_CGROUP_RESERVE_MIN)

/* How long teardown waits for the workloads' cgroup to empty. */
#define WORKLOAD_CGROUP_DRAIN_NS	(5ULL * 1000 * 1000 * 1000)

/* Write text to dir/name; -1 with errno on failure. */
static int
cgroup_write(const char *dir, const char *name, const char *text)
{
	char path[4096];
	ssize_t n;
	int fd, saved;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return (-1);
	n = write(fd, text, strlen(text));
	saved = errno;
	close(fd);
	errno = saved;
	return (n == (ssize_t)strlen(text) ? 0 : -1);
}

/* Read dir/name into pf; 0 or -1. */
static int
cgroup_read(struct procfile *pf, const char *dir, const char *name)
{
	char *cause = NULL;

	if (procfile_read(pf, dir, name, &cause) != 0) {
		free(cause);
		return (-1);
	}
	return (0);
}

static void
cgroup_none(struct workload_cgroup *wc, char *why)
{
	free(wc->why);
	wc->why = why;
}

/* Find the runner's cgroup v2 directory, or say why there is none. */
static int
cgroup_find_parent(struct workload_cgroup *wc, const char *root,
    struct procfile *pf)
{
	struct statfs sf;
	char *path;

	if (statfs(root, &sf) == -1 || sf.f_type != CGROUP2_SUPER_MAGIC) {
		cgroup_none(wc, xasprintf("%s is not a cgroup v2 file system "
		    "(cgroup v1 has no memory.oom.group)", root));
		return (-1);
	}
	if (cgroup_read(pf, "/proc/self", "cgroup") != 0 ||
	    (path = cgroup_unified_path(pf->buf)) == NULL) {
		cgroup_none(wc, xstrdup("/proc/self/cgroup names no cgroup "
		    "v2 path"));
		return (-1);
	}
	wc->parent = xasprintf("%s%s", root, strcmp(path, "/") == 0 ? "" :
	    path);
	free(path);
	if (cgroup_read(pf, wc->parent, "cgroup.controllers") != 0 ||
	    !cgroup_list_has(pf->buf, "memory")) {
		cgroup_none(wc, xasprintf("%s: the memory controller is not "
		    "available there", wc->parent));
		return (-1);
	}
	return (0);
}

/*
 * Move the runner out of its cgroup into a child of its own, so the
 * memory controller can be enabled for the children.  Only when the
 * runner is alone there: moving others is not ours to do.
 */
static int
cgroup_move_runner(struct workload_cgroup *wc, struct procfile *pf)
{
	char pid[32];

	if (cgroup_read(pf, wc->parent, "cgroup.procs") != 0 ||
	    !cgroup_procs_only(pf->buf, getpid())) {
		cgroup_none(wc, xasprintf("%s holds other processes: cgroup "
		    "v2 allows no child with the memory controller there; "
		    "start regionbench in a cgroup of its own (systemd-run "
		    "--scope)", wc->parent));
		return (-1);
	}
	wc->runner = xasprintf("%s/regionbench-%ld-runner", wc->parent,
	    (long)getpid());
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	if (mkdir(wc->runner, 0755) == -1 ||
	    cgroup_write(wc->runner, "cgroup.procs", pid) == -1) {
		cgroup_none(wc, xasprintf("%s: %s", wc->runner,
		    strerror(errno)));
		rmdir(wc->runner);
		free(wc->runner);
		wc->runner = NULL;
		return (-1);
	}
	return (0);
}

/*
 * The tightest memory.max of dir and its ancestors below root (the root
 * has none), or UINT64_MAX when none is set.
 */
static uint64_t
cgroup_inherited_limit(const char *root, const char *dir,
    struct procfile *pf)
{
	uint64_t limit = UINT64_MAX, v;
	size_t rootlen = strlen(root);
	char *path = xstrdup(dir), *slash;

	while (strlen(path) > rootlen) {
		if (cgroup_read(pf, path, "memory.max") == 0 &&
		    cgroup_memory_max(pf->buf, &v) == 1 && v < limit)
			limit = v;
		if ((slash = strrchr(path, '/')) == NULL)
			break;
		*slash = '\0';
	}
	free(path);
	return (limit);
}

/*
 * Set the workloads' memory.max a reserve below the limit they inherit
 * (see the top of the file); nothing when there is none or it is small.
 */
static void
cgroup_limit_work(struct workload_cgroup *wc, const char *root,
    struct procfile *pf)
{
	uint64_t limit, reserve;
	char text[32];

	limit = cgroup_inherited_limit(root, wc->parent, pf);
	if (limit == UINT64_MAX || limit < WORKLOAD_CGROUP_MIN_LIMIT)
		return;
	reserve = limit / 8;
	if (reserve < WORKLOAD_CGROUP_RESERVE_MIN)
		reserve = WORKLOAD_CGROUP_RESERVE_MIN;
	if (reserve > WORKLOAD_CGROUP_RESERVE_MAX)
		reserve = WORKLOAD_CGROUP_RESERVE_MAX;
	snprintf(text, sizeof text, "%llu",
	    (unsigned long long)(limit - reserve));
	if (cgroup_write(wc->work, "memory.max", text) == 0) {
		wc->inherited_limit = limit;
		wc->memory_max = limit - reserve;
	}
}

/* Make the workloads' cgroup (see the top of the file). */
void
workload_cgroup_setup(struct workload_cgroup *wc, const char *cgroup_root)
{
	struct procfile pf;
	char procs[4200];
	int is_root;

	memset(wc, 0, sizeof *wc);
	wc->procs_fd = -1;
	procfile_init(&pf);
	if (cgroup_find_parent(wc, cgroup_root, &pf) != 0)
		goto out;
	is_root = strcmp(wc->parent, cgroup_root) == 0;
	if (!is_root && cgroup_move_runner(wc, &pf) != 0)
		goto out;
	if (cgroup_read(&pf, wc->parent, "cgroup.subtree_control") != 0 ||
	    !cgroup_list_has(pf.buf, "memory")) {
		if (cgroup_write(wc->parent, "cgroup.subtree_control",
		    "+memory") == -1) {
			cgroup_none(wc, xasprintf("%s: cannot enable the "
			    "memory controller for children: %s", wc->parent,
			    strerror(errno)));
			goto undo;
		}
		/* The root keeps it: other cgroups may use it by now. */
		wc->enabled_memory = !is_root;
	}
	wc->work = xasprintf("%s/regionbench-%ld-workloads", wc->parent,
	    (long)getpid());
	snprintf(procs, sizeof procs, "%s/cgroup.procs", wc->work);
	if (mkdir(wc->work, 0755) == -1) {
		cgroup_none(wc, xasprintf("%s: %s", wc->work,
		    strerror(errno)));
		free(wc->work);
		wc->work = NULL;
		goto undo;
	}
	if (cgroup_write(wc->work, "memory.oom.group", "1") == -1 ||
	    (wc->procs_fd = open(procs, O_WRONLY | O_CLOEXEC)) == -1) {
		cgroup_none(wc, xasprintf("%s: %s", wc->work,
		    strerror(errno)));
		goto undo;
	}
	cgroup_limit_work(wc, cgroup_root, &pf);
	goto out;
undo:
	workload_cgroup_teardown(wc);
out:
	procfile_free(&pf);
}

/*
 * Empty the workloads' cgroup: its processes are normally gone (reaped
 * by the runner); stragglers (a fork-heavy grandchild between its
 * parent's death and its own) are killed, and rmdir is retried until the
 * kernel has let them go, for a bounded time.
 */
static void
cgroup_drain(const char *dir)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	struct procfile pf;
	char *p, *end;
	int i;

	procfile_init(&pf);
	for (i = 0; rmdir(dir) == -1 && errno == EBUSY &&
	    (uint64_t)i * 10 * 1000 * 1000 < WORKLOAD_CGROUP_DRAIN_NS; i++) {
		if (cgroup_write(dir, "cgroup.kill", "1") == -1 &&
		    cgroup_read(&pf, dir, "cgroup.procs") == 0) {
			/* Kernels before 5.14 have no cgroup.kill. */
			for (p = pf.buf; *p != '\0'; p = end) {
				long pid = strtol(p, &end, 10);

				if (end == p)
					break;
				if (pid > 0)
					kill((pid_t)pid, SIGKILL);
				while (*end == '\n')
					end++;
			}
		}
		nanosleep(&nap, NULL);
	}
	procfile_free(&pf);
}

/*
 * Undo what setup did, in reverse order: the workloads' cgroup, the
 * memory controller for the children, the runner's own move.  Frees wc.
 */
void
workload_cgroup_teardown(struct workload_cgroup *wc)
{
	char pid[32];

	if (wc->procs_fd != -1)
		close(wc->procs_fd);
	wc->procs_fd = -1;
	if (wc->work != NULL)
		cgroup_drain(wc->work);
	if (wc->enabled_memory)
		cgroup_write(wc->parent, "cgroup.subtree_control", "-memory");
	if (wc->runner != NULL) {
		snprintf(pid, sizeof pid, "%ld", (long)getpid());
		if (cgroup_write(wc->parent, "cgroup.procs", pid) == 0)
			rmdir(wc->runner);
	}
	free(wc->parent);
	free(wc->runner);
	free(wc->work);
	wc->parent = wc->runner = wc->work = NULL;
	wc->enabled_memory = 0;
	wc->memory_max = wc->inherited_limit = 0;
}

/* For meta.json: where the workloads ran, or why in the runner's cgroup. */
json_t *
workload_cgroup_json(const struct workload_cgroup *wc)
{
	json_t *o;

	if (wc->work != NULL && wc->procs_fd != -1) {
		o = json_pack("{s:s, s:b}", "path", wc->work, "oom_group", 1);
		if (wc->memory_max != 0) {
			json_object_set_new(o, "memory_max",
			    json_integer((json_int_t)wc->memory_max));
			json_object_set_new(o, "inherited_limit",
			    json_integer((json_int_t)wc->inherited_limit));
		}
		return (o);
	}
	return (json_pack("{s:n, s:s}", "path", "why",
	    wc->why != NULL ? wc->why : "not set up"));
}

/* Free what teardown keeps (the reason). */
void
workload_cgroup_free(struct workload_cgroup *wc)
{
	free(wc->why);
	wc->why = NULL;
}
