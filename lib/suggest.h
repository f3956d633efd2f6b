/*
 * "Did you mean ...?": the closest of a set of words to one typed wrong,
 * by edit distance (a transposition counts as one edit), offered only
 * when it is close enough to be the likely intent.
 */
#ifndef RB_SUGGEST_H
#define RB_SUGGEST_H

/* The best word offered so far for one typed word. */
struct suggest {
	const char	*typed;
	const char	*best;		/* NULL: nothing close */
	int		 distance;
};

int	 suggest_distance(const char *a, const char *b);
void	 suggest_init(struct suggest *s, const char *typed);
void	 suggest_offer(struct suggest *s, const char *word);

#endif
