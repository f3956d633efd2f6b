/*
 * Writes the synthetic kpageflags machine of tests/kpf-tree.h into a
 * directory, for the shell tests: kpf-mktree DIR [all|head].
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "kpf-tree.h"

int
main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: kpf-mktree DIR [all|head]\n");
		return (2);
	}
	kpf_tree_build(argv[1], argc == 3 && strcmp(argv[2], "head") == 0);
	return (0);
}
