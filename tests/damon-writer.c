/*
 * A test helper for tests/vm-damon.sh: map SIZE MiB, write every page,
 * then keep writing them forever, so that DAMON sees every page of it
 * referenced in every aggregation interval (until the test stops it with
 * SIGSTOP).  That holds only while one pass over the pages is shorter
 * than the interval, and a busy host can slow a guest's passes manyfold:
 * after four passes READY is written holding the longest of the last
 * three in milliseconds, for the test to choose its interval by.
 *   damon-writer SIZE_MIB READY
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Monotonic milliseconds. */
static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
}

int
main(int argc, char **argv)
{
	size_t size, off, page = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *p;
	double t0, longest = 0;
	char tmp[4096];
	unsigned long pass;
	FILE *f;

	if (argc != 3 || (size = strtoul(argv[1], NULL, 10) << 20) == 0) {
		fprintf(stderr, "usage: damon-writer SIZE_MIB READY\n");
		return (2);
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("damon-writer: mmap");
		return (3);
	}
	/* No huge pages: DAMON and the placement scan both see 4 KiB. */
	madvise((void *)p, size, MADV_NOHUGEPAGE);
	for (pass = 0; ; pass++) {
		t0 = now_ms();
		for (off = 0; off < size; off += page)
			p[off] = (char)pass;
		if (pass >= 1 && pass <= 3 && now_ms() - t0 > longest)
			longest = now_ms() - t0;
		/* Whole when it appears: written aside, then renamed. */
		if (pass == 3) {
			snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
			if ((f = fopen(tmp, "w")) == NULL ||
			    fprintf(f, "%.0f\n", longest) < 0 ||
			    fclose(f) != 0 || rename(tmp, argv[2]) != 0) {
				perror(argv[2]);
				return (3);
			}
		}
	}
}
