/*
 * Suggestions for mistyped names (commands, options, metrics): the
 * optimal-string-alignment distance, which is the Levenshtein distance
 * with a swap of two neighbours counted as one edit ("comapre").
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "suggest.h"

/* The number of edits (insert, delete, replace, swap) from a to b. */
int
suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *d, cost, best, v;

	d = xcalloc((la + 1) * (lb + 1), sizeof *d);
#define D(i, j) d[(i) * (lb + 1) + (j)]
	for (i = 0; i <= la; i++)
		D(i, 0) = (int)i;
	for (j = 0; j <= lb; j++)
		D(0, j) = (int)j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			cost = a[i - 1] != b[j - 1];
			best = D(i - 1, j) + 1;
			if ((v = D(i, j - 1) + 1) < best)
				best = v;
			if ((v = D(i - 1, j - 1) + cost) < best)
				best = v;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] &&
			    (v = D(i - 2, j - 2) + 1) < best)
				best = v;
			D(i, j) = best;
		}
	}
	best = D(la, lb);
#undef D
	free(d);
	return (best);
}

/* Start looking for the word closest to typed. */
void
suggest_init(struct suggest *s, const char *typed)
{
	s->typed = typed;
	s->best = NULL;
	s->distance = 0;
}

/*
 * Consider one word: kept when it is closer than the best so far and
 * close enough, at most a third of the typed word's letters (at least
 * one) being wrong, and less than the word itself (no "a" for "b").
 */
void
suggest_offer(struct suggest *s, const char *word)
{
	int d, limit = (int)strlen(s->typed) / 3;

	if (limit < 1)
		limit = 1;
	d = suggest_distance(s->typed, word);
	if (d == 0 || d > limit || d >= (int)strlen(word))
		return;
	if (s->best == NULL || d < s->distance) {
		s->best = word;
		s->distance = d;
	}
}
