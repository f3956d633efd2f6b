/*
 * The HTML report of one or more runs or groups of runs: a single file
 * with the charts, summary and comparison tables, meta information and
 * links to the CSVs, readable from disk without a server or network.
 */
#ifndef RB_REPORT_H
#define RB_REPORT_H

#include <stdint.h>

#include "compare.h"

/* How the report compares groups: as compare does, with its defaults. */
struct report_options {
	enum compare_group_by by;
	enum compare_unit unit;		/* default: boot */
	enum compare_test test;		/* default: Welch */
	double		 alpha;		/* default: 0.05 */
	uint64_t	 empty_tolerance;
};

void	 report_options_default(struct report_options *ro,
	     enum compare_group_by by);
int	 report_write(char **paths, int npaths, enum compare_group_by by,
	     const char *out, char **cause);
int	 report_write_with(char **paths, int npaths,
	     const struct report_options *ro, const char *out, char **cause);
char	*report_default_path(char **paths, int npaths);

#endif
