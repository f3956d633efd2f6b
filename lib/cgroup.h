/*
 * Reading cgroup v2 text files: /proc/PID/cgroup, cgroup.controllers,
 * cgroup.subtree_control, cgroup.procs and memory.max.  Pure functions over the text,
 * so they are tested on fixtures; workloads/workload-cgroup.c does the
 * file system work.
 */
#ifndef RB_CGROUP_H
#define RB_CGROUP_H

#include <sys/types.h>

#include <stdint.h>

char	*cgroup_unified_path(const char *proc_cgroup);
int	 cgroup_list_has(const char *list, const char *word);
int	 cgroup_procs_only(const char *procs, pid_t pid);
int	 cgroup_memory_max(const char *text, uint64_t *bytes);

#endif
