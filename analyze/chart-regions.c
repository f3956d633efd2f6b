/*
 * Regions on the charts: regions as categories along x with their names
 * and node boundaries, grouped bars, the panel layout the bar charts
 * (placement, seed, fragmentation) share, and the marks of regions without
 * pages that the seed and fragmentation charts draw.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart-run.h"
#include "log.h"

/*
 * Region names under a categorical axis (x from -0.5 to nregions - 0.5),
 * as many as fit without overlapping, and lines between nodes.
 */
void
chart_region_axis(cairo_t *cr, const struct results *res,
    const struct chart_axes *a, int labels)
{
	double slot = a->w / res->nregions, x, right = -1e9;
	int r, nodes = res->regions[res->nregions - 1].node !=
	    res->regions[0].node || res->regions[0].node != 0;
	char buf[40];

	chart_font(cr, CHART_FONT_SIZE - 1, 0);
	for (r = 0; r < res->nregions; r++) {
		x = chart_px(a, r);
		if (r > 0 && res->regions[r].node != res->regions[r - 1].node) {
			cairo_set_source_rgba(cr, 0, 0, 0, 0.35);
			cairo_move_to(cr, round(x - slot / 2) + 0.5, a->y);
			cairo_line_to(cr, round(x - slot / 2) + 0.5,
			    a->y + a->h);
			cairo_stroke(cr);
		}
		if (!labels)
			continue;
		if (nodes)
			snprintf(buf, sizeof buf, "%d:%d", res->regions[r].node,
			    res->regions[r].region);
		else
			snprintf(buf, sizeof buf, "%d", res->regions[r].region);
		if (x - chart_text_width(cr, buf) / 2 < right + 10)
			continue;
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text(cr, x, a->y + a->h + 5, 0.5, 0, buf);
		right = x + chart_text_width(cr, buf) / 2;
	}
	if (labels) {
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_font(cr, CHART_FONT_SIZE, 0);
		chart_text(cr, a->x + a->w / 2, a->y + a->h + 22, 0.5, 0,
		    nodes ? "region (node:region)" : "region");
	}
}

/*
 * Bars of nsets series side by side in each of ncats categories at x = 0,
 * 1, ...: v[set * ncats + cat], coloured by set (palette colour colour[set]
 * when colour is not NULL, for a chart showing some of its legend's
 * series); NAN draws nothing.
 */
void
chart_bars_grouped(cairo_t *cr, const struct chart_axes *a, const double *v,
    int nsets, int ncats, const int *colour)
{
	double bw = 0.8 / (nsets > 0 ? nsets : 1), x;
	int s, c;

	for (c = 0; c < ncats; c++) {
		for (s = 0; s < nsets; s++) {
			if (!isfinite(v[(size_t)s * ncats + c]))
				continue;
			x = c - 0.4 + s * bw;
			chart_bar(cr, a, x, x + bw * 0.92, 0,
			    v[(size_t)s * ncats + c], chart_palette(colour !=
			    NULL ? colour[s] : s));
		}
	}
}

/* An address in the unit that reads best for it: "0", "4 KiB", "1.5 GiB". */
static void
format_address(char *buf, size_t len, double bytes, struct chart_scale *s)
{
	*s = chart_bytes_scale(bytes);
	if (bytes == 0)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%.4g", bytes / s->div);
}

/* "r3 1-1.5 GiB", "r0 4 KiB-16 MiB": region number and physical range. */
void
chart_region_label(const struct results *res, int r, char *buf, size_t len)
{
	const struct results_region *rg = &res->regions[r];
	struct chart_scale slo, shi;
	char lo[32], hi[32];

	if (rg->start_pfn == RESULTS_UNKNOWN) {
		snprintf(buf, len, "n%d r%d", rg->node, rg->region);
		return;
	}
	format_address(lo, sizeof lo, (double)rg->start_pfn * res->page_size,
	    &slo);
	format_address(hi, sizeof hi, (double)rg->end_pfn * res->page_size,
	    &shi);
	if (rg->start_pfn == 0 || strcmp(slo.unit, shi.unit) == 0)
		snprintf(buf, len, "r%d %s-%s %s", rg->region, lo, hi,
		    shi.unit);
	else
		snprintf(buf, len, "r%d %s %s-%s %s", rg->region, lo, slo.unit,
		    hi, shi.unit);
}

/* The size of the largest region (present pages), in bytes. */
double
chart_region_max_bytes(const struct results *res)
{
	double max = 0;
	int r;

	for (r = 0; r < res->nregions; r++)
		max = fmax(max, (double)res->regions[r].present_pages *
		    res->page_size);
	return (max);
}

/* Height of a bar chart: title, legend, npanels panels of panel_h. */
double
chart_bars_height(double legend_h, int npanels, double panel_h, double gap)
{
	return (62 + legend_h + 10 + npanels * (panel_h + gap) + 10);
}

/*
 * The axes of one panel of a bar chart w wide: regions along x (one slot
 * each, as chart_region_axis labels them), 0 to y1 up, its top at y.
 */
void
chart_region_panel(const struct results *res, double w, double y, double h,
    double y1, struct chart_axes *a)
{
	a->x = CHART_BARS_LEFT;
	a->w = w - a->x - CHART_BARS_RIGHT;
	a->y = round(y);
	a->h = h;
	a->x0 = -0.5;
	a->x1 = res->nregions - 0.5;
	a->y0 = 0;
	a->y1 = y1;
}

/* A panel's heading, above its top-left corner. */
void
chart_panel_title(cairo_t *cr, const struct chart_axes *a, const char *text)
{
	chart_font(cr, CHART_FONT_SIZE, 1);
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	chart_text(cr, a->x, a->y - 16, 0, 0, text);
}

/* Region names under a panel of regions, and its frame. */
void
chart_region_panel_end(cairo_t *cr, const struct results *res,
    const struct chart_axes *a)
{
	chart_region_axis(cr, res, a, 1);
	chart_frame(cr, a);
}

/*
 * The top of an axis of shares (0 to 1) whose largest value is max: max
 * rounded up to a tenth, so that the tallest bar fills most of its panel
 * and the ticks stay round; a tenth at the least, 1 at the most.
 */
double
chart_share_top(double max)
{
	double top = ceil(max * 10 - 1e-9) / 10;

	if (!(top >= 0.1))
		return (0.1);
	return (top < 1 ? top : 1);
}

/* Height of a no-pages mark, in pixels. */
#define NOPAGES_MARK_PX	8.0

/* Start marking the regions without pages of one panel. */
void
chart_nopages_begin(struct chart_nopages *m, const struct chart_axes *a)
{
	memset(m, 0, sizeof *m);
	m->a = a;
	m->span = -1;
}

/*
 * The word over the open span, when it fits: a word per mark would
 * overlap its neighbours once the bars are narrower than the word, so a
 * span of marks (say, every region beyond the memory initialised so far)
 * gets one word, and a span too narrow for it none (the note names the
 * colours).
 */
static void
nopages_word(cairo_t *cr, struct chart_nopages *m)
{
	const char *word = m->span == REGION_HOLE ? "hole" : "uninit";
	double px0 = chart_px(m->a, m->x0), px1 = chart_px(m->a, m->x1);

	m->span = -1;
	chart_font(cr, CHART_FONT_SIZE - 2, 0);
	if (chart_text_width(cr, word) > px1 - px0)
		return;
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	chart_text(cr, (px0 + px1) / 2, m->a->y + m->a->h - NOPAGES_MARK_PX -
	    3, 0.5, 1, word);
}

/*
 * The next slot from the left, x0 to x1 in axis units, of a region in
 * this state: a short bar in the state's colour when the region had no
 * pages, nothing otherwise.
 */
void
chart_nopages_slot(cairo_t *cr, struct chart_nopages *m, double x0,
    double x1, int state)
{
	const struct chart_axes *a = m->a;

	if (m->span != -1 && state != m->span)
		nopages_word(cr, m);
	if (state != REGION_HOLE && state != REGION_UNINIT)
		return;
	chart_bar(cr, a, x0, x1, a->y0, a->y0 + NOPAGES_MARK_PX / a->h *
	    (a->y1 - a->y0), chart_rgb_of(state == REGION_HOLE ?
	    CHART_RGB_NO_DATA : CHART_RGB_UNINIT));
	if (m->span == -1) {
		m->span = state;
		m->x0 = x0;
	}
	m->x1 = x1;
	m->hole |= state == REGION_HOLE;
	m->uninit |= state == REGION_UNINIT;
}

/* The word over the last span. */
void
chart_nopages_end(cairo_t *cr, struct chart_nopages *m)
{
	if (m->span != -1)
		nopages_word(cr, m);
}

/* Under a panel's region names: what the marks' colours mean, if any. */
void
chart_nopages_note(cairo_t *cr, const struct chart_axes *a, int hole,
    int uninit)
{
	char note[128];

	if (!hole && !uninit)
		return;
	snprintf(note, sizeof note, "no free figure: %s%s%s",
	    hole ? "grey = no pages (hole)" : "", hole && uninit ? ", " : "",
	    uninit ? "tan = memory not initialised yet" : "");
	chart_font(cr, CHART_FONT_SIZE - 1, 0);
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	chart_text(cr, a->x + a->w, a->y + a->h + 46, 1, 0, note);
}
