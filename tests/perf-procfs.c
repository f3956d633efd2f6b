/*
 * make perf: cost of the /proc parsers.  Prints the time of one parse of
 * zoneinfo and buddyinfo (the 6.18 fixture and this machine's files, from
 * memory), the time to only read the two live files, and the ratio of a
 * full zone-source sample (read + parse + sort) to the bare reads.  Rounds
 * of the two loops are interleaved; each figure is the median of 11.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "perf.h"
#include "procfile.h"
#include "procfs.h"
#include "source.h"
#include "units.h"

#define ROUNDS	11
#define ITERS	300

/*
 * A sorted-buddy machine with many keys (4 nodes x 3 zones x 128 regions)
 * in the two buffers, to show the cost per key does not grow with keys.
 */
static void
make_big(struct procfile *zi, struct procfile *bi)
{
	static const char *const zones[] = { "DMA", "DMA32", "Normal" };
	size_t zl = 0, bl = 0;
	int n, z, r;

	zi->cap = bi->cap = 4 << 20;
	zi->buf = xmalloc(zi->cap);
	bi->buf = xmalloc(bi->cap);
	for (n = 0; n < 4; n++) {
		for (z = 0; z < 3; z++) {
			zl += snprintf(zi->buf + zl, zi->cap - zl,
			    "Node %d, zone %8s\n  pages free     %d\n"
			    "        spanned  %d\n        present  %d\n"
			    "        managed  %d\n\nPer-region page stats\t "
			    "present\t free\n\n", n, zones[z], 128 * 1024,
			    128 * 131072, 128 * 131072, 128 * 131072);
			bl += snprintf(bi->buf + bl, bi->cap - bl,
			    "Node %d, zone %8s \n", n, zones[z]);
			for (r = 0; r < 128; r++) {
				zl += snprintf(zi->buf + zl, zi->cap - zl,
				    "\tRegion %6d \t %6d \t %6d\n", r, 131072,
				    1024);
				bl += snprintf(bi->buf + bl, bi->cap - bl,
				    "\t\t Region %6d      0      0      0"
				    "      0      0      0      0      0      0"
				    "      0      1 \n", r);
			}
			zl += snprintf(zi->buf + zl, zi->cap - zl, "\n    "
			    "nr_free_pages %d\n  start_pfn:         %d\n",
			    128 * 1024, (n * 3 + z) * 128 * 131072);
			bl += snprintf(bi->buf + bl, bi->cap - bl, "\n");
		}
	}
	zi->len = zl;
	bi->len = bl;
	snprintf(zi->path, sizeof zi->path, "big/zoneinfo");
	snprintf(bi->path, sizeof bi->path, "big/buddyinfo");
}

/* Microseconds per parse of zoneinfo+buddyinfo text already in memory. */
static double
parse_us(struct snapshot *snap, const struct procfile *zi,
    const struct procfile *bi, double *zi_us)
{
	uint64_t t0, t1, t2;
	char *cause = NULL;
	int i;

	t0 = units_now_ns();
	for (i = 0; i < ITERS; i++) {
		snapshot_reset(snap);
		if (procfs_parse_zoneinfo(snap, zi->path, zi->buf, zi->len,
		    &cause) != 0)
			die(RB_EXIT_INPUT, "%s", cause);
	}
	t1 = units_now_ns();
	for (i = 0; i < ITERS; i++) {
		snapshot_reset(snap);
		if (procfs_parse_zoneinfo(snap, zi->path, zi->buf, zi->len,
		    &cause) != 0 || procfs_parse_buddyinfo(snap, bi->path,
		    bi->buf, bi->len, &cause) != 0)
			die(RB_EXIT_INPUT, "%s", cause);
	}
	t2 = units_now_ns();
	*zi_us = (double)(t1 - t0) / ITERS / 1e3;
	return ((double)(t2 - t1) / ITERS / 1e3);
}

int
main(void)
{
	struct procfile zi, bi, fzi, fbi;
	struct source_config cfg;
	struct source src;
	struct snapshot snap;
	const char *fixtures = getenv("FIXTURES");
	double fix[ROUNDS], fixz[ROUNDS], live[ROUNDS], livez[ROUNDS];
	double rd[ROUNDS], full[ROUNDS], ratio[ROUNDS], big[ROUNDS];
	double bigz[ROUNDS];
	struct procfile gzi, gbi;
	char dir[4096], *cause = NULL;
	uint64_t t0;
	int r, i;

	log_set_program("perf-procfs");
	snprintf(dir, sizeof dir, "%s/6.18", fixtures != NULL ? fixtures :
	    "tests/fixtures/proc");
	procfile_init(&zi);
	procfile_init(&bi);
	procfile_init(&fzi);
	procfile_init(&fbi);
	snapshot_init(&snap);
	if (procfile_read(&fzi, dir, "zoneinfo", &cause) != 0 ||
	    procfile_read(&fbi, dir, "buddyinfo", &cause) != 0) {
		/* No fixtures here (FIXTURES unset, VPATH build): use /proc. */
		free(cause);
		cause = NULL;
		if (procfile_read(&fzi, "/proc", "zoneinfo", &cause) != 0 ||
		    procfile_read(&fbi, "/proc", "buddyinfo", &cause) != 0)
			die(RB_EXIT_ENV, "%s", cause);
	}
	make_big(&gzi, &gbi);
	source_config_init(&cfg);
	if (source_open(&src, "zone", &cfg, &cause) != 0)
		die(RB_EXIT_ENV, "%s", cause);
	for (r = 0; r < ROUNDS; r++) {
		fix[r] = parse_us(&snap, &fzi, &fbi, &fixz[r]);
		big[r] = parse_us(&snap, &gzi, &gbi, &bigz[r]);
		t0 = units_now_ns();
		for (i = 0; i < ITERS; i++) {
			if (procfile_read(&zi, "/proc", "zoneinfo", &cause) ||
			    procfile_read(&bi, "/proc", "buddyinfo", &cause))
				die(RB_EXIT_ENV, "%s", cause);
		}
		rd[r] = (double)(units_now_ns() - t0) / ITERS / 1e3;
		live[r] = parse_us(&snap, &zi, &bi, &livez[r]);
		t0 = units_now_ns();
		for (i = 0; i < ITERS; i++) {
			if (source_read(&src, &snap, 0, &cause) != 0)
				die(RB_EXIT_INPUT, "%s", cause);
		}
		full[r] = (double)(units_now_ns() - t0) / ITERS / 1e3;
		/* Each round's own pair: both timings saw the same moment. */
		ratio[r] = full[r] / rd[r];
	}
	printf("procfs_source=%s\n", src.ops->name);
	printf("procfs_parse_us_fixture_6_18=%.2f\n", perf_median(fix, ROUNDS));
	printf("procfs_zoneinfo_parse_us_fixture_6_18=%.2f\n",
	    perf_median(fixz, ROUNDS));
	printf("procfs_parse_us_live=%.2f\n", perf_median(live, ROUNDS));
	printf("procfs_parse_ns_per_key_live=%.0f\n",
	    perf_median(live, ROUNDS) * 1e3 / snap.nentries);
	printf("procfs_parse_us_1536_keys=%.1f\n", perf_median(big, ROUNDS));
	printf("procfs_parse_ns_per_key_1536_keys=%.0f\n",
	    perf_median(big, ROUNDS) * 1e3 / 1536);
	printf("procfs_zoneinfo_parse_us_live=%.2f\n",
	    perf_median(livez, ROUNDS));
	printf("procfs_read_us_live=%.2f\n", perf_median(rd, ROUNDS));
	printf("procfs_sample_us_live=%.2f\n", perf_median(full, ROUNDS));
	printf("procfs_sample_over_read_ratio=%.3f\n",
	    perf_median(ratio, ROUNDS));
	source_close(&src);
	snapshot_free(&snap);
	procfile_free(&zi);
	procfile_free(&bi);
	procfile_free(&fzi);
	procfile_free(&fbi);
	procfile_free(&gzi);
	procfile_free(&gbi);
	return (0);
}
