/*
 * Is a directory safe for a privileged process to write into or read
 * from by path?  See trusted-path.c.
 */
#ifndef RB_TRUSTED_PATH_H
#define RB_TRUSTED_PATH_H

int	 trusted_dir(const char *path, const char *what, char **cause);
int	 trusted_file(const char *path, const char *what, char **cause);

#endif
