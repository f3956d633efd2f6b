/*
 * make check's side of the fuzz harnesses: a main that feeds every input
 * kept under tests/data/hardening/NAME/ (past crashes and minimized
 * corpora) to LLVMFuzzerTestOneInput of tests/fuzz/fuzz-NAME.c, built
 * with the normal compiler (and with ASan in the sanitizer build).  Each
 * input must come back: a crash, an abort or a sanitizer report fails the
 * test.  Built once per harness with -DFUZZ_NAME='"NAME"'.
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "tap.h"

int	LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Read a whole file; NULL when it cannot be read. */
static uint8_t *
replay_read(const char *path, size_t *len)
{
	uint8_t *buf = NULL;
	size_t cap = 0, n;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		return (NULL);
	*len = 0;
	do {
		if (*len == cap) {
			cap = cap == 0 ? 65536 : cap * 2;
			buf = xreallocarray(buf, cap, 1);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	return (buf);
}

/* Order directory entries by name (scandir callback). */
static int
replay_cmp(const struct dirent **a, const struct dirent **b)
{
	return (strcmp((*a)->d_name, (*b)->d_name));
}

/* Replay every file of tests/data/hardening/FUZZ_NAME. */
int
main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	struct dirent **names;
	char dir[4096], path[8192];
	uint8_t *data;
	size_t len;
	int n, i, ran = 0;

	log_set_program("t-hardening-" FUZZ_NAME);
	snprintf(dir, sizeof dir, "%s/tests/data/hardening/%s",
	    top != NULL ? top : ".", FUZZ_NAME);
	if ((n = scandir(dir, &names, NULL, replay_cmp)) < 0)
		tap_skip_all("no inputs kept for this harness");
	if (LLVMFuzzerInitialize != NULL)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			snprintf(path, sizeof path, "%s/%s", dir,
			    names[i]->d_name);
			if ((data = replay_read(path, &len)) != NULL) {
				/* A crash ends the test here, unreported. */
				tap_ok(LLVMFuzzerTestOneInput(data, len) == 0,
				    "%s/%s: parsed or refused, no crash",
				    FUZZ_NAME, names[i]->d_name);
				free(data);
				ran++;
			} else
				tap_ok(0, "%s: readable", path);
		}
		free(names[i]);
	}
	free(names);
	if (ran == 0)
		tap_skip_all("no inputs kept for this harness");
	return (tap_done());
}
