/*
 * Safe opening of input files (see input-file.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

/*
 * Open path read-only (flags may add O_NOFOLLOW).  Returns the descriptor
 * (blocking again, close-on-exec); -1 with errno set when open(2) failed,
 * cause untouched, so the caller words that error; or -RB_EXIT_INPUT with
 * a cause when the path is not a regular file.
 */
int
input_open(const char *path, int flags, char **cause)
{
	struct stat st;
	int fd, fl, saved;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
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
