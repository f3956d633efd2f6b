/*
 * Writes the synthetic kpageflags machine of tests/kpf-tree.h into a
 * directory, for the shell tests: kpf-mktree DIR [all|head], or the
 * large two-node machine: kpf-mktree DIR big GIB.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kpf-tree.h"

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[2], "big") == 0) {
		if (kpf_tree_build_big(argv[1], (unsigned)atoi(argv[3])) != 0) {
			perror(argv[1]);
			return (1);
		}
		return (0);
	}
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: kpf-mktree DIR [all|head] | DIR big "
		    "GIB\n");
		return (2);
	}
	kpf_tree_build(argv[1], argc == 3 && strcmp(argv[2], "head") == 0);
	return (0);
}
