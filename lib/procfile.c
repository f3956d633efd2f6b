/*
 * Reading /proc files whole.  seq_file files must be read until read()
 * returns 0; a file read in one go is one consistent view of the kernel
 * state only when the buffer is large enough, so the buffer starts at 64 KiB.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input-file.h"
#include "log.h"
#include "procfile.h"

#define PROCFILE_INITIAL (64 * 1024)
#define PROCFILE_MAX (256 * 1024 * 1024)

/* Prepare an empty file buffer. */
void
procfile_init(struct procfile *pf)
{
	memset(pf, 0, sizeof *pf);
}

/* Release a file buffer. */
void
procfile_free(struct procfile *pf)
{
	free(pf->buf);
	memset(pf, 0, sizeof *pf);
}

/* Join root and name into pf->path. */
static void
procfile_path(char *path, size_t len, const char *root, const char *name)
{
	if (root == NULL || *root == '\0')
		snprintf(path, len, "%s", name);
	else
		snprintf(path, len, "%s/%s", root, name);
}

/*
 * What to try when the kernel says no: root is the answer for others; root
 * itself is refused by a security module or lockdown, or, for another
 * process's files, by the ptrace access check.
 */
static const char *
procfile_denied_hint(void)
{
	if (geteuid() != 0)
		return (" (run as root)");
	return (" (refused even to root: a security module or kernel "
	    "lockdown, or for another process's files the ptrace access "
	    "check: a process of another user namespace or container, or "
	    "one that is not dumpable)");
}

/*
 * Read root/name whole into pf->buf.  Missing files and permission problems
 * are environment errors (exit 3); a file larger than 256 MiB is refused as
 * bad input.
 */
int
procfile_read(struct procfile *pf, const char *root, const char *name,
    char **cause)
{
	ssize_t n;
	int fd, saved;

	procfile_path(pf->path, sizeof pf->path, root, name);
	if ((fd = input_open(pf->path, INPUT_SYSTEM, cause)) < -1)
		return (fd);
	if (fd == -1) {
		saved = errno;
		return (fail_with(cause, saved == ENOENT || saved == EACCES ||
		    saved == EPERM ? RB_EXIT_ENV : RB_EXIT_INPUT,
		    "%s: %s%s", pf->path, strerror(saved), saved == EACCES ||
		    saved == EPERM ? procfile_denied_hint() : ""));
	}
	if (pf->cap == 0) {
		pf->cap = PROCFILE_INITIAL;
		pf->buf = xmalloc(pf->cap);
	}
	pf->len = 0;
	for (;;) {
		if (pf->len + 1 >= pf->cap) {
			if (pf->cap >= PROCFILE_MAX) {
				close(fd);
				return (fail_with(cause, RB_EXIT_INPUT,
				    "%s: larger than %d MiB, not a /proc file",
				    pf->path, PROCFILE_MAX >> 20));
			}
			pf->cap *= 2;
			pf->buf = xreallocarray(pf->buf, pf->cap, 1);
		}
		n = read(fd, pf->buf + pf->len, pf->cap - pf->len - 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			saved = errno;
			close(fd);
			return (fail_with(cause, RB_EXIT_ENV, "%s: read: %s",
			    pf->path, strerror(saved)));
		}
		if (n == 0)
			break;
		pf->len += (size_t)n;
	}
	close(fd);
	pf->buf[pf->len] = '\0';
	return (0);
}

/* Does root/name exist? */
int
procfile_exists(const char *root, const char *name)
{
	char path[4096];

	procfile_path(path, sizeof path, root, name);
	return (access(path, F_OK) == 0);
}

/* Can root/name be opened for reading by this process? */
int
procfile_readable(const char *root, const char *name)
{
	char path[4096];
	int fd;

	procfile_path(path, sizeof path, root, name);
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return (0);
	close(fd);
	return (1);
}
