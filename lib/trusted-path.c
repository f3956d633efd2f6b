/*
 * Directories and files that nobody else can swap under a process that
 * uses them by path.
 *
 * `vm` hands QEMU its results directory by path and boots kernels and
 * initramfs images from a cache by path, as root.  A directory, or any
 * directory above it, that another user owns or may write to lets that
 * user put a link where root will write (a console log pointed at
 * /root/file) or an initramfs of theirs where root will boot it.  So such
 * paths must be real directories (not links), owned by this user, and
 * every directory above them owned by this user or root and not writable
 * by others, unless sticky (as /tmp is: others may add entries there but
 * not replace ours).
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "trusted-path.h"

/* May st, a directory above a trusted one, stay as it is? */
static int
trusted_ancestor(const char *path, const struct stat *st, const char *what,
    char **cause)
{
	if (st->st_uid != geteuid() && st->st_uid != 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s is owned by "
		    "uid %lu, neither this user nor root", what, path,
		    (unsigned long)st->st_uid));
	if ((st->st_mode & S_IWOTH) && !(st->st_mode & S_ISVTX))
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s is writable by "
		    "others (mode %04o)", what, path,
		    (unsigned)(st->st_mode & 07777)));
	return (0);
}

/* The directories above real (an absolute path without links). */
static int
trusted_ancestors(char *real, const char *what, char **cause)
{
	struct stat st;
	char *slash;
	int rc;

	while ((slash = strrchr(real, '/')) != NULL) {
		if (slash == real)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (stat(real, &st) == -1)
			return (fail_with(cause, RB_EXIT_ENV, "%s: %s: %s",
			    what, real, strerror(errno)));
		if ((rc = trusted_ancestor(real, &st, what, cause)) != 0)
			return (rc);
		if (strcmp(real, "/") == 0)
			break;
	}
	return (0);
}

/* A directory of this user's, not a link, under trusted directories. */
int
trusted_dir(const char *path, const char *what, char **cause)
{
	char real[PATH_MAX];
	struct stat st;

	if (lstat(path, &st) == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s: %s", what, path,
		    strerror(errno)));
	if (!S_ISDIR(st.st_mode))
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s is %s, not a "
		    "directory", what, path, S_ISLNK(st.st_mode) ?
		    "a symbolic link" : "a file"));
	if (st.st_uid != geteuid())
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s is owned by "
		    "uid %lu, not by this user", what, path,
		    (unsigned long)st.st_uid));
	if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s is writable by "
		    "others (mode %04o)", what, path,
		    (unsigned)(st.st_mode & 07777)));
	if (realpath(path, real) == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s: %s", what, path,
		    strerror(errno)));
	return (trusted_ancestors(real, what, cause));
}

/*
 * A regular file (not a link) owned by this user or root, writable by
 * nobody else, under trusted directories.
 */
int
trusted_file(const char *path, const char *what, char **cause)
{
	char real[PATH_MAX];
	struct stat st;

	if (lstat(path, &st) == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s: %s", what, path,
		    strerror(errno)));
	if (!S_ISREG(st.st_mode))
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s is not a "
		    "regular file", what, path));
	if ((st.st_uid != geteuid() && st.st_uid != 0) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)))
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s is owned by "
		    "uid %lu with mode %04o: only this user or root may own "
		    "it and write to it", what, path,
		    (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777)));
	if (realpath(path, real) == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s: %s", what, path,
		    strerror(errno)));
	return (trusted_ancestors(real, what, cause));
}
