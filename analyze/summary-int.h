/*
 * What the files of the summary share (summary.c, summary-table.c,
 * summary-fit.c, summary-style.c): the layout a text table is fitted to,
 * the table styles and the helpers the styles call.  Nothing outside the
 * summary includes it.
 */
#ifndef RB_SUMMARY_INT_H
#define RB_SUMMARY_INT_H

#include <stddef.h>
#include <stdio.h>

#include "summary.h"

#define SUMMARY_NRED	5	/* min, mean, max, final, twmean */

/*
 * How the text table fits the terminal.  width 0 (a file or a pipe) or a
 * terminal wide enough: the full layout.  Otherwise the compact one:
 * columns as wide as their contents, short units, and, while it still
 * does not fit, fewer reductions (min, then max, then final go) and at
 * last each metric's name on a line of its own.
 */
struct summary_fit {
	int	 width;			/* terminal columns, 0: no limit */
	int	 compact;
	int	 name_width;
	int	 cell_width;
	int	 unit_width;
	int	 shown[SUMMARY_NRED];	/* which reductions have a column */
	int	 name_alone;		/* the name on a line of its own */
	/* region list */
	int	 region_width, range_width, state_width;
	int	 show_range;
};

extern const char *const summary_red_names[SUMMARY_NRED];

/* How one table format prints each kind of line. */
struct summary_style {
	void	(*title)(FILE *f, const struct summary_run *sr, int width);
	void	(*phase)(FILE *f, const char *phase,
		    const struct summary_fit *fit);
	void	(*series)(FILE *f, const struct summary_fit *fit,
		    const char *name, char cell[SUMMARY_NRED][32],
		    const char *unit);
	void	(*row)(FILE *f, const struct summary_fit *fit,
		    const struct summary_row *row, const char *cell);
	void	(*regions)(FILE *f, double t_s, const struct summary_fit *fit);
	void	(*region)(FILE *f, const struct summary_fit *fit,
		    const char *name, const char *range, double present_mib,
		    double used_mib, double occupancy, const char *state);
	void	(*quality)(FILE *f, const char *text,
		    const struct summary_fit *fit);
	const char *power_note;		/* printed after the phases */
};

/* summary-table.c */
int	 summary_row_shown(const struct summary_row *row, int p, int brief);
int	 summary_series_shown(const struct summary_run *sr,
	     const struct metric_series *s, int p, int brief,
	     struct metric_reduction *red);
void	 summary_series_cells(const struct metric_series *s,
	     const struct metric_reduction *red, char cell[SUMMARY_NRED][32]);
const char *summary_region_state(const struct summary_run *sr, size_t at,
	     char *buf, size_t len);

/* summary-fit.c */
void	 summary_fit_phase(const struct summary_run *sr, int p, int brief,
	     int width, struct summary_fit *fit);
void	 summary_fit_regions(const struct summary_run *sr, int last,
	     struct summary_fit *fit);
const char *summary_fit_unit(const struct summary_fit *fit, const char *unit);

/* summary-style.c */
extern const struct summary_style summary_text_style;
extern const struct summary_style summary_markdown_style;

#endif
