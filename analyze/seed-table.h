/*
 * The seed table: free pages per region at each checkpoint (every sample
 * when the run has none), laid out like the table of the 2011 memory
 * regions cover letter.  One function per output format.
 */
#ifndef RB_SEED_TABLE_H
#define RB_SEED_TABLE_H

#include <stdio.h>

#include "results.h"

/* A column: one sample, with its heading. */
struct seed_col {
	int	 sample;
	char	 head[48];
};

struct seed_table {
	const struct results	*res;
	struct seed_col		*cols;
	int			 ncols;
};

void	 seed_table_build(struct seed_table *t, const struct results *res);
void	 seed_table_free(struct seed_table *t);
unsigned long long seed_table_pages(const struct seed_table *t, int col,
	     int region);
void	 seed_table_row_name(const struct seed_table *t, int region,
	     char *buf, size_t len);

void	 seed_table_print_text(FILE *f, const struct results *res);
void	 seed_table_print_csv(FILE *f, const struct results *res);
int	 seed_table_print_json(FILE *f, const struct results *res);
void	 seed_table_print_markdown(FILE *f, const struct results *res);

#endif
