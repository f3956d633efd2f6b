/*
 * Machine topology from hwloc (NUMA nodes, cores, memory per node) for
 * meta.json and `info`, and CPU binding for the sampler thread.
 */
#ifndef RB_TOPOLOGY_H
#define RB_TOPOLOGY_H

#include <jansson.h>
#include <stdint.h>

#define TOPOLOGY_MAX_NODES 64

struct topology_node {
	int		 os_index;
	uint64_t	 memory_bytes;
	int		 cores;
	int		 pus;
};

struct topology {
	int			 nnodes;
	struct topology_node	 nodes[TOPOLOGY_MAX_NODES];
	int			 cores;
	int			 pus;
	void			*hwloc;		/* hwloc_topology_t */
};

int	 topology_load(struct topology *topo, char **cause);
void	 topology_free(struct topology *topo);
json_t	*topology_json(const struct topology *topo);
int	 topology_last_pu(const struct topology *topo);
int	 topology_allowed(const struct topology *topo, int *cores, int *pus);
int	 topology_bind_self(const struct topology *topo, int pu, char **cause);

#endif
