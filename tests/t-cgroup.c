/*
 * Unit tests for lib/cgroup.c: the texts of /proc/PID/cgroup on v1, v2
 * and hybrid machines, controller lists and cgroup.procs.  The cgroup
 * the workloads run in is tested in a guest (tests/vm-oom.sh).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "tap.h"

static void
test_unified_path(void)
{
	char *p;

	p = cgroup_unified_path("0::/user.slice/session-3.scope\n");
	tap_ok(p != NULL && strcmp(p, "/user.slice/session-3.scope") == 0,
	    "v2: the 0:: line's path");
	free(p);
	p = cgroup_unified_path("0::/\n");
	tap_ok(p != NULL && strcmp(p, "/") == 0, "v2: the root");
	free(p);
	p = cgroup_unified_path("12:pids:/\n11:memory:/user.slice\n"
	    "1:name=systemd:/user.slice/session-3.scope\n"
	    "0::/user.slice/session-3.scope");
	tap_ok(p != NULL && strcmp(p, "/user.slice/session-3.scope") == 0,
	    "hybrid: the 0:: line, last and without a newline");
	free(p);
	tap_ok(cgroup_unified_path("9:memory:/\n1:name=systemd:/\n") == NULL,
	    "v1 only: no unified path");
	tap_ok(cgroup_unified_path("") == NULL, "empty file: none");
	tap_ok(cgroup_unified_path("0::relative\n") == NULL,
	    "a path not starting with / is not taken");
}

static void
test_lists(void)
{
	tap_ok(cgroup_list_has("cpuset cpu io memory hugetlb pids\n",
	    "memory"), "memory among the controllers");
	tap_ok(cgroup_list_has("memory\n", "memory"), "memory alone");
	tap_ok(!cgroup_list_has("cpu io pids\n", "memory"), "no memory");
	tap_ok(!cgroup_list_has("memoryx cpu\n", "memory"),
	    "a longer word is not memory");
	tap_ok(!cgroup_list_has("", "memory"), "empty list");
}

static void
test_procs(void)
{
	tap_ok(cgroup_procs_only("42\n", 42), "only the runner");
	tap_ok(!cgroup_procs_only("42\n43\n", 42), "another process too");
	tap_ok(!cgroup_procs_only("43\n", 42), "another process only");
	tap_ok(!cgroup_procs_only("", 42), "empty: the runner is not there");
	tap_ok(!cgroup_procs_only("42x\n", 42), "garbage is not the runner");
}

static void
test_memory_max(void)
{
	uint64_t v = 7;

	tap_ok(cgroup_memory_max("max\n", &v) == 0 && v == 7, "max: no limit");
	tap_ok(cgroup_memory_max("134217728\n", &v) == 1 && v == 134217728,
	    "a limit in bytes");
	tap_ok(cgroup_memory_max("12k\n", &v) == -1, "a suffix is not bytes");
	tap_ok(cgroup_memory_max("-1\n", &v) == -1, "a sign is not bytes");
	tap_ok(cgroup_memory_max("", &v) == -1, "empty");
}

int
main(void)
{
	test_unified_path();
	test_lists();
	test_procs();
	test_memory_max();
	return (tap_done());
}
