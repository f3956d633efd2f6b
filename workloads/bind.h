/*
 * CPU placement of worker threads (hwloc) and memory binding to a NUMA
 * node (libnuma), for the --cpu-bind and --node options.
 */
#ifndef RB_BIND_H
#define RB_BIND_H

#include <sched.h>

int	 bind_core_count(void);
int	 bind_plan_cpus(int mode, int nthreads, cpu_set_t *sets,
	     char **cause);
int	 bind_check_node(long node, char **cause);
int	 bind_membind(long node, char **cause);

#endif
