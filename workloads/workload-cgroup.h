/*
 * The workloads' own memory cgroup (cgroup v2), so an OOM kill in a
 * memory-limited cgroup takes the whole workload at once
 * (memory.oom.group) and never the runner beside it.  See
 * docs/reliability.md for when it can be made and what remains.
 */
#ifndef RB_WORKLOAD_CGROUP_H
#define RB_WORKLOAD_CGROUP_H

#include <jansson.h>
#include <stdint.h>

struct workload_cgroup {
	char	*parent;	/* the runner's cgroup directory at the start */
	char	*runner;	/* where the runner moved, or NULL */
	char	*work;		/* the workloads' cgroup, or NULL */
	char	*why;		/* why there is none */
	int	 procs_fd;	/* work/cgroup.procs, for the children */
	int	 enabled_memory; /* we wrote +memory to parent's subtree */
	uint64_t memory_max;	/* the workloads' memory.max, or 0: none */
	uint64_t inherited_limit; /* the tightest limit above them */
};

void	 workload_cgroup_setup(struct workload_cgroup *wc,
	     const char *cgroup_root);
void	 workload_cgroup_teardown(struct workload_cgroup *wc);
json_t	*workload_cgroup_json(const struct workload_cgroup *wc);
void	 workload_cgroup_free(struct workload_cgroup *wc);

#endif
