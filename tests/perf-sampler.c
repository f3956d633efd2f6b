/*
 * make perf: the sampler's cost.
 *   sampler_parse_ratio        one sample (read + parse zoneinfo and
 *                              buddyinfo, fill the snapshot) / only reading
 *                              the same two files; target <= 1.3
 *   sampler_allocs_per_sample  malloc calls per sample after warm-up; 0
 *   sampler_cpu_pct_10hz       CPU of the sampler thread at 10 Hz; < 1
 * Medians over interleaved rounds, all in one run, on this machine's /proc.
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "perf.h"
#include "procfile.h"
#include "sampler.h"
#include "snapshot.h"
#include "source.h"
#include "units.h"

#define ROUNDS		15
#define PER_ROUND	200

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static volatile unsigned long alloc_calls;

/* Count every allocation the process makes (interposes libc's). */
void *
malloc(size_t size)
{
	alloc_calls++;
	return (__libc_malloc(size));
}

/* Counted calloc. */
void *
calloc(size_t n, size_t size)
{
	alloc_calls++;
	return (__libc_calloc(n, size));
}

/* Counted realloc. */
void *
realloc(void *p, size_t size)
{
	alloc_calls++;
	return (__libc_realloc(p, size));
}

/* Uncounted free. */
void
free(void *p)
{
	__libc_free(p);
}

int
main(void)
{
	struct procfile zi, bi;
	struct source_config cfg;
	struct source src;
	struct snapshot snap;
	struct sampler s;
	struct sampler_config scfg;
	double read_ns[ROUNDS], sample_ns[ROUNDS];
	uint64_t t;
	unsigned long before;
	struct timespec c0, c1;
	clockid_t cid;
	char *cause = NULL;
	int r, i;

	procfile_init(&zi);
	procfile_init(&bi);
	source_config_init(&cfg);
	if (source_open(&src, "zone", &cfg, &cause) != 0)
		die(RB_EXIT_ENV, "perf-sampler: %s", cause);
	snapshot_init(&snap);

	/* Warm up both paths. */
	for (i = 0; i < 50; i++) {
		procfile_read(&zi, "/proc", "zoneinfo", NULL);
		procfile_read(&bi, "/proc", "buddyinfo", NULL);
		snapshot_reset(&snap);
		source_read(&src, &snap, i % 10 == 0 ? SOURCE_READ_PAGETYPE :
		    0, NULL);
	}
	for (r = 0; r < ROUNDS; r++) {
		t = units_now_ns();
		for (i = 0; i < PER_ROUND; i++) {
			procfile_read(&zi, "/proc", "zoneinfo", NULL);
			procfile_read(&bi, "/proc", "buddyinfo", NULL);
		}
		read_ns[r] = (double)(units_now_ns() - t) / PER_ROUND;
		t = units_now_ns();
		for (i = 0; i < PER_ROUND; i++) {
			snapshot_reset(&snap);
			if (source_read(&src, &snap, 0, &cause) != 0)
				die(RB_EXIT_ENV, "perf-sampler: %s", cause);
		}
		sample_ns[r] = (double)(units_now_ns() - t) / PER_ROUND;
	}
	printf("sampler_read_us=%.2f\n", perf_median(read_ns, ROUNDS) / 1e3);
	printf("sampler_sample_us=%.2f\n",
	    perf_median(sample_ns, ROUNDS) / 1e3);
	printf("sampler_parse_ratio=%.3f\n", perf_median(sample_ns, ROUNDS) /
	    perf_median(read_ns, ROUNDS));

	before = alloc_calls;
	for (i = 0; i < 1000; i++) {
		snapshot_reset(&snap);
		source_read(&src, &snap, SOURCE_READ_PAGETYPE * (i % 10 == 0),
		    NULL);
	}
	printf("sampler_allocs_per_sample=%.3f\n",
	    (double)(alloc_calls - before) / 1000);

	/* The real thread at 10 Hz for 3 s, without a sink. */
	memset(&scfg, 0, sizeof scfg);
	scfg.interval_ns = 100000000ULL;
	scfg.duration_ns = 3 * NS_PER_SEC;
	scfg.pagetype_every = 10;
	scfg.buddy_every = 1;
	scfg.cpu = -1;
	t = units_now_ns();
	if (sampler_start(&s, &scfg, &src, NULL, NULL, t, "perf", &cause) !=
	    0)
		die(RB_EXIT_ENV, "perf-sampler: %s", cause);
	/* Read the thread's CPU clock while it is still alive. */
	pthread_getcpuclockid(s.thread, &cid);
	clock_gettime(cid, &c0);
	t = units_now_ns();
	usleep(2500000);
	clock_gettime(cid, &c1);
	printf("sampler_cpu_pct_10hz=%.3f\n", 100.0 *
	    ((double)(c1.tv_sec - c0.tv_sec) * 1e9 + (double)(c1.tv_nsec -
	    c0.tv_nsec)) / (double)(units_now_ns() - t));
	sampler_stop(&s, NULL);
	source_close(&src);
	snapshot_free(&snap);
	procfile_free(&zi);
	procfile_free(&bi);
	return (0);
}
