/*
 * Safe opening of input files (see input-file.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "input-file.h"
#include "log.h"

/* What a file that is not a regular file is, for messages. */
static const char *
input_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return ("a FIFO");
	if (S_ISDIR(mode))
		return ("a directory");
	if (S_ISCHR(mode))
		return ("a character device");
	if (S_ISBLK(mode))
		return ("a block device");
	if (S_ISSOCK(mode))
		return ("a socket");
	return ("a special file");
}

/* The kernel filesystem fd is on, NULL for an ordinary one. */
static const char *
input_kernel_fs(int fd)
{
	static const struct {
		long		 magic;
		const char	*name;
	} fs[] = {
		{ PROC_SUPER_MAGIC, "procfs" },
		{ SYSFS_MAGIC, "sysfs" },
		{ DEBUGFS_MAGIC, "debugfs" },
		{ TRACEFS_MAGIC, "tracefs" },
		{ SECURITYFS_MAGIC, "securityfs" },
		{ CGROUP_SUPER_MAGIC, "cgroupfs" },
		{ CGROUP2_SUPER_MAGIC, "cgroup2fs" },
		{ BPF_FS_MAGIC, "bpffs" },
		{ 0x62656570, "configfs" },
		{ 0xde5e81e4, "efivarfs" },
	};
	struct statfs sfs;
	size_t i;

	if (fstatfs(fd, &sfs) == -1)
		return (NULL);
	for (i = 0; i < sizeof fs / sizeof fs[0]; i++) {
		if ((long)sfs.f_type == fs[i].magic)
			return (fs[i].name);
	}
	return (NULL);
}

/*
 * Open path read-only (flags may add O_NOFOLLOW, and INPUT_SYSTEM).
 * Returns the descriptor (blocking again, close-on-exec); -1 with errno
 * set when open(2) failed, cause untouched, so the caller words that
 * error (ELOOP: a symbolic link under O_NOFOLLOW); or -RB_EXIT_INPUT with
 * a cause when the path is not a regular file, or a kernel's file without
 * INPUT_SYSTEM.
 */
int
input_open(const char *path, int flags, char **cause)
{
	struct stat st;
	const char *kfs;
	int fd, fl, saved;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC |
	    (flags & ~INPUT_SYSTEM));
	if (fd == -1)
		return (-1);
	if (fstat(fd, &st) == -1) {
		saved = errno;
		close(fd);
		return (fail_with(cause, RB_EXIT_ENV, "%s: fstat: %s", path,
		    strerror(saved)));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s, not a "
		    "regular file", path, input_kind(st.st_mode)));
	}
	if (!(flags & INPUT_SYSTEM) && (kfs = input_kernel_fs(fd)) != NULL) {
		close(fd);
		return (fail_with(cause, RB_EXIT_INPUT, "%s: a kernel's file "
		    "(%s), not one regionbench reads here (only through "
		    "--proc and --sys)", path, kfs));
	}
	if ((fl = fcntl(fd, F_GETFL)) != -1)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return (fd);
}

/*
 * input_open as a stdio stream for a file named by the user; NULL with a
 * cause when it cannot be opened or is not a regular file (both bad input).
 */
FILE *
input_fopen(const char *path, char **cause)
{
	FILE *f;
	int fd;

	if ((fd = input_open(path, 0, cause)) == -1) {
		fail_with(cause, RB_EXIT_INPUT, "%s: cannot open: %s", path,
		    strerror(errno));
		return (NULL);
	}
	if (fd < 0)
		return (NULL);
	if ((f = fdopen(fd, "r")) == NULL) {
		fail_with(cause, RB_EXIT_INPUT, "%s: %s", path,
		    strerror(errno));
		close(fd);
	}
	return (f);
}

/*
 * Load the JSON object in path, reading at most max bytes: larger is bad
 * input, however the file grows while it is read.  Errors name the file
 * and the line ("PATH:LINE: what"); a link under O_NOFOLLOW is refused as
 * one.  NULL with a cause; a file that does not exist is exit 2 too, its
 * cause saying so (callers that allow absence check first).
 */
json_t *
input_json_object(const char *path, int flags, size_t max, char **cause)
{
	json_error_t err;
	json_t *root;
	size_t len = 0, cap = 4096;
	ssize_t n;
	char *buf;
	int fd, saved;

	if ((fd = input_open(path, flags, cause)) < -1)
		return (NULL);
	if (fd == -1) {
		saved = errno;
		fail_with(cause, RB_EXIT_INPUT, "%s: %s", path, saved == ELOOP &&
		    (flags & O_NOFOLLOW) ? "a symbolic link, not followed "
		    "here" : strerror(saved));
		return (NULL);
	}
	buf = xmalloc(cap);
	for (;;) {
		if (len == cap) {
			if (len > max)
				break;
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			buf = xreallocarray(buf, cap, 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			saved = errno;
			close(fd);
			free(buf);
			fail_with(cause, RB_EXIT_INPUT, "%s: read: %s", path,
			    strerror(saved));
			return (NULL);
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (len > max) {
		free(buf);
		fail_with(cause, RB_EXIT_INPUT, "%s: larger than %zu MiB", path,
		    max >> 20);
		return (NULL);
	}
	root = json_loadb(buf, len, 0, &err);
	free(buf);
	if (root == NULL) {
		if (err.line < 1)
			fail_with(cause, RB_EXIT_INPUT, "%s: %s", path,
			    err.text);
		else
			fail_with(cause, RB_EXIT_INPUT, "%s:%d: %s", path,
			    err.line, err.text);
		return (NULL);
	}
	if (!json_is_object(root)) {
		fail_with(cause, RB_EXIT_INPUT, "%s:1: expected a JSON object",
		    path);
		json_decref(root);
		return (NULL);
	}
	return (root);
}
