/*
 * A test helper for tests/vm-damon.sh: map SIZE MiB, write every page,
 * then keep writing them forever, so that DAMON sees every page of it
 * referenced in every aggregation interval (until the test stops it with
 * SIGSTOP).  That holds only while one pass over the pages is shorter
 * than the interval, and a busy host can slow a guest's passes manyfold:
 * after four passes READY is written holding the longest of the last
 * three in milliseconds, for the test to choose its interval by.
 *
 * DAMON sees a page referenced by its accessed bit, which the CPU sets
 * when it walks the page tables, on a TLB miss.  A hardware TLB is far
 * smaller than 512 MiB of pages, so every pass misses and sets the bits
 * again; QEMU's software TLB under TCG grows to hold them all, and a
 * writer that keeps a guest CPU to itself (no other process scheduled
 * there, nothing flushing it) then writes through its cached entries for
 * whole intervals without setting a single bit: DAMON read every region
 * of it unreferenced on a quiet host.  So each pass starts by flushing
 * this process's TLB, as a hardware TLB would have been flushed by its
 * own size: mprotect over a spare mapping of more pages than the kernel
 * invalidates one by one (33 on x86) flushes the whole of it.
 *   damon-writer SIZE_MIB READY
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Pages of the spare mapping: above x86's single-page flush ceiling. */
#define SPARE_PAGES 64

/* Flush this process's TLB: change the spare mapping's protection. */
static void
flush_own_tlb(volatile char *spare, size_t len)
{
	if (mprotect((void *)spare, len, PROT_READ) != 0 ||
	    mprotect((void *)spare, len, PROT_READ | PROT_WRITE) != 0) {
		perror("damon-writer: mprotect");
		exit(3);
	}
}

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
	volatile char *p, *spare;
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
	spare = mmap(NULL, SPARE_PAGES * page, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (spare == MAP_FAILED) {
		perror("damon-writer: mmap");
		return (3);
	}
	madvise((void *)spare, SPARE_PAGES * page, MADV_NOHUGEPAGE);
	/* Present pages: mprotect flushes only entries it changed. */
	for (off = 0; off < SPARE_PAGES * page; off += page)
		spare[off] = 1;
	for (pass = 0; ; pass++) {
		t0 = now_ms();
		flush_own_tlb(spare, SPARE_PAGES * page);
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
