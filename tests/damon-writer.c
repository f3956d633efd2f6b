/*
 * A test helper for tests/vm-damon.sh: map SIZE MiB, write every page,
 * create READY once all are written, then keep writing them forever, so
 * that DAMON sees every page of it referenced in every aggregation
 * interval (until the test stops it with SIGSTOP).
 *   damon-writer SIZE_MIB READY
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	size_t size, off, page = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *p;
	unsigned long pass;
	int fd;

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
		for (off = 0; off < size; off += page)
			p[off] = (char)pass;
		if (pass == 0) {
			if ((fd = open(argv[2], O_WRONLY | O_CREAT, 0644)) ==
			    -1) {
				perror(argv[2]);
				return (3);
			}
			close(fd);
		}
	}
}
