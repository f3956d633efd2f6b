/*
 * The registry: one explicit table of every workload, generated from
 * WORKLOAD_LIST in workload.h (the stress-ng idea), so adding a workload
 * is one file plus one X() line and nothing registers itself at start-up.
 */
#include "config.h"

#include <string.h>

#include "workload.h"

#define WORKLOAD_ELEM(name) &workload_##name,
static const struct workload_desc *const workload_table[] = {
	WORKLOAD_LIST(WORKLOAD_ELEM)
	NULL
};
#undef WORKLOAD_ELEM

/* Every workload, NULL-terminated, in list order. */
const struct workload_desc *const *
workload_all(void)
{
	return (workload_table);
}

/* The workload called name, or NULL. */
const struct workload_desc *
workload_find(const char *name)
{
	const struct workload_desc *const *d;

	for (d = workload_table; *d != NULL; d++) {
		if (strcmp((*d)->name, name) == 0)
			return (*d);
	}
	return (NULL);
}
