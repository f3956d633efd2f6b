/*
 * Opening files regionbench reads as input (/proc and /sys files, results
 * directories, suites, rules, region maps, recordings) so that what sits
 * at the path cannot hang, mislead or exhaust the reader: the open never
 * blocks (O_NONBLOCK, so a FIFO without a writer or a device is not waited
 * on), anything but a regular file is refused as bad input, and so is a
 * kernel's file (procfs, sysfs, debugfs, ...: /proc/self/pagemap reads as
 * gigabytes) except for the readers of the --proc and --sys roots, which
 * pass INPUT_SYSTEM.  The real /proc and /sys files are regular files.
 * Inside a results directory callers add O_NOFOLLOW: a link planted there
 * is not followed.
 */
#ifndef RB_INPUT_FILE_H
#define RB_INPUT_FILE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/*
 * A flag of input_open's, not of open(2) (no O_ flag uses this bit): the
 * file may be a kernel's.  Only the /proc and /sys readers pass it.
 */
#define INPUT_SYSTEM	0x40000000

/* The largest JSON file read (meta.json, vm.json, recordings). */
#define INPUT_JSON_MAX	(64 << 20)

int	 input_open(const char *path, int flags, char **cause);
FILE	*input_fopen(const char *path, char **cause);
json_t	*input_json_object(const char *path, int flags, size_t max,
	     char **cause);

#endif
