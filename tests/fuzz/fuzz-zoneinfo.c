/*
 * libFuzzer harness: procfs_parse_zoneinfo on any bytes (every kernel
 * format it knows: mainline, 2011 memory regions, sorted-buddy).
 */
#include "config.h"

#include "fuzz-util.h"
#include "procfs.h"

/* One input: the whole zoneinfo file. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part part;
	struct snapshot snap;
	char *cause = NULL;

	fuzz_split(data, size, &part, 1);
	snapshot_init(&snap);
	if (procfs_parse_zoneinfo(&snap, "zoneinfo", part.buf, part.len,
	    &cause) == 0)
		snapshot_sort(&snap);
	free(cause);
	snapshot_free(&snap);
	fuzz_split_free(&part, 1);
	return (0);
}
