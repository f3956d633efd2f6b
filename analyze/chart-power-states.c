/*
 * The power states over time: the heatmap's layout (time across, one row
 * per region grouped by node), each cell coloured by the state the region
 * could be in (docs/metrics.md, "Power states"): off (empty by
 * allocation), self-refresh (allocated, not referenced) or on
 * (referenced), from the per-sample states metrics.c joins from DAMON's
 * references.csv.  A pixel column covering several samples shows the
 * highest state among them, so a short burst of references is never
 * averaged away: one reference is what takes DRAM out of self-refresh.
 * Drawn only for runs that have references.csv.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "chart-run.h"
#include "log.h"

#define PS_W		1000.0
#define PS_TOP		34.0	/* phase and checkpoint labels */
#define PS_BOTTOM	48.0	/* ticks and the axis label */
#define PS_LEGEND_GAP	10.0

/* Colours: a cool blue for sleep, a warm orange for on (Okabe-Ito). */
#define PS_RGB_ON		0xe69f00u
#define PS_RGB_SELF_REFRESH	0x0072b2u
#define PS_RGB_OFF		CHART_RGB_EMPTY
#define PS_RGB_NO_READING	0xe4e4e4u
#define PS_RGB_NO_PAGES		CHART_RGB_NO_DATA
#define PS_RGB_UNINIT		CHART_RGB_UNINIT

/* What a cell can show, lowest first: a column shows its highest. */
enum ps_cell {
	PS_CELL_NONE,		/* no sample in the column */
	PS_CELL_NO_PAGES,
	PS_CELL_UNINIT,
	PS_CELL_NO_READING,	/* memory, but no DAMON interval joined */
	PS_CELL_OFF,
	PS_CELL_SELF_REFRESH,
	PS_CELL_ON,
	PS_NCELLS
};

/* The legend, in the order it reads (cells a run lacks are left out). */
static const struct {
	enum ps_cell	 cell;
	uint32_t	 rgb;
	const char	*label;
} ps_legend[] = {
	{ PS_CELL_ON, PS_RGB_ON, "on (referenced)" },
	{ PS_CELL_SELF_REFRESH, PS_RGB_SELF_REFRESH,
	  "self-refresh (allocated, not referenced)" },
	{ PS_CELL_OFF, PS_RGB_OFF, "off (empty)" },
	{ PS_CELL_NO_READING, PS_RGB_NO_READING, "no DAMON reading" },
	{ PS_CELL_UNINIT, PS_RGB_UNINIT, "not initialised" },
	{ PS_CELL_NO_PAGES, PS_RGB_NO_PAGES, "no pages" },
};
#define PS_NLEGEND ((int)(sizeof ps_legend / sizeof ps_legend[0]))

/* The cell of region value at (sample * nregions + region). */
static enum ps_cell
ps_cell_of(const struct metrics *m, size_t at)
{
	switch (m->power[at]) {
	case METRICS_POWER_OFF:
		return (PS_CELL_OFF);
	case METRICS_POWER_SELF_REFRESH:
		return (PS_CELL_SELF_REFRESH);
	case METRICS_POWER_ON:
		return (PS_CELL_ON);
	default:
		break;
	}
	switch (m->state[at]) {
	case REGION_HOLE:
		return (PS_CELL_NO_PAGES);
	case REGION_UNINIT:
		return (PS_CELL_UNINIT);
	default:
		return (PS_CELL_NO_READING);
	}
}

/* The pixel colour of a cell. */
static uint32_t
ps_rgb(enum ps_cell cell)
{
	int i;

	for (i = 0; i < PS_NLEGEND; i++) {
		if (ps_legend[i].cell == cell)
			return (ps_legend[i].rgb);
	}
	return (0xffffff);
}

/* Only runs with references.csv have power states. */
static const char *
ps_absent(const void *data)
{
	const struct chart_run *run = data;

	if (run->m->power == NULL)
		return ("the run has no references.csv (record with "
		    "--references, docs/damon.md)");
	return (NULL);
}

/* Which cells the run has, so the legend explains only those. */
static void
ps_cells_seen(const struct chart_run *run, int seen[PS_NCELLS])
{
	size_t i, n = (size_t)run->res->samples.n * run->res->nregions;

	memset(seen, 0, PS_NCELLS * sizeof *seen);
	for (i = 0; i < n; i++)
		seen[ps_cell_of(run->m, i)] = 1;
}

/* The legend's names and colours for the cells seen; returns how many. */
static int
ps_legend_items(const struct chart_run *run, const char **names,
    struct chart_rgb *colours)
{
	int seen[PS_NCELLS], i, n = 0;

	ps_cells_seen(run, seen);
	for (i = 0; i < PS_NLEGEND; i++) {
		if (!seen[ps_legend[i].cell])
			continue;
		names[n] = ps_legend[i].label;
		colours[n++] = chart_rgb_of(ps_legend[i].rgb);
	}
	return (n);
}

/* Width of the plot: what is left right of the labels, less a margin. */
#define PS_RIGHT	30.0

static void
ps_size(const void *data, double *w, double *h)
{
	const struct chart_run *run = data;
	const char *names[PS_NLEGEND];
	struct chart_rgb colours[PS_NLEGEND];
	int n = ps_legend_items(run, names, colours);

	*w = PS_W;
	*h = 62 + PS_TOP + chart_heat_plot_height(run->res) + PS_BOTTOM +
	    PS_LEGEND_GAP + chart_legend_height(names, n, PS_W - 120) + 12;
}

/*
 * Fill cells (cols x rows, RGB24) for the count regions from r0: each
 * cell the highest state of the samples in its column (and, with fewer
 * rows than regions, of the regions in its row); a column no sample
 * falls into repeats the one before it.
 */
static void
ps_fill(const struct chart_run *run, cairo_surface_t *cells, double t0,
    double t1, int r0, int count)
{
	const struct results *res = run->res;
	const struct results_times *tm = &res->samples;
	int cols = cairo_image_surface_get_width(cells);
	int nr = cairo_image_surface_get_height(cells), stride, s, r, c, col;
	unsigned char *best = xcalloc((size_t)cols * nr, 1), *px;
	int *row_of = xcalloc(count, sizeof *row_of);
	enum ps_cell cell;
	uint32_t *row, v;
	size_t at, i;
	double dt;

	for (r = 0; r < count; r++)
		row_of[r] = (int)((long)r * nr / count);
	dt = (t1 - t0) / cols;
	for (s = 0; s < tm->n; s++) {
		col = (int)floor((tm->t[s] - t0) / dt);
		col = col < 0 ? 0 : col >= cols ? cols - 1 : col;
		for (r = 0; r < count; r++) {
			at = (size_t)s * res->nregions + r0 + r;
			cell = ps_cell_of(run->m, at);
			i = (size_t)col * nr + row_of[r];
			if (cell > best[i])
				best[i] = cell;
		}
	}
	cairo_surface_flush(cells);
	px = cairo_image_surface_get_data(cells);
	stride = cairo_image_surface_get_stride(cells);
	for (r = 0; r < nr; r++) {
		row = (uint32_t *)(px + (size_t)r * stride);
		v = PS_RGB_NO_PAGES;
		for (c = 0; c < cols; c++) {
			i = (size_t)c * nr + r;
			if (best[i] != PS_CELL_NONE)
				v = ps_rgb(best[i]);
			row[c] = v;
		}
	}
	cairo_surface_mark_dirty(cells);
	free(best);
	free(row_of);
}

static void
ps_draw(cairo_t *cr, double w, double h, const void *data)
{
	const struct chart_run *run = data;
	const char *names[PS_NLEGEND];
	struct chart_rgb colours[PS_NLEGEND];
	struct chart_axes a;
	double top;
	int n;

	chart_background(cr, w, h);
	top = chart_title(cr, w, "Power states over time (allocation and "
	    "DAMON's references per region)", run->where);
	chart_heat_grid(cr, run, w, top + PS_TOP, PS_RIGHT, ps_fill, &a);

	n = ps_legend_items(run, names, colours);
	chart_legend(cr, a.x, a.y + a.h + PS_BOTTOM + PS_LEGEND_GAP,
	    PS_W - 120, names, colours, n);
}

const struct chart_def chart_power_states_def = {
	.name = CHART_POWER_STATES,
	.title = "Power states over time (DAMON)",
	.input = CHART_RUN,
	.absent = ps_absent,
	.opt_in = 1,
	.apart = 1,
	.size = ps_size,
	.draw = ps_draw,
};
