/*
 * Drawing primitives every chart shares: colours (viridis and a
 * colour-blind-safe categorical palette), text in DejaVu Sans, linear axes
 * with "nice" ticks, lines thinned to the pixels they cover, bands, bars,
 * legends, and the occupancy image drawn with nearest-neighbour scaling.
 * Charts describe what to draw; this file decides how it looks, so every
 * chart looks the same.
 */
#ifndef RB_CHART_DRAW_H
#define RB_CHART_DRAW_H

#include <stdint.h>

#include <cairo.h>

#define CHART_FONT		"DejaVu Sans"
#define CHART_FONT_SIZE		12.0	/* tick labels, legends */
#define CHART_TITLE_SIZE	16.0
#define CHART_MAX_TICKS		32

struct chart_rgb {
	double		 r;
	double		 g;
	double		 b;
};

/* A plot area in device units and the data range it shows. */
struct chart_axes {
	double		 x;
	double		 y;
	double		 w;
	double		 h;
	double		 x0;
	double		 x1;
	double		 y0;
	double		 y1;
};

/* How to print tick values of one axis: value / div with a unit name. */
struct chart_scale {
	double		 div;
	const char	*unit;		/* "s", "min", "GiB", "%" ... */
	double		 min_step;	/* 1 for counts; 0: any */
};

/*
 * Region states drawn outside the viridis scale, so that none reads as an
 * occupancy: empty (every page free), not initialised yet, no pages, and
 * unproven (an estimate that could show the region neither active nor
 * empty).
 */
#define CHART_RGB_EMPTY		0xf7c6d9u
#define CHART_RGB_UNINIT	0xc8a27au
#define CHART_RGB_NO_DATA	0xbdbdbdu
#define CHART_RGB_UNPROVEN	0xe8e8f0u

struct chart_rgb chart_rgb_of(uint32_t rgb);
struct chart_rgb chart_viridis(double x);
uint32_t chart_viridis_pixel(double x);
struct chart_rgb chart_palette(int i);
void	 chart_set_rgb(cairo_t *cr, struct chart_rgb c, double alpha);

char	*chart_utf8_clean(const char *s);
void	 chart_font(cairo_t *cr, double size, int bold);
double	 chart_text_width(cairo_t *cr, const char *s);
void	 chart_text(cairo_t *cr, double x, double y, double halign,
	     double valign, const char *s);
void	 chart_text_vertical(cairo_t *cr, double x, double y,
	     const char *s);
char	*chart_fit_text(cairo_t *cr, const char *s, double width);

void	 chart_background(cairo_t *cr, double w, double h);
double	 chart_title(cairo_t *cr, double w, const char *title,
	     const char *subtitle);

int	 chart_ticks(double lo, double hi, int max, double min_step,
	     double *ticks);
struct chart_scale chart_time_scale(double span_s);
struct chart_scale chart_bytes_scale(double max_bytes);
void	 chart_format_value(char *buf, size_t len, double v, double step);

double	 chart_px(const struct chart_axes *a, double v);
double	 chart_py(const struct chart_axes *a, double v);
void	 chart_frame(cairo_t *cr, const struct chart_axes *a);
void	 chart_axis_x(cairo_t *cr, const struct chart_axes *a,
	     struct chart_scale scale, const char *label);
void	 chart_axis_y(cairo_t *cr, const struct chart_axes *a,
	     struct chart_scale scale, const char *label, int grid);
void	 chart_line(cairo_t *cr, const struct chart_axes *a,
	     const double *x, const double *y, int n, struct chart_rgb c,
	     double width, int dashed);
void	 chart_band(cairo_t *cr, const struct chart_axes *a,
	     const double *x, const double *lo, const double *hi, int n,
	     struct chart_rgb c, double alpha);
void	 chart_bar(cairo_t *cr, const struct chart_axes *a, double x0,
	     double x1, double y0, double y1, struct chart_rgb c);
double	 chart_legend(cairo_t *cr, double x, double y, double max_w,
	     const char *const *names, const struct chart_rgb *colours,
	     int n);
double	 chart_legend_height(const char *const *names, int n,
	     double max_w);
void	 chart_colorbar(cairo_t *cr, double x, double y, double w,
	     double h, const char *label);
int	 chart_image_nearest(cairo_t *cr, cairo_surface_t *cells, double x,
	     double y, double w, double h);

#endif
