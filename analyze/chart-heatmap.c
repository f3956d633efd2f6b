/*
 * The region heatmap: time across, one row per region (grouped by node,
 * labelled with its number and physical range), colour = occupancy
 * (used / present) on the viridis scale.  Four states have colours of
 * their own, outside viridis, so none reads as an occupancy: empty regions
 * (used <= tolerance, what could be powered down; not "low"), regions
 * whose memory the kernel has not initialised yet, holes, and regions an
 * estimate (--scan-fraction) left unproven, which must not read as an
 * occupancy of 0 % that is not empty.  The cells
 * are one image per node
 * drawn with nearest-neighbour scaling; when samples outnumber pixel
 * columns each column shows the mean of the samples it covers, so a
 * one-hour 10 Hz run costs no more than a short one.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart-run.h"
#include "log.h"

#define HEAT_W		1000.0
#define HEAT_TOP	34.0	/* phase and checkpoint labels */
#define HEAT_RIGHT	110.0	/* the swatches */
#define HEAT_BOTTOM	56.0
#define HEAT_NO_DATA	CHART_RGB_NO_DATA	/* region absent, no pages */
#define HEAT_EMPTY	CHART_RGB_EMPTY
#define HEAT_UNINIT	CHART_RGB_UNINIT
#define HEAT_UNPROVEN	CHART_RGB_UNPROVEN

/* The swatches under the colour bar, for the states a run has. */
static const struct {
	unsigned	 state;
	uint32_t	 rgb;
	const char	*label;
} heat_states[] = {
	{ REGION_EMPTY, HEAT_EMPTY, "empty" },
	{ REGION_UNINIT, HEAT_UNINIT, "not initialised" },
	{ REGION_HOLE, HEAT_NO_DATA, "no pages" },
	{ REGION_UNPROVEN, HEAT_UNPROVEN, "unproven (estimate)" },
};

/*
 * Height of one region row: whole units up to 160 regions, then a share
 * of 720 units (the cells of several regions then meet in one pixel row,
 * see fill_cells).
 */
double
chart_heat_row_height(const struct results *res)
{
	if (res->nregions > 160)
		return (720.0 / res->nregions);
	return (fmin(40, fmax(3, floor(480.0 / res->nregions))));
}

/* Number of node groups (regions are sorted by node). */
int
chart_heat_node_groups(const struct results *res)
{
	int r, n = 1;

	for (r = 1; r < res->nregions; r++)
		if (res->regions[r].node != res->regions[r - 1].node)
			n++;
	return (n);
}

/* Plot height: the rows and the gaps between nodes. */
double
chart_heat_plot_height(const struct results *res)
{
	return (res->nregions * chart_heat_row_height(res) +
	    (chart_heat_node_groups(res) - 1) * CHART_HEAT_NODE_GAP);
}

/* The heatmap needs samples only, which every loaded run has. */
static const char *
heatmap_absent(const void *data)
{
	const struct chart_run *run = data;

	return (run->res->samples.n == 0 ? "no samples" : NULL);
}

static void
heatmap_size(const void *data, double *w, double *h)
{
	const struct chart_run *run = data;

	*w = HEAT_W;
	*h = 62 + HEAT_TOP + chart_heat_plot_height(run->res) + HEAT_BOTTOM;
}

/*
 * Fill cells (cols x rows, RGB24) for the count regions from r0 with the
 * mean occupancy of the samples each column covers; a column no sample
 * falls into repeats the one before it.  With fewer rows than regions,
 * each row is the mean of the regions it covers.  A cell whose samples
 * with pages are all empty is drawn as empty; one without pages as not
 * initialised when the kernel had memory there to initialise, else as no
 * pages.
 */
static void
fill_cells(const struct chart_run *run, cairo_surface_t *cells, double t0,
    double t1, int r0, int count)
{
	const struct results *res = run->res;
	const struct results_times *tm = &res->samples;
	int cols = cairo_image_surface_get_width(cells);
	int nr = cairo_image_surface_get_height(cells), stride, s, r, c, col;
	int all = res->nregions, *row_of = xcalloc(count, sizeof *row_of);
	double *sum = xcalloc((size_t)cols * nr, sizeof *sum), dt;
	int *cnt = xcalloc((size_t)cols * nr, sizeof *cnt);
	int *nempty = xcalloc((size_t)cols * nr, sizeof *nempty);
	int *nuninit = xcalloc((size_t)cols * nr, sizeof *nuninit);
	int *nunproven = xcalloc((size_t)cols * nr, sizeof *nunproven);
	size_t at, cell;
	int *seen = xcalloc(cols, sizeof *seen);
	unsigned char *px;
	uint32_t *row, v;

	for (r = 0; r < count; r++)
		row_of[r] = (int)((long)r * nr / count);
	dt = (t1 - t0) / cols;
	for (s = 0; s < tm->n; s++) {
		col = (int)floor((tm->t[s] - t0) / dt);
		col = col < 0 ? 0 : col >= cols ? cols - 1 : col;
		seen[col] = 1;
		for (r = 0; r < count; r++) {
			at = (size_t)s * all + r0 + r;
			cell = (size_t)col * nr + row_of[r];
			if (run->m->state[at] == REGION_UNINIT)
				nuninit[cell]++;
			if (res->present[at] == 0)
				continue;
			sum[cell] += run->m->occupancy[at];
			cnt[cell]++;
			nempty[cell] += run->m->state[at] == REGION_EMPTY;
			nunproven[cell] += run->m->state[at] ==
			    REGION_UNPROVEN;
		}
	}
	cairo_surface_flush(cells);
	px = cairo_image_surface_get_data(cells);
	stride = cairo_image_surface_get_stride(cells);
	for (r = 0; r < nr; r++) {
		row = (uint32_t *)(px + (size_t)r * stride);
		v = HEAT_NO_DATA;
		for (c = 0; c < cols; c++) {
			cell = (size_t)c * nr + r;
			if (cnt[cell] > 0 && nempty[cell] == cnt[cell])
				v = HEAT_EMPTY;
			else if (cnt[cell] > 0 && nunproven[cell] > 0 &&
			    nunproven[cell] + nempty[cell] == cnt[cell])
				v = HEAT_UNPROVEN;
			else if (cnt[cell] > 0)
				v = chart_viridis_pixel(sum[cell] / cnt[cell]);
			else if (seen[c])
				v = nuninit[cell] > 0 ? HEAT_UNINIT :
				    HEAT_NO_DATA;
			row[c] = v;
		}
	}
	cairo_surface_mark_dirty(cells);
	free(row_of);
	free(sum);
	free(cnt);
	free(nempty);
	free(nuninit);
	free(nunproven);
	free(seen);
}

/* Does any region of any sample have this state (a swatch to explain)? */
static int
has_state(const struct chart_run *run, unsigned state)
{
	size_t i, n = (size_t)run->res->samples.n * run->res->nregions;

	for (i = 0; i < n; i++)
		if (run->m->state[i] == state)
			return (1);
	return (0);
}

/* Region labels left of the rows, thinned when rows are low. */
void
chart_heat_row_labels(cairo_t *cr, const struct results *res, double x,
    double y0, double rh)
{
	double y = y0, size = fmin(CHART_FONT_SIZE - 1, fmax(rh - 1, 9));
	int every = (int)ceil((size + 2) / rh), r, first = 0, nodes;
	char buf[64];

	nodes = chart_heat_node_groups(res);
	chart_font(cr, size, 0);
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	for (r = 0; r < res->nregions; r++) {
		if (r > 0 && res->regions[r].node != res->regions[r - 1].node) {
			y += CHART_HEAT_NODE_GAP;
			first = r;
		}
		if ((r - first) % every == 0) {
			chart_region_label(res, r, buf, sizeof buf);
			chart_text(cr, x, y + rh / 2, 1, 0.5, buf);
		}
		y += rh;
	}
	if (nodes < 2 && res->regions[0].node == 0)
		return;
	/* Node names, rotated, beside each group. */
	chart_font(cr, CHART_FONT_SIZE, 1);
	for (y = y0, first = 0, r = 1; r <= res->nregions; r++) {
		if (r < res->nregions &&
		    res->regions[r].node == res->regions[first].node)
			continue;
		snprintf(buf, sizeof buf, "node %d", res->regions[first].node);
		if ((r - first) * rh >= chart_text_width(cr, buf))
			chart_text_vertical(cr, 18, y + (r - first) * rh / 2,
			    buf);
		y += (r - first) * rh + CHART_HEAT_NODE_GAP;
		first = r;
	}
}

/* Widest region label at the label size. */
double
chart_heat_labels_width(cairo_t *cr, const struct results *res, double rh)
{
	double widest = 0, size = fmin(CHART_FONT_SIZE - 1, fmax(rh - 1, 9));
	char buf[64];
	int r;

	chart_font(cr, size, 0);
	for (r = 0; r < res->nregions; r++) {
		chart_region_label(res, r, buf, sizeof buf);
		widest = fmax(widest, chart_text_width(cr, buf));
	}
	return (widest);
}

/*
 * Lays the grid out below top (its left edge after the widest row label,
 * and the node brackets when there are any), paints each node's rows with
 * fill, one image per node so the gap between nodes stays white, and draws
 * the phase bands, the row labels and the time axis over it.  *a is left
 * describing the grid, for what the chart draws around it.
 */
void
chart_heat_grid(cairo_t *cr, const struct chart_run *run, double w,
    double top, double right, chart_heat_fill_fn *fill, struct chart_axes *a)
{
	const struct results *res = run->res;
	cairo_surface_t *cells;
	double rh = chart_heat_row_height(res), left, y;
	int first, r, rows;
	char label[48];

	left = 12 + chart_heat_labels_width(cr, res, rh) + 10;
	if (chart_heat_node_groups(res) > 1 || res->regions[0].node != 0)
		left += 24;
	a->x = round(left);
	a->y = round(top);
	a->w = round(w - a->x - right);
	a->h = chart_heat_plot_height(res);
	chart_time_range(res, &a->x0, &a->x1);
	a->y0 = 0;
	a->y1 = 1;

	for (y = a->y, first = 0, r = 1; r <= res->nregions; r++) {
		if (r < res->nregions &&
		    res->regions[r].node == res->regions[first].node)
			continue;
		rows = (int)fmin(r - first, fmax(1, round((r - first) * rh)));
		cells = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
		    (int)a->w, rows);
		fill(run, cells, a->x0, a->x1, first, r - first);
		chart_image_nearest(cr, cells, a->x, y, a->w,
		    (r - first) * rh);
		cairo_surface_destroy(cells);
		y += (r - first) * rh + CHART_HEAT_NODE_GAP;
		first = r;
	}

	chart_phase_bands(cr, res, a, 1, 1);
	chart_heat_row_labels(cr, res, a->x - 8, a->y, rh);
	chart_axis_x(cr, a, chart_time_scale(a->x1 - a->x0), NULL);
	snprintf(label, sizeof label, "time since start (%s)",
	    chart_time_scale(a->x1 - a->x0).unit);
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	chart_font(cr, CHART_FONT_SIZE, 0);
	chart_text(cr, a->x + a->w / 2, a->y + a->h + 26, 0.5, 0, label);
}

static void	draw_swatches(cairo_t *, const struct chart_run *,
		    const struct chart_axes *);

static void
heatmap_draw(cairo_t *cr, double w, double h, const void *data)
{
	const struct chart_run *run = data;
	struct chart_axes a;
	double top;

	chart_background(cr, w, h);
	top = chart_title(cr, w, "Region occupancy over time (used / present "
	    "pages per region)", run->where);
	chart_heat_grid(cr, run, w, top + HEAT_TOP, HEAT_RIGHT, fill_cells,
	    &a);
	draw_swatches(cr, run, &a);
}

/*
 * The colour bar, and under it a swatch for each state the run has
 * (empty, not initialised, no pages) saying what its colour means.
 */
static void
draw_swatches(cairo_t *cr, const struct chart_run *run,
    const struct chart_axes *a)
{
	double bar_h, y;
	size_t i, n = 0;

	for (i = 0; i < sizeof heat_states / sizeof heat_states[0]; i++)
		n += has_state(run, heat_states[i].state);
	bar_h = fmin(a->h - 30 * (double)n - (n > 0 ? 14 : 0), 320);
	if (bar_h < 40)
		bar_h = fmin(a->h, 40);
	chart_colorbar(cr, a->x + a->w + 16, a->y, 16, bar_h, "occupancy");
	y = a->y + bar_h + 14;
	chart_font(cr, CHART_FONT_SIZE - 1, 0);
	for (i = 0; i < sizeof heat_states / sizeof heat_states[0]; i++) {
		if (!has_state(run, heat_states[i].state))
			continue;
		cairo_set_source_rgb(cr, ((heat_states[i].rgb >> 16) & 0xff) /
		    255.0, ((heat_states[i].rgb >> 8) & 0xff) / 255.0,
		    (heat_states[i].rgb & 0xff) / 255.0);
		cairo_rectangle(cr, a->x + a->w + 16, y, 16, 12);
		cairo_fill_preserve(cr);
		cairo_set_source_rgb(cr, 0.5, 0.5, 0.5);
		cairo_set_line_width(cr, 0.5);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text(cr, a->x + a->w + 16, y + 14, 0, 0,
		    heat_states[i].label);
		y += 30;
	}
}

const struct chart_def chart_heatmap_def = {
	.name = "heatmap",
	.title = "Region occupancy over time",
	.input = CHART_RUN,
	.absent = heatmap_absent,
	.size = heatmap_size,
	.draw = heatmap_draw,
};
