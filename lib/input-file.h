/*
 * Opening files regionbench reads as input (/proc and /sys files, results
 * directories, suites, rules, region maps) so that what sits at the path
 * cannot hang or mislead the reader: the open never blocks (O_NONBLOCK, so
 * a FIFO without a writer or a device is not waited on) and anything but a
 * regular file is refused as bad input.  The real /proc and /sys files are
 * regular files.
 */
#ifndef RB_INPUT_FILE_H
#define RB_INPUT_FILE_H

#include <stdio.h>

int	 input_open(const char *path, int flags, char **cause);
FILE	*input_fopen(const char *path, char **cause);

#endif
