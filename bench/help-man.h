/*
 * The manual page made from docs/regionbench.1.in and the option tables
 * (help-man.c says which markers the template may use).
 */
#ifndef RB_HELP_MAN_H
#define RB_HELP_MAN_H

#include <stdio.h>

int	 help_man(FILE *out, const char *template_path, char **cause);

#endif
