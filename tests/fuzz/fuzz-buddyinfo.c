/*
 * libFuzzer harness: procfs_parse_buddyinfo after the zoneinfo it is read
 * with.  Input: zoneinfo NUL buddyinfo (both mutated, so mixed kernels
 * and drifting zones are covered too).
 */
#include "config.h"

#include "fuzz-util.h"
#include "procfs.h"

/* One input: zoneinfo, a NUL byte, buddyinfo. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[2];
	struct snapshot snap;
	char *cause = NULL;
	int n;

	n = fuzz_split(data, size, parts, 2);
	snapshot_init(&snap);
	if (n == 2 && procfs_parse_zoneinfo(&snap, "zoneinfo", parts[0].buf,
	    parts[0].len, &cause) == 0 &&
	    procfs_parse_buddyinfo(&snap, "buddyinfo", parts[1].buf,
	    parts[1].len, &cause) == 0)
		snapshot_sort(&snap);
	free(cause);
	snapshot_free(&snap);
	fuzz_split_free(parts, n);
	return (0);
}
