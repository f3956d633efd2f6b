/*
 * The HTML report of one or more runs or groups of runs: a single file
 * with the charts, summary and comparison tables, meta information and
 * links to the CSVs, readable from disk without a server or network.
 */
#ifndef RB_REPORT_H
#define RB_REPORT_H

#include "compare.h"

int	 report_write(char **paths, int npaths, enum compare_group_by by,
	     const char *out, char **cause);
char	*report_default_path(char **paths, int npaths);

#endif
