/*
 * The checks run passes to suite_load (and the suite fuzzer with it): the
 * workload of each phase is in the registry and its own option table
 * accepts each key = value, so that a bad suite is refused with file:line
 * before anything runs.
 */
#include "config.h"

#include <string.h>

#include "log.h"
#include "suite.h"
#include "workload.h"

/* The workload is registered; the error lists the ones that are. */
int
suite_check_workload(const char *name, char **cause)
{
	const struct workload_desc *const *d;
	char names[512] = "";

	if (workload_find(name) != NULL)
		return (0);
	for (d = workload_all(); *d != NULL; d++) {
		if (names[0] != '\0')
			strncat(names, ", ", sizeof names - strlen(names) - 1);
		strncat(names, (*d)->name, sizeof names - strlen(names) - 1);
	}
	return (fail_with(cause, RB_EXIT_INPUT,
	    "unknown workload '%s' (known: %s)", name, names));
}

/* The workload's own option table accepts key=value. */
int
suite_check_option(const char *workload, const char *key, const char *value,
    char **cause)
{
	struct workload_run *run = workload_run_new(workload_find(workload));
	int rc;

	rc = workload_set_option(run, key, value, cause);
	workload_run_free(run);
	return (rc);
}
