/*
 * libFuzzer harness: gate_rules_load (libinih) on any bytes written to a
 * rules file.
 */
#include "config.h"

#include "fuzz-util.h"
#include "gate.h"

/* One input: the whole rules file. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gate_rules rules;
	char path[512], *cause = NULL;

	fuzz_write(fuzz_dir(), "rules.ini", data, size);
	snprintf(path, sizeof path, "%s/rules.ini", fuzz_dir());
	if (gate_rules_load(path, &rules, &cause) == 0)
		gate_rules_free(&rules);
	free(cause);
	return (0);
}
