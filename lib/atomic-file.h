/*
 * Replacing a whole file so that a reader, a crash or a SIGKILL only ever
 * sees the old file or the new one: write a temporary file beside it
 * (created O_EXCL|O_NOFOLLOW, so nothing planted there is followed), fsync
 * it, rename it over the final name and fsync the directory.  Every file
 * regionbench replaces whole (meta.json, regions.csv, summaries, charts,
 * reports, JUnit) goes through here.
 */
#ifndef RB_ATOMIC_FILE_H
#define RB_ATOMIC_FILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

/* A file being written under a temporary name next to its final name. */
struct atomic_file {
	int		 dirfd;		/* the directory of both names */
	int		 own_dirfd;	/* close dirfd when done */
	int		 fd;		/* the temporary file, -1 when done */
	FILE		*f;		/* stdio over fd, when asked for */
	char		 path[PATH_MAX];	/* final path, for messages */
	char		 name[NAME_MAX + 1];	/* final name in dirfd */
	char		 tmp[NAME_MAX + 1];	/* temporary name in dirfd */
};

int	 atomic_file_open(struct atomic_file *af, const char *path,
	     char **cause);
int	 atomic_file_openat(struct atomic_file *af, int dirfd,
	     const char *dir, const char *name, char **cause);
FILE	*atomic_file_stdio(struct atomic_file *af);
int	 atomic_file_append(struct atomic_file *af, const void *data,
	     size_t len, char **cause);
int	 atomic_file_commit(struct atomic_file *af, char **cause);
void	 atomic_file_abort(struct atomic_file *af);
int	 atomic_file_write(const char *path, const void *data, size_t len,
	     char **cause);
int	 atomic_file_writeat(int dirfd, const char *dir, const char *name,
	     const void *data, size_t len, char **cause);
int	 atomic_write_all(int fd, const void *data, size_t len);

int	 make_parent_dirs(const char *path, char **cause);

#endif
