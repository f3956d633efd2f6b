/*
 * Human-readable tables of a snapshot for the terminal: the live view of
 * `sample` and the region list of `info`.
 */
#ifndef RB_REGION_TABLE_H
#define RB_REGION_TABLE_H

#include <stdio.h>

#include "snapshot.h"

#define REGION_TABLE_BAR	0x1	/* draw a used-% bar */
#define REGION_TABLE_LAYOUT	0x2	/* show start pfn and spanned */

void	 region_table_print(FILE *f, const struct snapshot *snap, int flags);
void	 region_table_print_fit(FILE *f, const struct snapshot *snap,
	     int flags, int width, int height, const char *title);

#endif
