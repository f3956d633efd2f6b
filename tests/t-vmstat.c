/*
 * lib/vmstat.c through its public readers, on files written to a scratch
 * proc root: keys found, kB converted to bytes, unknown lines and keys,
 * values that are not numbers, and a missing file.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "procfile.h"
#include "tap.h"
#include "vmstat.h"

static char root[4096];

/* Write root/name. */
static void
put(const char *name, const char *text)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, name);
	if ((f = fopen(path, "w")) == NULL || fputs(text, f) == EOF ||
	    fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

int
main(void)
{
	static const char *const vkeys[] = { "pgfault", "oom_kill", "nope" };
	static const char *const mkeys[] = { "MemAvailable", "HugePages_Total",
	    "Cached" };
	struct procfile pf;
	char cmd[4200], *cause = NULL;
	uint64_t v[3];

	log_set_program("t-vmstat");
	snprintf(root, sizeof root, "%s", tap_scratch_dir("t-vmstat"));
	procfile_init(&pf);
	put("vmstat", "nr_free_pages 12\npgfault 345\ngarbage\noom_kill 2\n"
	    "pgfaultx 9\n");
	tap_ok(vmstat_read(&pf, root, vkeys, 3, v, &cause) == 0,
	    "vmstat: read");
	tap_ok(v[0] == 345 && v[1] == 2, "vmstat: two of three keys found, "
	    "a longer name with the same start is another key");
	tap_ok(v[2] == VMSTAT_MISSING, "vmstat: MISSING for an absent key");
	put("meminfo", "MemTotal:  100 kB\nMemAvailable:   2048 kB\n"
	    "HugePages_Total:       3\nCached: x kB\n");
	tap_ok(vmstat_read_meminfo(&pf, root, mkeys, 3, v, &cause) == 0,
	    "meminfo: read");
	tap_ok(v[0] == 2048 * 1024 && v[1] == 3, "meminfo: kB become bytes, "
	    "counts stay counts");
	tap_ok(v[2] == VMSTAT_MISSING, "meminfo: a value that isn't a number "
	    "is skipped");
	snprintf(cmd, sizeof cmd, "%s/vmstat", root);
	unlink(cmd);
	tap_ok(vmstat_read(&pf, root, vkeys, 3, v, &cause) != 0 &&
	    cause != NULL && strstr(cause, "vmstat") != NULL, "vmstat: a "
	    "missing file is an error naming it (%s)", cause ? cause : "none");
	free(cause);
	procfile_free(&pf);
	return (tap_done());
}
