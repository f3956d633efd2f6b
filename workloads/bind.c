/*
 * Thread and memory placement.  Cores come from hwloc (a topology loaded
 * once per process); a thread is bound with sched_setaffinity to the PUs
 * of its core, so the child needs no hwloc call after the fork.  libnuma
 * falls back to node 0 with a warning on stderr when asked for a node
 * that does not exist, so nodes are checked against numa_all_nodes_ptr
 * first and libnuma's warning hooks are replaced by silent ones.
 */
#include "config.h"

#include <errno.h>
#include <hwloc.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <string.h>

#include "log.h"
#include "bind.h"

static hwloc_topology_t bind_topology;
static int bind_loaded;

/* libnuma calls this on errors; the callers here report their own. */
void
numa_error(char *where)
{
	(void)where;
}

/* libnuma calls this on warnings (e.g. a node out of range). */
void
numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

/* Load the hwloc topology once; 0 when it can't be loaded. */
static int
bind_topology_load(void)
{
	if (bind_loaded)
		return (bind_loaded > 0);
	bind_loaded = -1;
	if (hwloc_topology_init(&bind_topology) != 0)
		return (0);
	if (hwloc_topology_load(bind_topology) != 0) {
		hwloc_topology_destroy(bind_topology);
		return (0);
	}
	bind_loaded = 1;
	return (1);
}

/* How many cores hwloc finds (at least 1). */
int
bind_core_count(void)
{
	int n;

	if (!bind_topology_load())
		return (1);
	n = hwloc_get_nbobjs_by_type(bind_topology, HWLOC_OBJ_CORE);
	if (n <= 0)
		n = hwloc_get_nbobjs_by_type(bind_topology, HWLOC_OBJ_PU);
	return (n > 0 ? n : 1);
}

/* Turn an hwloc cpuset into a cpu_set_t. */
static void
bind_to_cpu_set(hwloc_const_cpuset_t in, cpu_set_t *out)
{
	int i;

	CPU_ZERO(out);
	hwloc_bitmap_foreach_begin(i, in) {
		if (i < CPU_SETSIZE)
			CPU_SET(i, out);
	} hwloc_bitmap_foreach_end();
}

/*
 * Give each thread the PUs of one core: compact fills cores in order,
 * scatter takes one core of each package in turn.  With mode none every
 * set stays empty (no binding).
 */
int
bind_plan_cpus(int mode, int nthreads, cpu_set_t *sets, char **cause)
{
	hwloc_obj_t core, pkg;
	int ncores, npkgs, i, k, p, n, *order;

	for (i = 0; i < nthreads; i++)
		CPU_ZERO(&sets[i]);
	if (mode == WORKLOAD_BIND_NONE)
		return (0);
	if (!bind_topology_load())
		return (fail_with(cause, RB_EXIT_ENV,
		    "--cpu-bind: hwloc can't load the topology"));
	ncores = hwloc_get_nbobjs_by_type(bind_topology, HWLOC_OBJ_CORE);
	if (ncores <= 0)
		return (fail_with(cause, RB_EXIT_ENV,
		    "--cpu-bind: hwloc finds no cores"));
	order = xcalloc(ncores, sizeof *order);
	npkgs = hwloc_get_nbobjs_by_type(bind_topology, HWLOC_OBJ_PACKAGE);
	if (mode == WORKLOAD_BIND_COMPACT || npkgs <= 1) {
		for (i = 0; i < ncores; i++)
			order[i] = i;
	} else {
		n = 0;
		for (k = 0; n < ncores; k++) {
			for (p = 0; p < npkgs; p++) {
				pkg = hwloc_get_obj_by_type(bind_topology,
				    HWLOC_OBJ_PACKAGE, p);
				core = hwloc_get_obj_inside_cpuset_by_type(
				    bind_topology, pkg->cpuset, HWLOC_OBJ_CORE,
				    k);
				if (core != NULL)
					order[n++] = core->logical_index;
			}
			if (k > ncores)
				break;
		}
	}
	for (i = 0; i < nthreads; i++) {
		core = hwloc_get_obj_by_type(bind_topology, HWLOC_OBJ_CORE,
		    order[i % ncores]);
		bind_to_cpu_set(core->cpuset, &sets[i]);
	}
	free(order);
	return (0);
}

/* Is node a memory node this machine has? */
int
bind_check_node(long node, char **cause)
{
	char list[256] = "";
	int i, max;

	if (node < 0)
		return (0);
	if (numa_available() < 0)
		return (fail_with(cause, RB_EXIT_INPUT,
		    "--node %ld: this kernel has no NUMA support", node));
	max = numa_max_node();
	if (node <= max && numa_bitmask_isbitset(numa_all_nodes_ptr,
	    (unsigned int)node))
		return (0);
	for (i = 0; i <= max; i++) {
		if (!numa_bitmask_isbitset(numa_all_nodes_ptr, i))
			continue;
		snprintf(list + strlen(list), sizeof list - strlen(list),
		    "%s%d", list[0] != '\0' ? "," : "", i);
	}
	return (fail_with(cause, RB_EXIT_INPUT,
	    "--node %ld: no such memory node (this machine has %s)", node,
	    list));
}

/* Bind the calling thread's future allocations to one node. */
int
bind_membind(long node, char **cause)
{
	unsigned long mask[16];

	if (node < 0)
		return (0);
	if ((size_t)node >= sizeof mask * 8)
		return (fail_with(cause, RB_EXIT_INPUT, "--node %ld: too large",
		    node));
	memset(mask, 0, sizeof mask);
	mask[node / (8 * sizeof mask[0])] |= 1UL << (node %
	    (8 * sizeof mask[0]));
	if (set_mempolicy(MPOL_BIND, mask, sizeof mask * 8) != 0)
		return (fail_with(cause, RB_EXIT_ENV,
		    "set_mempolicy(MPOL_BIND, node %ld): %s", node,
		    strerror(errno)));
	return (0);
}
