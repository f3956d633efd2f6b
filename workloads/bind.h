/*
 * CPU placement of worker threads (hwloc) and memory binding to a NUMA
 * node (libnuma), for the --cpu-bind and --node options.
 */
#ifndef RB_BIND_H
#define RB_BIND_H

#include <sched.h>

/* --cpu-bind: how worker threads are placed on CPUs. */
enum workload_cpu_bind {
	WORKLOAD_BIND_NONE,
	WORKLOAD_BIND_COMPACT,
	WORKLOAD_BIND_SCATTER
};

int	 bind_core_count(void);
int	 bind_plan_cpus(int mode, int nthreads, cpu_set_t *sets,
	     char **cause);
int	 bind_check_node(long node, char **cause);
int	 bind_membind(long node, char **cause);

#endif
