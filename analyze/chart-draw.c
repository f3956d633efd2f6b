/*
 * Drawing primitives shared by the charts (see chart-draw.h).  Everything is
 * in device units of a surface whose unit is one pixel (PNG) or one CSS
 * pixel (SVG), so a chart looks the same in both.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart-draw.h"
#include "log.h"

/*
 * viridis (van der Walt and Smith, CC0) sampled at nine points; linear
 * interpolation between them stays within a few levels of the full table.
 */
static const uint32_t viridis_stops[] = {
	0x440154, 0x472c7a, 0x3b518b, 0x2c718e, 0x21908d,
	0x27ad81, 0x5cc863, 0xaadc32, 0xfde725
};
#define VIRIDIS_N ((int)(sizeof viridis_stops / sizeof viridis_stops[0]))

/* Okabe and Ito's colour-blind-safe palette, yellow and black last. */
static const uint32_t palette[] = {
	0x0072b2, 0xd55e00, 0x009e73, 0xe69f00, 0xcc79a7, 0x56b4e9,
	0x000000, 0xf0e442
};
#define PALETTE_N ((int)(sizeof palette / sizeof palette[0]))

/* A 0xRRGGBB value as a colour. */
struct chart_rgb
chart_rgb_of(uint32_t v)
{
	struct chart_rgb c = {
		((v >> 16) & 0xff) / 255.0,
		((v >> 8) & 0xff) / 255.0,
		(v & 0xff) / 255.0
	};

	return (c);
}

/* The viridis colour of x in [0, 1] (clamped). */
struct chart_rgb
chart_viridis(double x)
{
	struct chart_rgb a, b, c;
	double pos, f;
	int i;

	if (!(x > 0))
		x = 0;
	if (x > 1)
		x = 1;
	pos = x * (VIRIDIS_N - 1);
	i = (int)pos;
	if (i >= VIRIDIS_N - 1)
		return (chart_rgb_of(viridis_stops[VIRIDIS_N - 1]));
	f = pos - i;
	a = chart_rgb_of(viridis_stops[i]);
	b = chart_rgb_of(viridis_stops[i + 1]);
	c.r = a.r + (b.r - a.r) * f;
	c.g = a.g + (b.g - a.g) * f;
	c.b = a.b + (b.b - a.b) * f;
	return (c);
}

/* The viridis colour of x as a CAIRO_FORMAT_RGB24 pixel. */
uint32_t
chart_viridis_pixel(double x)
{
	struct chart_rgb c = chart_viridis(x);

	return ((uint32_t)lround(c.r * 255) << 16 |
	    (uint32_t)lround(c.g * 255) << 8 | (uint32_t)lround(c.b * 255));
}

/* The i-th categorical colour (cycling). */
struct chart_rgb
chart_palette(int i)
{
	if (i < 0)
		i = 0;
	return (chart_rgb_of(palette[i % PALETTE_N]));
}

/* Set the source colour. */
void
chart_set_rgb(cairo_t *cr, struct chart_rgb c, double alpha)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

/* Select DejaVu Sans at a size. */
void
chart_font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL,
	    bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

/* Length of the valid UTF-8 sequence at s, or 0. */
static int
utf8_length(const unsigned char *s)
{
	int n, i;

	if (s[0] < 0x80)
		return (1);
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return (0);
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return (0);
	return (n);
}

/*
 * A copy of s with every byte that is not valid UTF-8 replaced by '?':
 * names from CSV files are not checked on input, and cairo would put the
 * whole drawing into an error state for one bad byte.
 */
char *
chart_utf8_clean(const char *s)
{
	char *out = xstrdup(s);
	size_t i = 0;
	int n;

	while (out[i] != '\0') {
		if ((n = utf8_length((const unsigned char *)out + i)) == 0) {
			out[i++] = '?';
			continue;
		}
		i += n;
	}
	return (out);
}

/* Advance width of s in the current font. */
double
chart_text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t te;
	char *clean = chart_utf8_clean(s);

	cairo_text_extents(cr, clean, &te);
	free(clean);
	return (te.x_advance);
}

/*
 * Draw s anchored at (x, y): halign 0 left, 0.5 centre, 1 right; valign 0
 * top, 0.5 middle, 1 bottom of the font's ascent and descent.
 */
void
chart_text(cairo_t *cr, double x, double y, double halign, double valign,
    const char *s)
{
	cairo_font_extents_t fe;
	char *clean = chart_utf8_clean(s);
	double w = chart_text_width(cr, clean);

	cairo_font_extents(cr, &fe);
	cairo_move_to(cr, x - w * halign,
	    y + fe.ascent - (fe.ascent + fe.descent) * valign);
	cairo_show_text(cr, clean);
	cairo_new_path(cr);
	free(clean);
}

/* Draw s rotated to read bottom-up, centred on (x, y). */
void
chart_text_vertical(cairo_t *cr, double x, double y, const char *s)
{
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, -M_PI / 2);
	chart_text(cr, 0, 0, 0.5, 0.5, s);
	cairo_restore(cr);
}

/* A copy of s, shortened with "..." until it fits width. */
char *
chart_fit_text(cairo_t *cr, const char *s, double width)
{
	size_t len = strlen(s);
	char *buf = xmalloc(len + 4);

	memcpy(buf, s, len + 1);
	while (len > 1 && chart_text_width(cr, buf) > width) {
		len--;
		/* Cut before a whole UTF-8 character. */
		while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
		memcpy(buf, s, len);
		memcpy(buf + len, "...", 4);
	}
	return (buf);
}

/* Fill the whole surface white. */
void
chart_background(cairo_t *cr, double w, double h)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, 0, 0, w, h);
	cairo_fill(cr);
}

/* Draw the title and subtitle; returns the height they take. */
double
chart_title(cairo_t *cr, double w, const char *title, const char *subtitle)
{
	char *buf;
	double y = 10;

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	chart_font(cr, CHART_TITLE_SIZE, 1);
	buf = chart_fit_text(cr, title, w - 24);
	chart_text(cr, 12, y, 0, 0, buf);
	free(buf);
	y += CHART_TITLE_SIZE * 1.4;
	if (subtitle != NULL && *subtitle != '\0') {
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
		chart_font(cr, CHART_FONT_SIZE, 0);
		buf = chart_fit_text(cr, subtitle, w - 24);
		chart_text(cr, 12, y, 0, 0, buf);
		free(buf);
		y += CHART_FONT_SIZE * 1.5;
	}
	return (y + 6);
}

/* Step of about (hi - lo) / max ticks, rounded to 1, 2 or 5 times 10^k. */
static double
tick_step(double lo, double hi, int max)
{
	double raw = (hi - lo) / (max > 1 ? max : 1), mag, norm;

	if (!(raw > 0) || !isfinite(raw))
		return (1);
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	if (norm <= 1)
		return (mag);
	if (norm <= 2)
		return (2 * mag);
	if (norm <= 5)
		return (5 * mag);
	return (10 * mag);
}

/* Round tick values in [lo, hi], at most max (and CHART_MAX_TICKS). */
int
chart_ticks(double lo, double hi, int max, double min_step, double *ticks)
{
	double step = fmax(tick_step(lo, hi, max), min_step), v;
	int n = 0;

	if (max > CHART_MAX_TICKS)
		max = CHART_MAX_TICKS;
	for (v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 &&
	    n < CHART_MAX_TICKS; v += step) {
		ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return (n);
}

/* Seconds, minutes or hours, whichever reads best over span_s. */
struct chart_scale
chart_time_scale(double span_s)
{
	struct chart_scale s = { 1, "s", 0 };

	if (span_s > 6 * 3600) {
		s.div = 3600;
		s.unit = "h";
	} else if (span_s > 600) {
		s.div = 60;
		s.unit = "min";
	}
	return (s);
}

/* KiB, MiB or GiB, whichever reads best up to max_bytes. */
struct chart_scale
chart_bytes_scale(double max_bytes)
{
	struct chart_scale s = { 1024.0 * 1024 * 1024, "GiB", 0 };

	if (max_bytes < 1024.0 * 1024)
		s = (struct chart_scale){ 1024, "KiB", 0 };
	else if (max_bytes < 1024.0 * 1024 * 1024)
		s = (struct chart_scale){ 1024.0 * 1024, "MiB", 0 };
	return (s);
}

/* Print v with as many decimals as a tick step needs. */
void
chart_format_value(char *buf, size_t len, double v, double step)
{
	int decimals = 0;

	if (step > 0 && step < 1)
		decimals = (int)ceil(-log10(step) - 1e-9);
	if (decimals > 6)
		decimals = 6;
	snprintf(buf, len, "%.*f", decimals, v);
}

/* Device x of a data value. */
double
chart_px(const struct chart_axes *a, double v)
{
	if (a->x1 == a->x0)
		return (a->x);
	return (a->x + (v - a->x0) / (a->x1 - a->x0) * a->w);
}

/* Device y of a data value (up is larger). */
double
chart_py(const struct chart_axes *a, double v)
{
	if (a->y1 == a->y0)
		return (a->y + a->h);
	return (a->y + a->h - (v - a->y0) / (a->y1 - a->y0) * a->h);
}

/* A thin grey frame around the plot area. */
void
chart_frame(cairo_t *cr, const struct chart_axes *a)
{
	cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, round(a->x) + 0.5, round(a->y) + 0.5,
	    round(a->w), round(a->h));
	cairo_stroke(cr);
}

/* Ticks and labels below the plot, and the axis label under them. */
void
chart_axis_x(cairo_t *cr, const struct chart_axes *a,
    struct chart_scale scale, const char *label)
{
	double ticks[CHART_MAX_TICKS], x, step, right = -1e9;
	char buf[64];
	int n, i;

	chart_font(cr, CHART_FONT_SIZE, 0);
	n = chart_ticks(a->x0 / scale.div, a->x1 / scale.div,
	    (int)(a->w / 90) + 1, scale.min_step, ticks);
	step = n > 1 ? ticks[1] - ticks[0] : 1;
	for (i = 0; i < n; i++) {
		x = round(chart_px(a, ticks[i] * scale.div)) + 0.5;
		cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
		cairo_move_to(cr, x, a->y + a->h);
		cairo_line_to(cr, x, a->y + a->h + 5);
		cairo_stroke(cr);
		chart_format_value(buf, sizeof buf, ticks[i], step);
		if (x - chart_text_width(cr, buf) / 2 < right + 6)
			continue;
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text(cr, x, a->y + a->h + 7, 0.5, 0, buf);
		right = x + chart_text_width(cr, buf) / 2;
	}
	if (label != NULL) {
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text(cr, a->x + a->w / 2, a->y + a->h + 24, 0.5, 0,
		    label);
	}
}

/* Ticks, labels and optional grid lines left of the plot; label rotated. */
void
chart_axis_y(cairo_t *cr, const struct chart_axes *a,
    struct chart_scale scale, const char *label, int grid)
{
	double ticks[CHART_MAX_TICKS], y, step, widest = 0;
	char buf[64];
	int n, i;

	chart_font(cr, CHART_FONT_SIZE, 0);
	n = chart_ticks(a->y0 / scale.div, a->y1 / scale.div,
	    (int)(a->h / 36) + 1, scale.min_step, ticks);
	step = n > 1 ? ticks[1] - ticks[0] : 1;
	for (i = 0; i < n; i++) {
		y = round(chart_py(a, ticks[i] * scale.div)) + 0.5;
		if (grid) {
			cairo_set_source_rgba(cr, 0, 0, 0, 0.1);
			cairo_move_to(cr, a->x, y);
			cairo_line_to(cr, a->x + a->w, y);
			cairo_stroke(cr);
		}
		cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
		cairo_move_to(cr, a->x - 5, y);
		cairo_line_to(cr, a->x, y);
		cairo_stroke(cr);
		chart_format_value(buf, sizeof buf, ticks[i], step);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text(cr, a->x - 8, y, 1, 0.5, buf);
		if (chart_text_width(cr, buf) > widest)
			widest = chart_text_width(cr, buf);
	}
	if (label != NULL) {
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text_vertical(cr, a->x - 16 - widest - CHART_FONT_SIZE / 2,
		    a->y + a->h / 2, label);
	}
}

/* Add one vertex, starting a new subpath after a gap (NAN). */
static void
line_vertex(cairo_t *cr, double x, double y, int *pen)
{
	if (*pen)
		cairo_line_to(cr, x, y);
	else
		cairo_move_to(cr, x, y);
	*pen = 1;
}

/*
 * A polyline through (x[i], y[i]), NAN values leaving gaps.  When there are
 * more points than pixel columns, each column keeps its first, lowest,
 * highest and last point: the same picture with a bounded path size (a
 * one-hour 10 Hz series would otherwise put 36000 vertices into the SVG).
 */
void
chart_line(cairo_t *cr, const struct chart_axes *a, const double *x,
    const double *y, int n, struct chart_rgb c, double width, int dashed)
{
	double dash[] = { 5, 3 }, px, py, lo = 0, hi = 0, first = 0, last = 0;
	int i, pen = 0, col, cur = -1, thin = n > 2 * a->w;

	cairo_save(cr);
	cairo_rectangle(cr, a->x, a->y - 1, a->w, a->h + 2);
	cairo_clip(cr);
	chart_set_rgb(cr, c, 1);
	cairo_set_line_width(cr, width);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	if (dashed)
		cairo_set_dash(cr, dash, 2, 0);
	for (i = 0; i < n; i++) {
		if (!isfinite(y[i])) {
			if (thin && cur >= 0) {
				line_vertex(cr, cur + a->x, first, &pen);
				line_vertex(cr, cur + a->x, lo, &pen);
				line_vertex(cr, cur + a->x, hi, &pen);
				line_vertex(cr, cur + a->x, last, &pen);
			}
			cur = -1;
			pen = 0;
			continue;
		}
		px = chart_px(a, x[i]);
		py = chart_py(a, y[i]);
		if (!thin) {
			line_vertex(cr, px, py, &pen);
			continue;
		}
		col = (int)floor(px - a->x);
		if (col != cur) {
			if (cur >= 0) {
				line_vertex(cr, cur + a->x, first, &pen);
				line_vertex(cr, cur + a->x, lo, &pen);
				line_vertex(cr, cur + a->x, hi, &pen);
				line_vertex(cr, cur + a->x, last, &pen);
			}
			cur = col;
			first = lo = hi = py;
		}
		lo = fmin(lo, py);
		hi = fmax(hi, py);
		last = py;
	}
	if (thin && cur >= 0) {
		line_vertex(cr, cur + a->x, first, &pen);
		line_vertex(cr, cur + a->x, lo, &pen);
		line_vertex(cr, cur + a->x, hi, &pen);
		line_vertex(cr, cur + a->x, last, &pen);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

/*
 * A translucent band between lo[i] and hi[i] (confidence intervals);
 * points with a NAN bound are left out.  Thinned like chart_line.
 */
void
chart_band(cairo_t *cr, const struct chart_axes *a, const double *x,
    const double *lo, const double *hi, int n, struct chart_rgb c,
    double alpha)
{
	int i, j, start, step = 1;

	if (n > 2 * a->w)
		step = (int)(n / a->w);
	cairo_save(cr);
	cairo_rectangle(cr, a->x, a->y, a->w, a->h);
	cairo_clip(cr);
	chart_set_rgb(cr, c, alpha);
	for (i = 0; i < n; i = j) {
		while (i < n && !(isfinite(lo[i]) && isfinite(hi[i])))
			i++;
		for (start = i, j = i; j < n && isfinite(lo[j]) &&
		    isfinite(hi[j]); j++)
			;
		if (j - start < 2)
			continue;
		cairo_move_to(cr, chart_px(a, x[start]), chart_py(a, hi[start]));
		for (i = start; i < j; i += step)
			cairo_line_to(cr, chart_px(a, x[i]), chart_py(a, hi[i]));
		cairo_line_to(cr, chart_px(a, x[j - 1]), chart_py(a, hi[j - 1]));
		cairo_line_to(cr, chart_px(a, x[j - 1]), chart_py(a, lo[j - 1]));
		for (i = j - 1; i >= start; i -= step)
			cairo_line_to(cr, chart_px(a, x[i]), chart_py(a, lo[i]));
		cairo_line_to(cr, chart_px(a, x[start]), chart_py(a, lo[start]));
		cairo_close_path(cr);
		cairo_fill(cr);
	}
	cairo_restore(cr);
}

/* A filled rectangle between data coordinates. */
void
chart_bar(cairo_t *cr, const struct chart_axes *a, double x0, double x1,
    double y0, double y1, struct chart_rgb c)
{
	double l = chart_px(a, x0), r = chart_px(a, x1);
	double t = chart_py(a, y1), b = chart_py(a, y0);

	if (r - l < 1)
		r = l + 1;
	chart_set_rgb(cr, c, 1);
	cairo_rectangle(cr, l, t, r - l, b - t);
	cairo_fill(cr);
}

/*
 * A legend of colour swatches and names from (x, y), wrapping at max_w;
 * returns its height.
 */
double
chart_legend(cairo_t *cr, double x, double y, double max_w,
    const char *const *names, const struct chart_rgb *colours, int n)
{
	double cx = x, cy = y, item, row = CHART_FONT_SIZE * 1.6;
	int i;

	chart_font(cr, CHART_FONT_SIZE, 0);
	for (i = 0; i < n; i++) {
		item = 18 + chart_text_width(cr, names[i]) + 16;
		if (cx > x && cx + item > x + max_w) {
			cx = x;
			cy += row;
		}
		chart_set_rgb(cr, colours[i], 1);
		cairo_rectangle(cr, cx, cy + 2, 13, CHART_FONT_SIZE - 2);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text(cr, cx + 18, cy, 0, 0, names[i]);
		cx += item;
	}
	return (n > 0 ? cy - y + row : 0);
}

/* Height chart_legend will take, measured on a scratch surface. */
double
chart_legend_height(const char *const *names, int n, double max_w)
{
	cairo_surface_t *scratch;
	struct chart_rgb *colours = xcalloc(n > 0 ? n : 1, sizeof *colours);
	cairo_t *cr;
	double h;

	scratch = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
	cr = cairo_create(scratch);
	h = chart_legend(cr, 0, 0, max_w, names, colours, n);
	cairo_destroy(cr);
	cairo_surface_destroy(scratch);
	free(colours);
	return (h);
}

/* A vertical viridis colour bar with 0..100% ticks and a rotated label. */
void
chart_colorbar(cairo_t *cr, double x, double y, double w, double h,
    const char *label)
{
	cairo_pattern_t *grad;
	struct chart_rgb c;
	char buf[16];
	double ty;
	int i;

	grad = cairo_pattern_create_linear(0, y + h, 0, y);
	for (i = 0; i < VIRIDIS_N; i++) {
		c = chart_rgb_of(viridis_stops[i]);
		cairo_pattern_add_color_stop_rgb(grad,
		    (double)i / (VIRIDIS_N - 1), c.r, c.g, c.b);
	}
	cairo_set_source(cr, grad);
	cairo_rectangle(cr, x, y, w, h);
	cairo_fill(cr);
	cairo_pattern_destroy(grad);
	chart_font(cr, CHART_FONT_SIZE, 0);
	for (i = 0; i <= 4; i++) {
		ty = round(y + h - h * i / 4.0) + 0.5;
		cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
		cairo_move_to(cr, x + w, ty);
		cairo_line_to(cr, x + w + 4, ty);
		cairo_stroke(cr);
		snprintf(buf, sizeof buf, "%d%%", i * 25);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text(cr, x + w + 7, ty, 0, 0.5, buf);
	}
	if (label != NULL)
		chart_text_vertical(cr, x + w + 54, y + h / 2, label);
}

/*
 * Draw an image of cells stretched over (x, y, w, h) with nearest-neighbour
 * scaling.  The stretch is done here into an image of the target's pixel
 * size, because cairo's SVG surface embeds images without a rendering hint
 * and viewers would blur unscaled cells into each other.
 */
int
chart_image_nearest(cairo_t *cr, cairo_surface_t *cells, double x, double y,
    double w, double h)
{
	cairo_surface_t *scaled;
	cairo_t *scr;
	int cw = cairo_image_surface_get_width(cells);
	int ch = cairo_image_surface_get_height(cells);
	int pw = (int)lround(w), ph = (int)lround(h);
	int st;

	if (cw <= 0 || ch <= 0 || pw <= 0 || ph <= 0)
		return (0);
	scaled = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pw, ph);
	scr = cairo_create(scaled);
	cairo_scale(scr, (double)pw / cw, (double)ph / ch);
	cairo_set_source_surface(scr, cells, 0, 0);
	cairo_pattern_set_filter(cairo_get_source(scr), CAIRO_FILTER_NEAREST);
	cairo_pattern_set_extend(cairo_get_source(scr), CAIRO_EXTEND_PAD);
	cairo_paint(scr);
	st = cairo_status(scr);
	cairo_destroy(scr);
	cairo_surface_flush(scaled);
	cairo_save(cr);
	cairo_set_source_surface(cr, scaled, x, y);
	cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
	cairo_rectangle(cr, x, y, pw, ph);
	cairo_fill(cr);
	cairo_restore(cr);
	cairo_surface_destroy(scaled);
	return (st);
}
