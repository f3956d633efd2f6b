/*
 * Shell completion for regionbench, generated from the command and option
 * tables (bench/completion.c), so that it cannot drift from --help.
 */
#ifndef RB_COMPLETION_H
#define RB_COMPLETION_H

#include <stdio.h>

#include "command.h"

int	 completion_print(FILE *f, const char *shell,
	     const struct command_entry *const *commands, char **cause);

#endif
