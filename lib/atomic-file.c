/*
 * Atomic file replacement (see atomic-file.h).  Nothing here allocates:
 * names live in the struct, so the sampler can replace regions.csv from
 * its allocation-free loop.  Errors name the final path, not the
 * temporary one, so a message says which file could not be written.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic-file.h"
#include "killpoint.h"
#include "log.h"

/* Write a whole buffer, retrying short writes and EINTR. */
static int
atomic_write_loop(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return (-1);
		if (n == 0) {
			errno = ENOSPC;
			return (-1);
		}
		p += n;
		len -= (size_t)n;
	}
	return (0);
}

/* Write a whole buffer: one operation for the kill points (killpoint.h). */
int
atomic_write_all(int fd, const void *data, size_t len)
{
	unsigned long op = killpoint_begin();
	size_t cut = killpoint_cut(op, len);

	if (atomic_write_loop(fd, data, cut) == -1)
		return (-1);
	killpoint_end(op);
	return (atomic_write_loop(fd, (const char *)data + cut, len - cut));
}

/*
 * Create the temporary file: ".NAME.tmp.PID.R", R random, a new R while
 * one exists.  Random, because in a directory others may write (a
 * world-writable textfile directory of node_exporter) a predictable name
 * lets them plant files that stop every update.
 */
static int
atomic_file_create(struct atomic_file *af)
{
	static unsigned counter;
	unsigned long long r;
	struct timespec ts;
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r) {
			/* No entropy yet (early boot): not secret, unique. */
			clock_gettime(CLOCK_MONOTONIC, &ts);
			r = (unsigned long long)ts.tv_nsec << 20 ^
			    (unsigned long long)ts.tv_sec << 40 ^
			    __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
		}
		if (snprintf(af->tmp, sizeof af->tmp, ".%s.tmp.%ld.%016llx",
		    af->name, (long)getpid(), r) >= (int)sizeof af->tmp) {
			errno = ENAMETOOLONG;
			return (-1);
		}
		af->fd = openat(af->dirfd, af->tmp, O_WRONLY | O_CREAT |
		    O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (af->fd != -1)
			killpoint_op();
		if (af->fd != -1 || errno != EEXIST)
			return (af->fd == -1 ? -1 : 0);
	}
	return (-1);
}

/*
 * Start replacing NAME in the open directory dirfd (borrowed; dir names it
 * in messages).
 */
int
atomic_file_openat(struct atomic_file *af, int dirfd, const char *dir,
    const char *name, char **cause)
{
	af->dirfd = dirfd;
	af->own_dirfd = 0;
	af->fd = -1;
	af->f = NULL;
	af->tmp[0] = '\0';
	snprintf(af->path, sizeof af->path, "%s/%s", dir, name);
	if (snprintf(af->name, sizeof af->name, "%s", name) >=
	    (int)sizeof af->name || strchr(name, '/') != NULL) {
		errno = ENAMETOOLONG;
		return (fail_with(cause, RB_EXIT_INPUT, "%s: not a file name "
		    "in its directory", af->path));
	}
	if (atomic_file_create(af) == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: cannot create: %s",
		    af->path, strerror(errno)));
	return (0);
}

/* Start replacing the file at path. */
int
atomic_file_open(struct atomic_file *af, const char *path, char **cause)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/'), *name;
	int dirfd, rc;

	if (slash == NULL) {
		snprintf(dir, sizeof dir, ".");
		name = path;
	} else {
		if ((size_t)(slash - path) >= sizeof dir)
			return (fail_with(cause, RB_EXIT_INPUT,
			    "%s: path too long", path));
		memcpy(dir, path, slash - path);
		dir[slash == path ? 1 : slash - path] = '\0';
		name = slash + 1;
	}
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", dir,
		    strerror(errno)));
	if ((rc = atomic_file_openat(af, dirfd, dir, name, cause)) != 0) {
		close(dirfd);
		return (rc);
	}
	/* Keep the caller's spelling of the path in messages. */
	snprintf(af->path, sizeof af->path, "%s", path);
	af->own_dirfd = 1;
	return (0);
}

/* A stdio stream over the temporary file (committed or aborted with it). */
FILE *
atomic_file_stdio(struct atomic_file *af)
{
	if (af->f == NULL && (af->f = fdopen(af->fd, "w")) == NULL)
		die_errno(RB_EXIT_ENV, "fdopen %s", af->path);
	return (af->f);
}

/* Write bytes to the temporary file. */
int
atomic_file_append(struct atomic_file *af, const void *data, size_t len,
    char **cause)
{
	if (atomic_write_all(af->fd, data, len) == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: write: %s",
		    af->path, strerror(errno)));
	return (0);
}

/* Close everything and remove the temporary file if it is still there. */
static void
atomic_file_done(struct atomic_file *af, int unlink_tmp)
{
	if (af->f != NULL)
		fclose(af->f);
	else if (af->fd != -1)
		close(af->fd);
	af->f = NULL;
	af->fd = -1;
	if (unlink_tmp && af->tmp[0] != '\0')
		unlinkat(af->dirfd, af->tmp, 0);
	af->tmp[0] = '\0';
	if (af->own_dirfd && af->dirfd != -1)
		close(af->dirfd);
	af->dirfd = -1;
}

/* Flush and sync the temporary file, rename it into place, sync the dir. */
int
atomic_file_commit(struct atomic_file *af, char **cause)
{
	const char *what = NULL;
	int rc = 0, fd = af->fd;

	if (af->f != NULL && (fflush(af->f) != 0 || ferror(af->f)))
		what = "write";
	else if (fsync(fd) == -1)
		what = "fsync";
	else
		killpoint_op();
	if (what == NULL && af->f != NULL) {
		if (fclose(af->f) != 0)
			what = "close";
		af->f = NULL;
		af->fd = -1;
	} else if (what == NULL) {
		if (close(fd) != 0)
			what = "close";
		af->fd = -1;
	}
	if (what == NULL && renameat(af->dirfd, af->tmp, af->dirfd,
	    af->name) == -1)
		what = "rename";
	else if (what == NULL)
		killpoint_op();
	if (what != NULL) {
		rc = fail_with(cause, RB_EXIT_ENV, "%s: %s: %s", af->path,
		    what, strerror(errno));
		atomic_file_done(af, 1);
		return (rc);
	}
	af->tmp[0] = '\0';
	/* Some filesystems cannot sync a directory: that is no error. */
	if (fsync(af->dirfd) == -1 && errno != EINVAL && errno != EROFS)
		rc = fail_with(cause, RB_EXIT_ENV, "%s: fsync of the "
		    "directory: %s", af->path, strerror(errno));
	killpoint_op();
	atomic_file_done(af, 0);
	return (rc);
}

/* Give up: the old file, if any, stays as it was. */
void
atomic_file_abort(struct atomic_file *af)
{
	atomic_file_done(af, 1);
}

/* Replace NAME in the open directory dirfd with len bytes of data. */
int
atomic_file_writeat(int dirfd, const char *dir, const char *name,
    const void *data, size_t len, char **cause)
{
	struct atomic_file af;
	int rc;

	if ((rc = atomic_file_openat(&af, dirfd, dir, name, cause)) != 0)
		return (rc);
	if ((rc = atomic_file_append(&af, data, len, cause)) != 0) {
		atomic_file_abort(&af);
		return (rc);
	}
	return (atomic_file_commit(&af, cause));
}

/* Replace the file at path with len bytes of data. */
int
atomic_file_write(const char *path, const void *data, size_t len,
    char **cause)
{
	struct atomic_file af;
	int rc;

	if ((rc = atomic_file_open(&af, path, cause)) != 0)
		return (rc);
	if ((rc = atomic_file_append(&af, data, len, cause)) != 0) {
		atomic_file_abort(&af);
		return (rc);
	}
	return (atomic_file_commit(&af, cause));
}

/*
 * Create the directories leading to path (mkdir -p of its parent), so
 * that --out a/b/c works wherever it is given; path itself is left to the
 * caller, which knows whether an existing one is welcome.
 */
int
make_parent_dirs(const char *path, char **cause)
{
	char dir[PATH_MAX];
	size_t i;

	if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: path too long",
		    path));
	for (i = 1; dir[i] != '\0'; i++) {
		if (dir[i] != '/' || dir[i - 1] == '/')
			continue;
		dir[i] = '\0';
		if (mkdir(dir, 0755) == -1 && errno != EEXIST)
			return (fail_with(cause, RB_EXIT_ENV, "%s: mkdir: %s",
			    dir, strerror(errno)));
		dir[i] = '/';
	}
	return (0);
}
