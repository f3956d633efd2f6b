/*
 * hwloc wrapper.  In hwloc 2.x NUMA nodes are memory children, not part of
 * the normal tree, so they are found by type and their cores through their
 * cpusets.
 */
#include "config.h"

#include <errno.h>
#include <hwloc.h>
#include <string.h>

#include "log.h"
#include "topology.h"

/* Discover nodes, cores and PUs of this machine. */
int
topology_load(struct topology *topo, char **cause)
{
	hwloc_topology_t t;
	hwloc_obj_t node = NULL;
	struct topology_node *n;

	memset(topo, 0, sizeof *topo);
	if (hwloc_get_api_version() >> 16 != HWLOC_API_VERSION >> 16)
		return (fail_with(cause, RB_EXIT_ENV,
		    "hwloc library version %x does not match the headers %x: "
		    "rebuild regionbench", hwloc_get_api_version(),
		    HWLOC_API_VERSION));
	if (hwloc_topology_init(&t) == -1 || hwloc_topology_load(t) == -1)
		return (fail_with(cause, RB_EXIT_ENV, "hwloc: %s",
		    strerror(errno)));
	topo->hwloc = t;
	topo->cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
	topo->pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
	while ((node = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE,
	    node)) != NULL && topo->nnodes < TOPOLOGY_MAX_NODES) {
		n = &topo->nodes[topo->nnodes++];
		n->os_index = (int)node->os_index;
		n->memory_bytes = node->attr->numanode.local_memory;
		n->cores = hwloc_get_nbobjs_inside_cpuset_by_type(t,
		    node->cpuset, HWLOC_OBJ_CORE);
		n->pus = hwloc_get_nbobjs_inside_cpuset_by_type(t,
		    node->cpuset, HWLOC_OBJ_PU);
	}
	return (0);
}

/* Release hwloc's topology. */
void
topology_free(struct topology *topo)
{
	if (topo->hwloc != NULL)
		hwloc_topology_destroy(topo->hwloc);
	topo->hwloc = NULL;
}

/* Describe the topology for meta.json. */
json_t *
topology_json(const struct topology *topo)
{
	json_t *obj = json_object(), *nodes = json_array();
	int i;

	for (i = 0; i < topo->nnodes; i++) {
		json_array_append_new(nodes, json_pack("{s:i, s:I, s:i, s:i}",
		    "os_index", topo->nodes[i].os_index,
		    "memory_bytes", (json_int_t)topo->nodes[i].memory_bytes,
		    "cores", topo->nodes[i].cores,
		    "pus", topo->nodes[i].pus));
	}
	json_object_set_new(obj, "nodes", nodes);
	json_object_set_new(obj, "cores", json_integer(topo->cores));
	json_object_set_new(obj, "pus", json_integer(topo->pus));
	return (obj);
}

/*
 * The cores and PUs this process may run on (its CPU binding, which
 * taskset, cgroups or a container may narrow); -1 when hwloc can't say.
 */
int
topology_allowed(const struct topology *topo, int *cores, int *pus)
{
	hwloc_topology_t t = topo->hwloc;
	hwloc_bitmap_t set;
	hwloc_obj_t core = NULL;

	*cores = *pus = 0;
	if (t == NULL)
		return (-1);
	set = hwloc_bitmap_alloc();
	if (hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS) == -1)
		hwloc_bitmap_copy(set, hwloc_topology_get_topology_cpuset(t));
	*pus = hwloc_bitmap_weight(set);
	while ((core = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_CORE,
	    core)) != NULL) {
		if (hwloc_bitmap_intersects(core->cpuset, set))
			(*cores)++;
	}
	if (*cores == 0)
		*cores = *pus;
	hwloc_bitmap_free(set);
	return (*pus > 0 ? 0 : -1);
}

/* OS index of the last PU, where the sampler stays out of the way. */
int
topology_last_pu(const struct topology *topo)
{
	hwloc_obj_t pu;

	if (topo->hwloc == NULL || topo->pus < 2)
		return (-1);
	pu = hwloc_get_obj_by_type(topo->hwloc, HWLOC_OBJ_PU, topo->pus - 1);
	return (pu != NULL ? (int)pu->os_index : -1);
}

/* Bind the calling thread to one PU. */
int
topology_bind_self(const struct topology *topo, int pu, char **cause)
{
	hwloc_bitmap_t set;
	int rc;

	if (topo->hwloc == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "no topology loaded"));
	set = hwloc_bitmap_alloc();
	hwloc_bitmap_only(set, (unsigned)pu);
	rc = hwloc_set_cpubind(topo->hwloc, set, HWLOC_CPUBIND_THREAD);
	hwloc_bitmap_free(set);
	if (rc == -1)
		return (fail_with(cause, RB_EXIT_ENV, "binding to CPU %d: %s",
		    pu, strerror(errno)));
	return (0);
}
