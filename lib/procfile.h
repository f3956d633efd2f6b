/*
 * Whole-file reads of /proc and /sys text files into a reusable buffer.
 * The buffer grows only when a file is larger than any earlier read of it,
 * so repeated samples do not allocate.
 */
#ifndef RB_PROCFILE_H
#define RB_PROCFILE_H

#include <stddef.h>

struct procfile {
	char	*buf;		/* NUL-terminated contents */
	size_t	 len;
	size_t	 cap;
	char	 path[4096];	/* root + name of the last read */
};

void	 procfile_init(struct procfile *pf);
void	 procfile_free(struct procfile *pf);
int	 procfile_read(struct procfile *pf, const char *root, const char *name,
	     char **cause);
int	 procfile_exists(const char *root, const char *name);
int	 procfile_readable(const char *root, const char *name);

#endif
