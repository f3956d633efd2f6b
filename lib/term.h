/*
 * What fits on the terminal: its width (TIOCGWINSZ, refreshed after
 * SIGWINCH), and the progress line of `run`, built by a pure function of
 * the width so that its folding can be tested at any size.
 */
#ifndef RB_TERM_H
#define RB_TERM_H

#include <stddef.h>

#define TERM_DEFAULT_WIDTH	80
#define TERM_DEFAULT_HEIGHT	24
#define TERM_MIN_GLYPHS		10	/* fewer tell nothing */

/* The phase state a progress line shows. */
enum term_state {
	TERM_RUNNING,		/* the workload works */
	TERM_HOLDING,		/* its work is done, it keeps its memory */
	TERM_SETTLING		/* it has ended, the phase's settle time */
};

/* What a progress line says, apart from the regions. */
struct term_progress {
	const char	*suite;
	int		 rep, nreps;		/* rep from 1 */
	int		 phase, nphases;	/* phase from 1 */
	const char	*phase_name;
	const char	*workload;
	enum term_state	 state;
	double		 progress;		/* 0..1 while running */
	double		 elapsed;		/* seconds in phase */
	double		 left;			/* <0: unknown */
	int		 left_in_phase;		/* left counts this phase only */
	int		 min_per;		/* regions per glyph at least */
	int		 per;			/* out: regions per glyph used */
	int		 min_form;		/* terminal: text form at least */
	int		 form;			/* out: the form used */
};

void	 term_watch_resize(void);
int	 term_size(int fd, int *rows);
int	 term_fit_width(int fd);
int	 term_fold(const double *used, int n, int width, char *buf,
	     size_t len);
int	 term_fold_runs(const double *used, int n, int width, int min_per,
	     char *buf, size_t len);
void	 term_progress_line(char *buf, size_t len, int width, int plain,
	     struct term_progress *tp, const double *used, int n);

#endif
