/*
 * Chart driver: the table of charts, loading a run through results.h and
 * metrics.h, deciding which charts have data, and rendering each to PNG
 * and SVG files (written to a temporary name and renamed, so a reader
 * never sees half a chart) or to SVG in memory for the report.  The time
 * marks the charts share are in chart-marks.c, the region axes and bars
 * in chart-regions.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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

#define CHART_ELEM(name) &chart_##name##_def,
const struct chart_def *const chart_table[] = {
	CHART_LIST(CHART_ELEM)
	NULL
};
#undef CHART_ELEM

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

/*
 * Draw def on a w x h surface; the status of the drawing, then of the
 * surface once finished (after write, when there is one, wrote it out).
 */
static cairo_status_t
paint(const struct chart_def *def, const void *data, double w, double h,
    cairo_surface_t *surface, cairo_status_t (*write)(cairo_surface_t *,
    void *), void *closure)
{
	cairo_status_t st;
	cairo_t *cr;

	cr = cairo_create(surface);
	def->draw(cr, w, h, data);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && write != NULL)
		st = write(surface, closure);
	cairo_surface_finish(surface);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surface);
	cairo_surface_destroy(surface);
	return (st);
}

/* Write an image surface as PNG to the stdio stream closure. */
static cairo_status_t
png_write(cairo_surface_t *surface, void *closure)
{
	return (cairo_surface_write_to_png_stream(surface, file_write,
	    closure));
}

/* An SVG surface w x h writing to fn, measured in pixels. */
static cairo_surface_t *
svg_surface(cairo_write_func_t fn, void *closure, double w, double h)
{
	cairo_surface_t *surface;

	surface = cairo_svg_surface_create_for_stream(fn, closure, w, h);
#if CAIRO_VERSION >= CAIRO_VERSION_ENCODE(1, 16, 0)
	cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
#endif
	return (surface);
}

/* Render def into the file af is replacing, and put it in place. */
static int
render_af(const struct chart_def *def, const void *data, unsigned format,
    struct atomic_file *af, const char *path, char **cause)
{
	cairo_status_t st;
	FILE *f;
	double w, h;

	def->size(data, &w, &h);
	f = atomic_file_stdio(af);
	if (format == CHART_SVG)
		st = paint(def, data, w, h, svg_surface(file_write, f, w, h),
		    NULL, NULL);
	else
		st = paint(def, data, w, h, cairo_image_surface_create(
		    CAIRO_FORMAT_ARGB32, (int)ceil(w), (int)ceil(h)),
		    png_write, f);
	if (st != CAIRO_STATUS_SUCCESS) {
		atomic_file_abort(af);
		return (cairo_fail(st, path, cause));
	}
	return (atomic_file_commit(af, cause));
}

/* Render def into a PNG or SVG file at path, replaced atomically. */
int
chart_render_file(const struct chart_def *def, const void *data,
    unsigned format, const char *path, char **cause)
{
	struct atomic_file af;
	int rc;

	if ((rc = atomic_file_open(&af, path, cause)) != 0)
		return (rc);
	return (render_af(def, data, format, &af, path, cause));
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
	cairo_status_t st;
	double w, h;

	def->size(data, &w, &h);
	st = paint(def, data, w, h, svg_surface(svg_write, &b, w, h), NULL,
	    NULL);
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
	int rc;

	if ((rc = make_parent_dirs(outdir, cause)) != 0)
		return (rc);
	if (mkdir(outdir, 0777) == 0 || (errno == EEXIST &&
	    stat(outdir, &st) == 0 && S_ISDIR(st.st_mode)))
		return (0);
	return (fail_with(cause, RB_EXIT_ENV, "%s: cannot create the "
	    "output directory: %s", outdir, errno == EEXIST ?
	    "not a directory" : strerror(errno)));
}

/*
 * Write one chart in every requested format, listing the files; into the
 * directory held open as dirfd when it is not -1.
 */
static int
write_formats(const struct chart_def *def, const void *data,
    const char *outdir, int dirfd, unsigned formats, FILE *list,
    char **cause)
{
	static const unsigned fmt[] = { CHART_PNG, CHART_SVG };
	static const char *const ext[] = { "png", "svg" };
	struct atomic_file af;
	char *path, *name;
	int i, rc;

	for (i = 0; i < 2; i++) {
		if (!(formats & fmt[i]))
			continue;
		path = xasprintf("%s/%s.%s", outdir, def->name, ext[i]);
		if (dirfd == -1)
			rc = chart_render_file(def, data, fmt[i], path, cause);
		else {
			name = xasprintf("%s.%s", def->name, ext[i]);
			rc = atomic_file_openat(&af, dirfd, outdir, name,
			    cause);
			free(name);
			if (rc == 0)
				rc = render_af(def, data, fmt[i], &af, path,
				    cause);
		}
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
	const struct chart_def *const *def;
	struct chart_run run;
	const char *why;
	char *out;
	int rc, dirfd = -1;

	if ((rc = chart_run_load(dir, &run, cause)) != 0)
		return (rc);
	out = outdir != NULL ? xstrdup(outdir) : xasprintf("%s/charts", dir);
	if ((rc = chart_make_outdir(out, cause)) != 0)
		goto done;
	/*
	 * DIR/charts is inside the results directory: a link planted there
	 * is not followed (root would write wherever it points), and the
	 * directory is held open while the charts are written into it.
	 */
	if (outdir == NULL && (dirfd = open(out, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) == -1) {
		rc = fail_with(cause, errno == ELOOP || errno == ENOTDIR ?
		    RB_EXIT_INPUT : RB_EXIT_ENV, "%s: %s", out, errno ==
		    ELOOP || errno == ENOTDIR ? "a symbolic link, not "
		    "followed in a results directory (--out names another "
		    "place for the charts)" : strerror(errno));
		goto done;
	}
	for (def = chart_table; *def != NULL && rc == 0; def++) {
		if ((*def)->input != CHART_RUN)
			continue;
		if ((why = (*def)->absent(&run)) != NULL) {
			if (!(*def)->opt_in || !(formats & CHART_QUIET_OPT_IN))
				log_warnx("%s: no %s chart: %s", dir,
				    (*def)->name, why);
			continue;
		}
		rc = write_formats(*def, &run, out, dirfd, formats, list,
		    cause);
	}
done:
	if (dirfd != -1)
		close(dirfd);
	free(out);
	chart_run_free(&run);
	return (rc);
}

/*
 * The charts of several runs or groups of runs (paths grouped as compare
 * groups them), into outdir; a chart without data is skipped with a note
 * on stderr.
 */
int
chart_compare(char **paths, int npaths, enum compare_group_by by,
    const char *outdir, unsigned formats, FILE *list, char **cause)
{
	const struct chart_def *const *def;
	const char *why;
	void *data;
	int rc;

	if ((rc = chart_make_outdir(outdir, cause)) != 0)
		return (rc);
	for (def = chart_table; *def != NULL && rc == 0; def++) {
		if ((*def)->input != CHART_RUNS)
			continue;
		if ((rc = (*def)->load(paths, npaths, by, &data, cause)) != 0)
			break;
		if ((why = (*def)->absent(data)) != NULL)
			log_warnx("no %s chart: %s", (*def)->name, why);
		else
			rc = write_formats(*def, data, outdir, -1, formats, list,
			    cause);
		(*def)->free(data);
	}
	return (rc);
}

/* Render def as SVG in memory and append it to charts. */
static int
svg_append(const struct chart_def *def, const void *data,
    struct chart_svg **charts, int *count, char **cause)
{
	struct chart_svg *c;
	int rc;

	*charts = xreallocarray(*charts, *count + 1, sizeof **charts);
	c = &(*charts)[*count];
	memset(c, 0, sizeof *c);
	if ((rc = chart_render_svg(def, data, &c->data, &c->len, cause)) != 0)
		return (rc);
	c->name = xstrdup(def->name);
	c->title = xstrdup(def->title);
	c->apart = def->apart;
	(*count)++;
	return (0);
}

/* Every chart of the run in dir as SVG documents in memory. */
int
chart_svg_all(const char *dir, struct chart_svg **out, int *n, char **cause)
{
	const struct chart_def *const *def;
	struct chart_svg *charts = NULL;
	struct chart_run run;
	int rc, count = 0;

	if ((rc = chart_run_load(dir, &run, cause)) != 0)
		return (rc);
	for (def = chart_table; *def != NULL && rc == 0; def++) {
		if ((*def)->input == CHART_RUN && (*def)->absent(&run) == NULL)
			rc = svg_append(*def, &run, &charts, &count, cause);
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

/* The charts of several runs or groups as SVG documents in memory. */
int
chart_svg_compare(char **paths, int npaths, enum compare_group_by by,
    struct chart_svg **out, int *n, char **cause)
{
	const struct chart_def *const *def;
	struct chart_svg *charts = NULL;
	void *data;
	int rc = 0, count = 0;

	for (def = chart_table; *def != NULL && rc == 0; def++) {
		if ((*def)->input != CHART_RUNS)
			continue;
		if ((rc = (*def)->load(paths, npaths, by, &data, cause)) != 0)
			break;
		if ((*def)->absent(data) == NULL)
			rc = svg_append(*def, data, &charts, &count, cause);
		(*def)->free(data);
	}
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
