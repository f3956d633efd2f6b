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
#include "procfile.h"
#include "procfs.h"
#include "source.h"
#include "units.h"

#define ROUNDS	11
#define ITERS	300

/* qsort callback for doubles. */
static int
double_compare(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* Median of n values (sorts them). */
static double
median(double *v, int n)
{
	qsort(v, n, sizeof *v, double_compare);
	return (v[n / 2]);
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
	double rd[ROUNDS], full[ROUNDS];
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
	    procfile_read(&fbi, dir, "buddyinfo", &cause) != 0)
		die(RB_EXIT_ENV, "%s", cause);
	source_config_init(&cfg);
	if (source_open(&src, "zone", &cfg, &cause) != 0)
		die(RB_EXIT_ENV, "%s", cause);
	for (r = 0; r < ROUNDS; r++) {
		fix[r] = parse_us(&snap, &fzi, &fbi, &fixz[r]);
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
	}
	printf("procfs_source=%s\n", src.ops->name);
	printf("procfs_parse_us_fixture_6_18=%.2f\n", median(fix, ROUNDS));
	printf("procfs_zoneinfo_parse_us_fixture_6_18=%.2f\n",
	    median(fixz, ROUNDS));
	printf("procfs_parse_us_live=%.2f\n", median(live, ROUNDS));
	printf("procfs_zoneinfo_parse_us_live=%.2f\n", median(livez, ROUNDS));
	printf("procfs_read_us_live=%.2f\n", median(rd, ROUNDS));
	printf("procfs_sample_us_live=%.2f\n", median(full, ROUNDS));
	for (r = 0; r < ROUNDS; r++)
		full[r] /= rd[r];
	printf("procfs_sample_over_read_ratio=%.3f\n", median(full, ROUNDS));
	source_close(&src);
	snapshot_free(&snap);
	procfile_free(&zi);
	procfile_free(&bi);
	procfile_free(&fzi);
	procfile_free(&fbi);
	return (0);
}
