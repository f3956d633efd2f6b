/*
 * What compare prints: groups of runs side by side, like mmtests'
 * compare-kernels (aligned columns, significant changes between stars),
 * or as markdown, CSV or JSON.  One function per output format; each
 * writes to the FILE it is given.
 */
#ifndef RB_COMPARE_OUTPUT_H
#define RB_COMPARE_OUTPUT_H

#include <jansson.h>
#include <stdio.h>

#include "compare.h"

/* How to compare and what to show. */
struct compare_output {
	int			 base;		/* baseline group */
	enum compare_test	 test;
	double			 alpha;
	int			 all;		/* text, markdown: every metric */
	const char		*differences;	/* runs differ (--force) */
	json_t			*notes;		/* strings; see compare_notes */
	int			 width;		/* text: terminal columns, 0: none */
};

const char *compare_test_name(enum compare_test test);
char	*compare_group_names(const struct compare_set *set);
json_t	*compare_notes(const struct compare_set *set,
	     const char *differences);
void	 compare_print_text(FILE *f, const struct compare_set *set,
	     const struct compare_output *o);
void	 compare_print_markdown(FILE *f, const struct compare_set *set,
	     const struct compare_output *o);
void	 compare_print_csv(FILE *f, const struct compare_set *set,
	     const struct compare_output *o);
int	 compare_print_json(FILE *f, const struct compare_set *set,
	     const struct compare_output *o);

#endif
