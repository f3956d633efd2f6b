/*
 * What the files of the report share (report.c, report-compare.c): the
 * HTML escaping and number cells, and the comparison section the page
 * puts before the runs.  Nothing outside the report includes it.
 */
#ifndef RB_REPORT_INT_H
#define RB_REPORT_INT_H

#include <stdio.h>

#include "compare.h"
#include "report.h"

/* report.c */
void	 html_text(FILE *f, const char *text);
void	 html_number(FILE *f, double v);
double	 html_row_value_of(const struct compare_run *run, int p,
	     const char *base, const char *suffix);

/* report-compare.c */
void	 html_compare_table(FILE *f, const struct compare_set *set,
	     const struct report_options *ro);
void	 html_headline(FILE *f, const struct compare_run *run);

#endif
