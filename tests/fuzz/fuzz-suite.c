/*
 * libFuzzer harness: suite_load on any bytes written to a suite file, with
 * the checks `regionbench run` uses (the workload registry and each
 * workload's option table).
 */
#include "config.h"

#include "fuzz-util.h"
#include "suite.h"
#include "workload.h"

/* The workload named in [phase] exists. */
static int
fuzz_check_workload(const char *name, char **cause)
{
	if (workload_find(name) != NULL)
		return (0);
	return (fail_with(cause, RB_EXIT_INPUT, "unknown workload '%s'",
	    name));
}

/* The workload's own option table accepts key=value. */
static int
fuzz_check_option(const char *workload, const char *key, const char *value,
    char **cause)
{
	struct workload_run *run = workload_run_new(workload_find(workload));
	int rc;

	rc = workload_set_option(run, key, value, cause);
	workload_run_free(run);
	return (rc);
}

/* One input: the whole suite file. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct suite suite;
	char path[512], *cause = NULL;

	fuzz_write(fuzz_dir(), "fuzz.ini", data, size);
	snprintf(path, sizeof path, "%s/fuzz.ini", fuzz_dir());
	suite_load(&suite, path, fuzz_check_workload, fuzz_check_option,
	    &cause);
	suite_free(&suite);
	free(cause);
	return (0);
}
