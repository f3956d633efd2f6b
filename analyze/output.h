/*
 * Small output helpers shared by analyze, compare, gate and the report:
 * CSV fields quoted only when needed (libcsv does the quoting), numbers
 * with unknowns as empty fields, and files replaced atomically.
 */
#ifndef RB_OUTPUT_H
#define RB_OUTPUT_H

#include <stdio.h>

#include "atomic-file.h"

/* A file being replaced: write to f, then commit or abort. */
struct output_file {
	FILE			*f;
	struct atomic_file	 af;
};

void	 output_csv_field(FILE *f, const char *s);
FILE	*output_escape_open(FILE *under);
void	 output_escape_stdout(void);
void	 output_xml_escape(FILE *f, const char *s);
void	 output_csv_number(FILE *f, double v);
int	 output_open(struct output_file *of, const char *path, char **cause);
int	 output_commit(struct output_file *of, char **cause);
void	 output_abort(struct output_file *of);

#endif
