/*
 * What the files of compare's output share (compare-output.c,
 * compare-output-data.c): the helpers that pick the keys shown and
 * compute the harmonic-mean cells.  Nothing outside compare's output
 * includes it.
 */
#ifndef RB_COMPARE_OUTPUT_INT_H
#define RB_COMPARE_OUTPUT_INT_H

#include <stddef.h>
#include <stdio.h>

#include "compare-output.h"

/* compare-output.c */
int	 compare_key_shown(const struct compare_set *set,
	     const struct compare_key *k, const struct compare_cell *cells,
	     int all);
int	 compare_harmonic_cells(const struct compare_set *set,
	     const struct compare_output *o, const struct compare_key *k,
	     struct compare_cell *hcells);

#endif
