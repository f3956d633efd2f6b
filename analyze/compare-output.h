/*
 * What compare prints: groups of runs side by side, like mmtests'
 * compare-kernels (aligned columns, significant changes between stars),
 * or as markdown, CSV or JSON.  One function per output format; each
 * writes to the FILE it is given.
 */
#ifndef RB_COMPARE_OUTPUT_H
#define RB_COMPARE_OUTPUT_H

#include <jansson.h>
#include <stdint.h>
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

/* The output formats of compare_run. */
enum compare_format {
	COMPARE_FORMAT_TEXT,
	COMPARE_FORMAT_CSV,
	COMPARE_FORMAT_JSON,
	COMPARE_FORMAT_MARKDOWN
};

/* What compare_run is asked to compare and print (compare's options). */
struct compare_request {
	char			**paths;	/* directories, db: selections */
	int			 npaths;
	enum compare_group_by	 group_by;
	const char		*baseline;	/* group name, or NULL */
	enum compare_format	 format;
	enum compare_test	 test;
	double			 alpha;
	int			 all;
	int			 force;		/* compare runs that differ */
	enum compare_unit	 unit;
	uint64_t		 empty_tolerance;
	const char		*db;		/* the database of db: */
	int			 width;		/* text: the terminal's, 0: any */
};

int	 compare_run(FILE *f, const struct compare_request *req,
	     char **cause);
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
