/*
 * libFuzzer harness: procfs_parse_pagetypeinfo after zoneinfo and
 * buddyinfo, as a sample reads them.  Input: zoneinfo NUL buddyinfo NUL
 * pagetypeinfo.  The same snapshot is then reset and parsed again, as the
 * sampler reuses its buffers.
 */
#include "config.h"

#include "fuzz-util.h"
#include "procfs.h"

/* Parse the three files into snap; 0 or -exit. */
static int
fuzz_sample(struct snapshot *snap, const struct fuzz_part *parts)
{
	char *cause = NULL;
	int rc;

	snapshot_reset(snap);
	if ((rc = procfs_parse_zoneinfo(snap, "zoneinfo", parts[0].buf,
	    parts[0].len, &cause)) == 0 &&
	    (rc = procfs_parse_buddyinfo(snap, "buddyinfo", parts[1].buf,
	    parts[1].len, &cause)) == 0 &&
	    (rc = procfs_parse_pagetypeinfo(snap, "pagetypeinfo",
	    parts[2].buf, parts[2].len, &cause)) == 0)
		snapshot_sort(snap);
	free(cause);
	return (rc);
}

/* One input: zoneinfo, NUL, buddyinfo, NUL, pagetypeinfo. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[3];
	struct snapshot snap;
	int n;

	n = fuzz_split(data, size, parts, 3);
	snapshot_init(&snap);
	if (n == 3 && fuzz_sample(&snap, parts) == 0)
		fuzz_sample(&snap, parts);
	snapshot_free(&snap);
	fuzz_split_free(parts, n);
	return (0);
}
