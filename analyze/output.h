/*
 * Small output helpers shared by analyze, compare, gate and the report:
 * CSV fields quoted only when needed (libcsv does the quoting), numbers
 * with unknowns as empty fields, and files replaced atomically.
 */
#ifndef RB_OUTPUT_H
#define RB_OUTPUT_H

#include <stdio.h>

/* A file being written under a temporary name next to its final name. */
struct output_file {
	FILE	*f;
	char	*tmp;
	char	*path;
};

void	 output_csv_field(FILE *f, const char *s);
void	 output_xml_escape(FILE *f, const char *s);
void	 output_csv_number(FILE *f, double v);
int	 output_open(struct output_file *of, const char *path, char **cause);
int	 output_commit(struct output_file *of, char **cause);
void	 output_abort(struct output_file *of);

#endif
