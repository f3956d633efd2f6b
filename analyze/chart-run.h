/*
 * What the chart files share inside analyze/: one loaded run with its
 * metrics, the description of a chart (size, "is there data?", draw), the
 * phase spans and checkpoints every time chart marks, and rendering to PNG,
 * SVG files or SVG in memory.  Not for use outside the chart files.
 */
#ifndef RB_CHART_RUN_H
#define RB_CHART_RUN_H

#include <cairo.h>

#include "chart-draw.h"
#include "compare.h"
#include "metrics.h"
#include "results.h"

/* Margins of the bar charts: room for the y axis left, some air right. */
#define CHART_BARS_LEFT		96.0
#define CHART_BARS_RIGHT	30.0

/* The white gap between the nodes of the region-by-time charts. */
#define CHART_HEAT_NODE_GAP	6.0

/* A loaded run and the words that say where it comes from. */
struct chart_run {
	struct results	*res;
	struct metrics	*m;
	char		*where;		/* suite/command, label, kernel, host */
};

/* One phase: its name and when it started and ended. */
struct chart_span {
	int		 phase;
	double		 t0;
	double		 t1;
};

/* A named point in time (checkpoint). */
struct chart_mark {
	double		 t;
	int		 phase;
	const char	*label;
};

/* A time point a bar chart shows: a checkpoint or the end of a phase. */
struct chart_moment {
	int		 index;		/* into the time base it was found in */
	char		*label;
};

/*
 * Marks along the axis of a bar chart where a region had no pages (a hole,
 * or memory not initialised yet), so that no bar of 0 free pages is read
 * as a full region.  Slots are given left to right; adjacent marks of one
 * state share one word.
 */
struct chart_nopages {
	const struct chart_axes	*a;
	int			 span;	/* state of the open span; -1: none */
	double			 x0;	/* the open span, in axis units */
	double			 x1;
	int			 hole;	/* kinds marked so far */
	int			 uninit;
};

/* What a chart is drawn from. */
enum chart_input {
	CHART_RUN,	/* one run: data is a struct chart_run */
	CHART_RUNS	/* runs or groups of runs: data is what load made */
};

struct chart_def {
	const char	*name;		/* file name stem */
	const char	*title;		/* what it shows */
	enum chart_input input;
	/* CHART_RUNS: build the data from the paths grouped by `by`, and
	 * free it. */
	int		 (*load)(char **paths, int npaths,
			     enum compare_group_by by, void **data,
			     char **cause);
	void		 (*free)(void *data);
	/* Why it can't be drawn (no data), or NULL. */
	const char	*(*absent)(const void *data);
	/* Its data is recorded only on request: see CHART_QUIET_OPT_IN. */
	int		 opt_in;
	/* The report shows it in a section of its own, beside the table
	 * of the same figures, not among the other charts. */
	int		 apart;
	void		 (*size)(const void *data, double *w, double *h);
	void		 (*draw)(cairo_t *cr, double w, double h,
			     const void *data);
};

/*
 * Every chart, in the order files and the report show them.  Adding a
 * chart: a new analyze/chart-NAME.c defining chart_NAME_def, one line here
 * and one in analyze/local.mk.
 */
#define CHART_LIST(X) \
	X(heatmap) \
	X(power_states) \
	X(spread) \
	X(placement) \
	X(seed) \
	X(frag) \
	X(compare) \
	X(headline)

#define CHART_EXTERN(name) extern const struct chart_def chart_##name##_def;
CHART_LIST(CHART_EXTERN)
#undef CHART_EXTERN

/* The charts of CHART_LIST, NULL-terminated (chart.c). */
extern const struct chart_def *const chart_table[];

int	 chart_run_load(const char *dir, struct chart_run *run, char **cause);
void	 chart_run_free(struct chart_run *run);

int	 chart_spans(const struct results *res, struct chart_span **out);
int	 chart_checkpoints(const struct results *res,
	     struct chart_mark **out);
void	 chart_time_range(const struct results *res, double *t0,
	     double *t1);
void	 chart_phase_bands(cairo_t *cr, const struct results *res,
	     const struct chart_axes *panels, int npanels, int on_image);
int	 chart_moments(const struct results *res,
	     const struct results_times *tm, struct chart_moment **out);
double	 chart_moments_legend_height(const struct results *res,
	     const struct results_times *tm, double max_w);
double	 chart_moments_legend(cairo_t *cr, const struct results *res,
	     const struct results_times *tm, double top, double w,
	     struct chart_moment **mo, int *n);
void	 chart_moments_free(struct chart_moment *moments, int n);
void	 chart_region_axis(cairo_t *cr, const struct results *res,
	     const struct chart_axes *a, int labels);
void	 chart_bars_grouped(cairo_t *cr, const struct chart_axes *a,
	     const double *v, int nsets, int ncats, const int *colour);
void	 chart_region_label(const struct results *res, int r, char *buf,
	     size_t len);
double	 chart_region_max_bytes(const struct results *res);
double	 chart_share_top(double max);
double	 chart_bars_height(double legend_h, int npanels, double panel_h,
	     double gap);
void	 chart_region_panel(const struct results *res, double w, double y,
	     double h, double y1, struct chart_axes *a);
void	 chart_panel_title(cairo_t *cr, const struct chart_axes *a,
	     const char *text);
void	 chart_region_panel_end(cairo_t *cr, const struct results *res,
	     const struct chart_axes *a);
void	 chart_nopages_begin(struct chart_nopages *m,
	     const struct chart_axes *a);
void	 chart_nopages_slot(cairo_t *cr, struct chart_nopages *m, double x0,
	     double x1, int state);
void	 chart_nopages_end(cairo_t *cr, struct chart_nopages *m);
void	 chart_nopages_note(cairo_t *cr, const struct chart_axes *a,
	     int hole, int uninit);

/* Region rows over time, shared by the heatmap and the power states. */
double	 chart_heat_row_height(const struct results *res);
int	 chart_heat_node_groups(const struct results *res);
double	 chart_heat_plot_height(const struct results *res);
void	 chart_heat_row_labels(cairo_t *cr, const struct results *res,
	     double x, double y0, double rh);
double	 chart_heat_labels_width(cairo_t *cr, const struct results *res,
	     double rh);
/* Paints the rows regions first .. first + count - 1 over [t0, t1]. */
typedef void chart_heat_fill_fn(const struct chart_run *run,
	     cairo_surface_t *cells, double t0, double t1, int first, int count);
void	 chart_heat_grid(cairo_t *cr, const struct chart_run *run, double w,
	     double top, double right, chart_heat_fill_fn *fill,
	     struct chart_axes *a);

int	 chart_make_outdir(const char *outdir, char **cause);
int	 chart_render_file(const struct chart_def *def, const void *data,
	     unsigned format, const char *path, char **cause);
int	 chart_render_svg(const struct chart_def *def, const void *data,
	     char **buf, size_t *len, char **cause);

#endif
