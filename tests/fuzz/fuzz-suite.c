/*
 * libFuzzer harness: suite_load on any bytes written to a suite file, with
 * the checks `regionbench run` uses (suite_check_workload and
 * suite_check_option: the workload registry and each workload's option
 * table).
 */
#include "config.h"

#include "fuzz-util.h"
#include "suite.h"

/* One input: the whole suite file. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct suite suite;
	char path[512], *cause = NULL;

	fuzz_write(fuzz_dir(), "fuzz.ini", data, size);
	snprintf(path, sizeof path, "%s/fuzz.ini", fuzz_dir());
	suite_load(&suite, path, suite_check_workload, suite_check_option,
	    &cause);
	suite_free(&suite);
	free(cause);
	return (0);
}
