/*
 * Chart driver: loads a run through results.h and metrics.h, decides which
 * charts have data, and renders each to PNG and SVG files (written to a
 * temporary name and renamed, so a reader never sees half a chart) or to
 * SVG in memory for the report.  Also the phase and checkpoint marks the
 * time charts share.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>

#include "atomic-file.h"
#include "chart.h"
#include "chart-run.h"
#include "log.h"

/* The charts of one run, in the order files and the report show them. */
static const struct chart_def *const run_charts[] = {
	&chart_heatmap_def,
	&chart_spread_def,
	&chart_placement_def,
	&chart_seed_def,
	&chart_frag_def,
};
#define NRUN_CHARTS ((int)(sizeof run_charts / sizeof run_charts[0]))

/* Load DIR and compute its metrics. */
int
chart_run_load(const char *dir, struct chart_run *run, char **cause)
{
	char *what;
	int rc;

	memset(run, 0, sizeof *run);
	if ((rc = results_load(dir, &run->res, cause)) != 0)
		return (rc);
	if ((rc = metrics_compute(run->res, NULL, &run->m, cause)) != 0) {
		results_free(run->res);
		run->res = NULL;
		return (rc);
	}
	if (run->res->suite != NULL)
		what = xasprintf("suite %s", run->res->suite);
	else
		what = xstrdup(run->res->command != NULL ?
		    run->res->command : "run");
	run->where = xasprintf("%s%s%s%s | kernel %s | host %s%s%s", what,
	    run->res->label[0] != '\0' ? " | label \"" : "", run->res->label,
	    run->res->label[0] != '\0' ? "\"" : "", run->res->kernel_release,
	    run->res->host, run->res->source != NULL ? " | source " : "",
	    run->res->source != NULL ? run->res->source : "");
	free(what);
	return (0);
}

/* Free a loaded run. */
void
chart_run_free(struct chart_run *run)
{
	metrics_free(run->m);
	results_free(run->res);
	free(run->where);
	memset(run, 0, sizeof *run);
}

/*
 * The phases in the order they ran, each from its first to its last
 * sample, widened to its phase_start/phase_end events when those exist.
 */
int
chart_spans(const struct results *res, struct chart_span **out)
{
	const struct results_times *tm = &res->samples;
	struct chart_span *spans = NULL;
	int n = 0, i;

	for (i = 0; i < tm->n; i++) {
		if (n > 0 && spans[n - 1].phase == tm->phase[i]) {
			spans[n - 1].t1 = tm->t[i];
			continue;
		}
		spans = xreallocarray(spans, n + 1, sizeof *spans);
		spans[n].phase = tm->phase[i];
		spans[n].t0 = spans[n].t1 = tm->t[i];
		n++;
	}
	for (i = 0; i < res->nevents; i++) {
		const struct results_event *e = &res->events[i];
		int s;

		for (s = 0; s < n; s++) {
			if (spans[s].phase != e->phase)
				continue;
			if (strcmp(e->event, "phase_start") == 0 &&
			    e->t < spans[s].t0)
				spans[s].t0 = e->t;
			if (strcmp(e->event, "phase_end") == 0 &&
			    e->t > spans[s].t1)
				spans[s].t1 = e->t;
		}
	}
	*out = spans;
	return (n);
}

/* The checkpoint events, in time order. */
int
chart_checkpoints(const struct results *res, struct chart_mark **out)
{
	struct chart_mark *marks = NULL;
	int n = 0, i;

	for (i = 0; i < res->nevents; i++) {
		if (strcmp(res->events[i].event, "checkpoint") != 0)
			continue;
		marks = xreallocarray(marks, n + 1, sizeof *marks);
		marks[n].t = res->events[i].t;
		marks[n].phase = res->events[i].phase;
		marks[n].label = res->events[i].detail;
		n++;
	}
	*out = marks;
	return (n);
}

/*
 * The time axis of a run: first to last sample, plus one typical interval
 * so that the last sample gets a width of its own.
 */
void
chart_time_range(const struct results *res, double *t0, double *t1)
{
	const struct results_times *tm = &res->samples;

	*t0 = tm->n > 0 ? tm->t[0] : 0;
	*t1 = tm->n > 0 ? tm->t[tm->n - 1] : 1;
	if (tm->n > 1)
		*t1 += (*t1 - *t0) / (tm->n - 1);
	if (!(*t1 > *t0))
		*t1 = *t0 + 1;
}

/* A vertical marker over every panel, as seen on white or on an image. */
static void
mark_line(cairo_t *cr, const struct chart_axes *panels, int npanels,
    double t, int dashed, int on_image)
{
	double dash[] = { 4, 3 }, x = round(chart_px(&panels[0], t)) + 0.5;
	int p;

	if (x < panels[0].x || x > panels[0].x + panels[0].w)
		return;
	cairo_save(cr);
	if (dashed)
		cairo_set_dash(cr, dash, 2, 0);
	for (p = 0; p < npanels; p++) {
		if (on_image) {
			cairo_set_source_rgba(cr, 0, 0, 0, 0.55);
			cairo_set_line_width(cr, 3);
			cairo_move_to(cr, x, panels[p].y);
			cairo_line_to(cr, x, panels[p].y + panels[p].h);
			cairo_stroke(cr);
			cairo_set_source_rgb(cr, 1, 1, 1);
		} else
			cairo_set_source_rgba(cr, 0.2, 0.2, 0.2,
			    dashed ? 0.6 : 0.8);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, x, panels[p].y);
		cairo_line_to(cr, x, panels[p].y + panels[p].h);
		cairo_stroke(cr);
	}
	cairo_restore(cr);
}

/* Draw a label centred at x unless it would overlap the previous one. */
static void
row_label(cairo_t *cr, const struct chart_axes *a, double x, double y,
    const char *s, double *right)
{
	char *fit = chart_fit_text(cr, s, 160);
	double w = chart_text_width(cr, fit), l = x - w / 2;

	if (l < a->x)
		l = a->x;
	if (l + w > a->x + a->w + 40)
		l = a->x + a->w + 40 - w;
	if (l >= *right + 6) {
		chart_text(cr, l, y, 0, 0, fit);
		*right = l + w;
	}
	free(fit);
}

/*
 * Phase spans (alternate shading on white; boundary lines on an image)
 * and checkpoints (dashed lines) over stacked time panels sharing one x
 * range, with phase names and checkpoint labels in two rows above the
 * first panel (the chart leaves 34 units there).
 */
void
chart_phase_bands(cairo_t *cr, const struct results *res,
    const struct chart_axes *panels, int npanels, int on_image)
{
	struct chart_span *spans;
	struct chart_mark *marks;
	const struct chart_axes *a = &panels[0];
	double right = -1e9, l, r;
	int nspans, nmarks, i, p;

	nspans = chart_spans(res, &spans);
	nmarks = chart_checkpoints(res, &marks);
	for (i = 0; i < nspans && !on_image; i += 2) {
		if (nspans < 2)
			break;
		l = fmax(chart_px(a, spans[i].t0), a->x);
		r = i + 1 < nspans ? chart_px(a, spans[i + 1].t0) :
		    a->x + a->w;
		r = fmin(r, a->x + a->w);
		for (p = 0; p < npanels; p++) {
			cairo_set_source_rgba(cr, 0.2, 0.3, 0.6, 0.07);
			cairo_rectangle(cr, l, panels[p].y, r - l, panels[p].h);
			cairo_fill(cr);
		}
	}
	for (i = 1; i < nspans; i++)
		mark_line(cr, panels, npanels, spans[i].t0, 0, on_image);
	for (i = 0; i < nmarks; i++)
		mark_line(cr, panels, npanels, marks[i].t, 1, on_image);

	chart_font(cr, CHART_FONT_SIZE, 1);
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	for (i = 0; i < nspans; i++) {
		if (spans[i].phase < 0 || spans[i].phase >= res->nphases)
			continue;
		l = fmax(chart_px(a, spans[i].t0), a->x);
		r = i + 1 < nspans ? chart_px(a, spans[i + 1].t0) :
		    a->x + a->w;
		row_label(cr, a, nspans > 1 ? (l + r) / 2 : a->x + a->w / 2,
		    a->y - 32, res->phases[spans[i].phase], &right);
	}
	chart_font(cr, CHART_FONT_SIZE - 1, 0);
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	right = -1e9;
	for (i = 0; i < nmarks; i++) {
		if (marks[i].label != NULL && marks[i].label[0] != '\0')
			row_label(cr, a, chart_px(a, marks[i].t), a->y - 16,
			    marks[i].label, &right);
	}
	free(spans);
	free(marks);
}

/*
 * The points of time base tm a bar chart shows: the checkpoints (like the
 * seed table), or the last point of each phase when there are none.
 */
int
chart_moments(const struct results *res, const struct results_times *tm,
    struct chart_moment **out)
{
	struct chart_moment *mo = NULL;
	struct chart_mark *marks;
	int nmarks, n = 0, i, idx;

	nmarks = chart_checkpoints(res, &marks);
	for (i = 0; i < nmarks; i++) {
		if ((idx = metrics_point_at(tm, marks[i].phase,
		    marks[i].t)) < 0)
			continue;
		mo = xreallocarray(mo, n + 1, sizeof *mo);
		mo[n].index = idx;
		mo[n].label = xstrdup(marks[i].label != NULL &&
		    marks[i].label[0] != '\0' ? marks[i].label : "checkpoint");
		n++;
	}
	free(marks);
	for (i = 0; nmarks == 0 && i < tm->n; i++) {
		if (i + 1 < tm->n && tm->phase[i + 1] == tm->phase[i])
			continue;
		mo = xreallocarray(mo, n + 1, sizeof *mo);
		mo[n].index = i;
		mo[n].label = tm->phase[i] >= 0 && tm->phase[i] < res->nphases ?
		    xasprintf("end of %s", res->phases[tm->phase[i]]) :
		    xstrdup("end");
		n++;
	}
	*out = mo;
	return (n);
}

/* Height of the legend naming the moments of tm, max_w wide. */
double
chart_moments_legend_height(const struct results *res,
    const struct results_times *tm, double max_w)
{
	struct chart_moment *mo;
	const char **names;
	int n = chart_moments(res, tm, &mo), i;
	double h;

	names = xcalloc(n > 0 ? n : 1, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = mo[i].label;
	h = chart_legend_height(names, n, max_w);
	free(names);
	chart_moments_free(mo, n);
	return (h);
}

/* Free moments. */
void
chart_moments_free(struct chart_moment *moments, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(moments[i].label);
	free(moments);
}

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
 * 1, ...: v[set * ncats + cat], coloured by set; NAN draws nothing.
 */
void
chart_bars_grouped(cairo_t *cr, const struct chart_axes *a, const double *v,
    int nsets, int ncats)
{
	double bw = 0.8 / (nsets > 0 ? nsets : 1), x;
	int s, c;

	for (c = 0; c < ncats; c++) {
		for (s = 0; s < nsets; s++) {
			if (!isfinite(v[(size_t)s * ncats + c]))
				continue;
			x = c - 0.4 + s * bw;
			chart_bar(cr, a, x, x + bw * 0.92, 0,
			    v[(size_t)s * ncats + c], chart_palette(s));
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

/* Turn a finished drawing's status into a cause. */
static int
cairo_fail(cairo_status_t st, const char *what, char **cause)
{
	return (fail_with(cause, RB_EXIT_ENV, "%s: %s", what,
	    cairo_status_to_string(st)));
}

/* cairo write callback appending to a file being replaced. */
static cairo_status_t
file_write(void *closure, const unsigned char *data, unsigned int len)
{
	return (fwrite(data, 1, len, closure) == len ?
	    CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR);
}

/* Render def into a PNG or SVG file at path, replaced atomically. */
int
chart_render_file(const struct chart_def *def, const void *data,
    unsigned format, const char *path, char **cause)
{
	struct atomic_file af;
	cairo_surface_t *surface;
	cairo_status_t st;
	cairo_t *cr;
	FILE *f;
	double w, h;
	int rc;

	def->size(data, &w, &h);
	if ((rc = atomic_file_open(&af, path, cause)) != 0)
		return (rc);
	f = atomic_file_stdio(&af);
	if (format == CHART_SVG) {
		surface = cairo_svg_surface_create_for_stream(file_write, f,
		    w, h);
#if CAIRO_VERSION >= CAIRO_VERSION_ENCODE(1, 16, 0)
		cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
#endif
	} else
		surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
		    (int)ceil(w), (int)ceil(h));
	cr = cairo_create(surface);
	def->draw(cr, w, h, data);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && format == CHART_PNG)
		st = cairo_surface_write_to_png_stream(surface, file_write, f);
	cairo_surface_finish(surface);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surface);
	cairo_surface_destroy(surface);
	if (st != CAIRO_STATUS_SUCCESS) {
		atomic_file_abort(&af);
		return (cairo_fail(st, path, cause));
	}
	return (atomic_file_commit(&af, cause));
}

/* A growing buffer cairo writes an SVG stream into. */
struct svg_buf {
	char		*data;
	size_t		 len;
	size_t		 alloc;
};

/* cairo write callback appending to an svg_buf. */
static cairo_status_t
svg_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct svg_buf *b = closure;

	if (b->len + len + 1 > b->alloc) {
		b->alloc = (b->len + len + 1) * 2;
		b->data = xreallocarray(b->data, b->alloc, 1);
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
	return (CAIRO_STATUS_SUCCESS);
}

/* Render def as an SVG document in memory. */
int
chart_render_svg(const struct chart_def *def, const void *data, char **buf,
    size_t *len, char **cause)
{
	struct svg_buf b = { NULL, 0, 0 };
	cairo_surface_t *surface;
	cairo_status_t st;
	cairo_t *cr;
	double w, h;

	def->size(data, &w, &h);
	surface = cairo_svg_surface_create_for_stream(svg_write, &b, w, h);
#if CAIRO_VERSION >= CAIRO_VERSION_ENCODE(1, 16, 0)
	cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
#endif
	cr = cairo_create(surface);
	def->draw(cr, w, h, data);
	st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_finish(surface);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surface);
	cairo_surface_destroy(surface);
	if (st != CAIRO_STATUS_SUCCESS) {
		free(b.data);
		return (cairo_fail(st, def->name, cause));
	}
	*buf = b.data;
	*len = b.len;
	return (0);
}

/* Parse "png,svg" into CHART_* bits. */
int
chart_parse_formats(const char *list, unsigned *formats, char **cause)
{
	char *copy = xstrdup(list), *word, *save = NULL;
	int rc = 0;

	*formats = 0;
	for (word = strtok_r(copy, ", ", &save); word != NULL;
	    word = strtok_r(NULL, ", ", &save)) {
		if (strcmp(word, "png") == 0)
			*formats |= CHART_PNG;
		else if (strcmp(word, "svg") == 0)
			*formats |= CHART_SVG;
		else {
			rc = fail_with(cause, RB_EXIT_INPUT, "--format: '%s' "
			    "is not png or svg", word);
			break;
		}
	}
	if (rc == 0 && *formats == 0)
		rc = fail_with(cause, RB_EXIT_INPUT, "--format: expected "
		    "png, svg or png,svg");
	free(copy);
	return (rc);
}

/* Create outdir (one level) unless it exists. */
int
chart_make_outdir(const char *outdir, char **cause)
{
	struct stat st;

	if (mkdir(outdir, 0777) == 0 || (errno == EEXIST &&
	    stat(outdir, &st) == 0 && S_ISDIR(st.st_mode)))
		return (0);
	return (fail_with(cause, RB_EXIT_ENV, "%s: cannot create the "
	    "output directory: %s", outdir, errno == EEXIST ?
	    "not a directory" : strerror(errno)));
}

/* Write one chart in every requested format, listing the files. */
static int
write_formats(const struct chart_def *def, const void *data,
    const char *outdir, unsigned formats, FILE *list, char **cause)
{
	static const unsigned fmt[] = { CHART_PNG, CHART_SVG };
	static const char *const ext[] = { "png", "svg" };
	char *path;
	int i, rc;

	for (i = 0; i < 2; i++) {
		if (!(formats & fmt[i]))
			continue;
		path = xasprintf("%s/%s.%s", outdir, def->name, ext[i]);
		rc = chart_render_file(def, data, fmt[i], path, cause);
		if (rc == 0 && list != NULL)
			fprintf(list, "%s\n", path);
		free(path);
		if (rc != 0)
			return (rc);
	}
	return (0);
}

/*
 * Every chart of the run in dir, into outdir (dir/charts when NULL); a
 * chart without data is skipped with a note on stderr.
 */
int
chart_all(const char *dir, const char *outdir, unsigned formats, FILE *list,
    char **cause)
{
	struct chart_run run;
	const char *why;
	char *out;
	int i, rc;

	if ((rc = chart_run_load(dir, &run, cause)) != 0)
		return (rc);
	out = outdir != NULL ? xstrdup(outdir) : xasprintf("%s/charts", dir);
	if ((rc = chart_make_outdir(out, cause)) != 0)
		goto done;
	for (i = 0; i < NRUN_CHARTS; i++) {
		if ((why = run_charts[i]->absent(&run)) != NULL) {
			log_warnx("%s: no %s chart: %s", dir,
			    run_charts[i]->name, why);
			continue;
		}
		if ((rc = write_formats(run_charts[i], &run, out, formats,
		    list, cause)) != 0)
			break;
	}
done:
	free(out);
	chart_run_free(&run);
	return (rc);
}

/* Every chart of the run in dir as SVG documents in memory. */
int
chart_svg_all(const char *dir, struct chart_svg **out, int *n, char **cause)
{
	struct chart_svg *charts = NULL;
	struct chart_run run;
	const char *why;
	int i, rc, count = 0;

	if ((rc = chart_run_load(dir, &run, cause)) != 0)
		return (rc);
	for (i = 0; i < NRUN_CHARTS; i++) {
		if ((why = run_charts[i]->absent(&run)) != NULL)
			continue;
		charts = xreallocarray(charts, count + 1, sizeof *charts);
		memset(&charts[count], 0, sizeof *charts);
		if ((rc = chart_render_svg(run_charts[i], &run,
		    &charts[count].data, &charts[count].len, cause)) != 0)
			break;
		charts[count].name = xstrdup(run_charts[i]->name);
		charts[count].title = xstrdup(run_charts[i]->title);
		count++;
	}
	chart_run_free(&run);
	if (rc != 0) {
		chart_svg_free(charts, count);
		return (rc);
	}
	*out = charts;
	*n = count;
	return (0);
}

/* Free charts from chart_svg_all. */
void
chart_svg_free(struct chart_svg *charts, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(charts[i].name);
		free(charts[i].title);
		free(charts[i].data);
	}
	free(charts);
}

/*
 * Release cairo's and fontconfig's caches at exit, so that valgrind sees
 * no leak; nothing may draw afterwards.
 */
void
chart_cleanup(void)
{
	cairo_debug_reset_static_data();
	FcFini();
}
