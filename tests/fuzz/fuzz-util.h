/*
 * Helpers shared by the libFuzzer harnesses (make fuzz): a private scratch
 * directory per fuzzer process, whole-file writes, and splitting one input
 * into several files at NUL bytes, so one fuzz input can stand for a set
 * of files (zoneinfo + buddyinfo, a results directory, a sysfs tree).
 */
#ifndef RB_FUZZ_UTIL_H
#define RB_FUZZ_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"

#define FUZZ_MAX_PARTS	16
/* Not every harness uses every helper. */
#define FUZZ_HELPER	static __attribute__((unused))

struct fuzz_part {
	const char	*buf;	/* NUL-terminated copy, like procfile buffers */
	size_t		 len;
};

static char fuzz_dir_path[64];

/* nftw callback: remove one entry (children come first). */
FUZZ_HELPER int
fuzz_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return (0);
}

/* Remove a directory tree, as rm -rf. */
FUZZ_HELPER void
fuzz_rm_tree(const char *path)
{
	nftw(path, fuzz_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* At exit: leave no scratch directory behind. */
FUZZ_HELPER void
fuzz_dir_remove(void)
{
	fuzz_rm_tree(fuzz_dir_path);
}

/* The scratch directory of this process, made on first use (mode 0700). */
FUZZ_HELPER const char *
fuzz_dir(void)
{
	if (fuzz_dir_path[0] == '\0') {
		snprintf(fuzz_dir_path, sizeof fuzz_dir_path,
		    "/tmp/rb-fuzz-XXXXXX");
		if (mkdtemp(fuzz_dir_path) == NULL)
			die_errno(RB_EXIT_ENV, "mkdtemp");
		atexit(fuzz_dir_remove);
	}
	return (fuzz_dir_path);
}

/* Write len bytes to dir/name, replacing what was there. */
FUZZ_HELPER void
fuzz_write(const char *dir, const char *name, const void *data, size_t len)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1)
		die_errno(RB_EXIT_ENV, "%s", path);
	while (len > 0) {
		if ((n = write(fd, data, len)) == -1) {
			if (errno == EINTR)
				continue;
			die_errno(RB_EXIT_ENV, "%s", path);
		}
		data = (const char *)data + n;
		len -= (size_t)n;
	}
	close(fd);
}

/* Remove dir/name if it exists. */
FUZZ_HELPER void
fuzz_unlink(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
}

/*
 * Split data at NUL bytes into at most max parts (the last part keeps any
 * further NULs).  Each part is a fresh NUL-terminated heap copy, so reads
 * past its end are caught by ASan.  Returns the number of parts.
 */
FUZZ_HELPER int
fuzz_split(const uint8_t *data, size_t size, struct fuzz_part *parts,
    int max)
{
	const uint8_t *p = data, *end = data + size, *nul;
	char *copy;
	size_t len;
	int n = 0;

	while (n < max) {
		nul = n == max - 1 ? NULL : memchr(p, '\0', (size_t)(end - p));
		len = nul != NULL ? (size_t)(nul - p) : (size_t)(end - p);
		copy = xmalloc(len + 1);
		memcpy(copy, p, len);
		copy[len] = '\0';
		parts[n].buf = copy;
		parts[n].len = len;
		n++;
		if (nul == NULL)
			break;
		p = nul + 1;
	}
	return (n);
}

/* Free the copies made by fuzz_split. */
FUZZ_HELPER void
fuzz_split_free(struct fuzz_part *parts, int n)
{
	while (n-- > 0)
		free((void *)parts[n].buf);
}

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
