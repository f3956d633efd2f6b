/*
 * Charts: the drawing layer (viridis ends, ticks, formats), every chart of
 * the hand-made run in tests/data/charts/basic as valid PNG (signature,
 * IHDR size) with pixel checks on the heatmap (a full region is the full
 * colour, an empty one the empty colour), and a generated one-hour 10 Hz
 * 50-region run whose heatmap must stay under 2 MB as SVG and render in
 * under a second of CPU (five under AddressSanitizer).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chart.h"
#include "chart-run.h"
#include "log.h"
#include "tap.h"
#include "units.h"

/* Read a PNG's signature and IHDR size; 0 when it is a PNG. */
static int
png_size(const char *path, uint32_t *w, uint32_t *h)
{
	static const unsigned char sig[8] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'
	};
	unsigned char b[24];
	FILE *f = fopen(path, "rb");
	int ok;

	if (f == NULL)
		return (-1);
	ok = fread(b, 1, sizeof b, f) == sizeof b &&
	    memcmp(b, sig, 8) == 0 && memcmp(b + 12, "IHDR", 4) == 0;
	fclose(f);
	if (!ok)
		return (-1);
	*w = (uint32_t)b[16] << 24 | b[17] << 16 | b[18] << 8 | b[19];
	*h = (uint32_t)b[20] << 24 | b[21] << 16 | b[22] << 8 | b[23];
	return (0);
}

/* The RGB of one pixel of an image surface. */
static uint32_t
pixel(cairo_surface_t *img, int x, int y)
{
	unsigned char *data = cairo_image_surface_get_data(img);
	int stride = cairo_image_surface_get_stride(img);

	return (((uint32_t *)(data + (size_t)y * stride))[x] & 0xffffff);
}

/* Are two RGB values within tol per channel? */
static int
rgb_near(uint32_t a, uint32_t b, int tol)
{
	int i, d;

	for (i = 0; i < 3; i++) {
		d = (int)((a >> (8 * i)) & 0xff) - (int)((b >> (8 * i)) & 0xff);
		if (abs(d) > tol)
			return (0);
	}
	return (1);
}

static void
test_draw(void)
{
	double ticks[CHART_MAX_TICKS];
	unsigned formats;
	char *cause = NULL;
	int n;

	tap_ok(chart_viridis_pixel(0) == 0x440154, "viridis(0) is #440154");
	tap_ok(chart_viridis_pixel(1) == 0xfde725, "viridis(1) is #fde725");
	tap_ok(chart_viridis_pixel(-3) == 0x440154 &&
	    chart_viridis_pixel(NAN) == 0x440154, "viridis clamps below");
	n = chart_ticks(0, 3600, 8, 0, ticks);
	tap_ok(n == 8 && ticks[1] == 500 && ticks[7] == 3500,
	    "ticks over 0..3600 step 500 (%d ticks)", n);
	n = chart_ticks(0, 2.5, 10, 1, ticks);
	tap_ok(n == 3 && ticks[2] == 2, "counts tick in whole numbers");
	tap_ok(chart_parse_formats("png,svg", &formats, &cause) == 0 &&
	    formats == (CHART_PNG | CHART_SVG), "png,svg parses");
	tap_ok(chart_parse_formats("svg", &formats, &cause) == 0 &&
	    formats == CHART_SVG, "svg parses");
	tap_ok(chart_parse_formats("png,gif", &formats, &cause) ==
	    -RB_EXIT_INPUT && strstr(cause, "gif") != NULL,
	    "gif is refused naming it");
	free(cause);
}

static void
test_basic(const char *data, const char *tmp)
{
	static const char *const names[] = {
		"heatmap", "spread", "placement", "seed", "fragmentation"
	};
	cairo_surface_t *img;
	char path[4096], *cause = NULL, *dir;
	uint32_t w, h;
	size_t i;

	dir = xasprintf("%s/charts/basic", data);
	tap_ok(chart_all(dir, tmp, CHART_PNG | CHART_SVG, NULL, &cause) == 0,
	    "chart_all on the basic run%s%s", cause ? ": " : "",
	    cause ? cause : "");
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct stat st;

		int rc;

		snprintf(path, sizeof path, "%s/%s.png", tmp, names[i]);
		w = h = 0;
		rc = png_size(path, &w, &h);
		tap_ok(rc == 0 && w == 1000 && h > 200 && h < 2000,
		    "%s.png is a PNG 1000 wide (%ux%u)", names[i], w, h);
		snprintf(path, sizeof path, "%s/%s.svg", tmp, names[i]);
		tap_ok(stat(path, &st) == 0 && st.st_size > 1000,
		    "%s.svg written", names[i]);
	}

	/*
	 * Six regions of 40 units from y = 90 (title 56, labels 34): n0r0
	 * is always full, n0r3 always empty, n1r1 empty after t = 10 s.
	 */
	snprintf(path, sizeof path, "%s/heatmap.png", tmp);
	img = cairo_image_surface_create_from_png(path);
	tap_ok(cairo_surface_status(img) == CAIRO_STATUS_SUCCESS,
	    "heatmap.png reads back");
	if (cairo_surface_status(img) == CAIRO_STATUS_SUCCESS) {
		uint32_t full = chart_viridis_pixel(1);
		uint32_t empty = CHART_RGB_EMPTY;

		tap_ok(rgb_near(pixel(img, 250, 110), full, 2),
		    "full region n0r0 is the full colour (%06x)",
		    pixel(img, 250, 110));
		tap_ok(rgb_near(pixel(img, 250, 230), empty, 2),
		    "empty region n0r3 is the empty colour (%06x)",
		    pixel(img, 250, 230));
		tap_ok(rgb_near(pixel(img, 800, 330), empty, 2) &&
		    !rgb_near(pixel(img, 250, 330), empty, 30),
		    "n1r1 is empty only after the release phase starts");
		tap_ok(rgb_near(pixel(img, 250, 252), 0xffffff, 2),
		    "a white gap separates node 0 from node 1");
	}
	cairo_surface_destroy(img);
	free(dir);
}

/* Write a one-hour, 10 Hz, 50-region run into dir (minimal columns). */
static void
write_long_run(const char *dir)
{
	const int nr = 50, ns = 36000;
	const uint64_t pages = 131072;
	char *path;
	FILE *f;
	int s, r;

	path = xasprintf("%s/meta.json", dir);
	f = fopen(path, "w");
	fprintf(f, "{\"schema_version\": 1, \"command\": \"sample\", "
	    "\"label\": \"long\", \"host\": \"gen\", \"kernel\": "
	    "{\"release\": \"6.18\"}, \"page_size\": 4096, \"phases\": "
	    "[\"sample\"], \"status\": \"complete\"}\n");
	fclose(f);
	free(path);
	path = xasprintf("%s/regions.csv", dir);
	f = fopen(path, "w");
	fprintf(f, "node,region,zone,start_pfn,spanned_pages,present_pages,"
	    "managed_pages\n");
	for (r = 0; r < nr; r++)
		fprintf(f, "0,%d,Normal,%llu,%llu,%llu,%llu\n", r,
		    (unsigned long long)(r * pages), (unsigned long long)pages,
		    (unsigned long long)pages, (unsigned long long)pages);
	fclose(f);
	free(path);
	path = xasprintf("%s/samples.csv", dir);
	f = fopen(path, "w");
	fprintf(f, "t_s,phase,node,region,zone,present_pages,free_pages\n");
	for (s = 0; s < ns; s++) {
		for (r = 0; r < nr; r++) {
			/* A slow wave per region: every cell differs. */
			double u = 0.5 + 0.5 * sin(s / 600.0 + r * 0.7);

			fprintf(f, "%.3f,sample,0,%d,Normal,%llu,%llu\n",
			    s / 10.0, r, (unsigned long long)pages,
			    (unsigned long long)(pages * (1 - u)));
		}
	}
	fclose(f);
	free(path);
}

/*
 * CPU time of this process: the rendering budget is about work done, which
 * other load on the machine does not change the way it changes wall time.
 */
static uint64_t
cpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
}

/* A second of CPU, five under AddressSanitizer (about 2-3x slower). */
#if defined(__SANITIZE_ADDRESS__)
#define RENDER_BUDGET_NS	5000000000ull
#else
#define RENDER_BUDGET_NS	1000000000ull
#endif

static void
test_long(const char *tmp)
{
	struct chart_run run;
	struct stat st;
	char *dir, *svg, *png, *cause = NULL;
	uint64_t t0, t_svg, t_png;
	int rc;

	dir = xasprintf("%s/long", tmp);
	mkdir(dir, 0777);
	write_long_run(dir);
	if (chart_run_load(dir, &run, &cause) != 0) {
		tap_ok(0, "long run loads: %s", cause);
		free(cause);
		free(dir);
		return;
	}
	svg = xasprintf("%s/long-heatmap.svg", tmp);
	png = xasprintf("%s/long-heatmap.png", tmp);
	t0 = cpu_now_ns();
	tap_ok(chart_render_file(&chart_heatmap_def, &run, CHART_SVG, svg,
	    &cause) == 0, "long run heatmap as SVG");
	t_svg = cpu_now_ns() - t0;
	t0 = cpu_now_ns();
	tap_ok(chart_render_file(&chart_heatmap_def, &run, CHART_PNG, png,
	    &cause) == 0, "long run heatmap as PNG");
	t_png = cpu_now_ns() - t0;
	memset(&st, 0, sizeof st);
	rc = stat(svg, &st);
	tap_ok(rc == 0 && st.st_size > 0 && st.st_size < 2 * 1024 * 1024,
	    "1 h 10 Hz 50-region heatmap SVG under 2 MB (%lld bytes)",
	    (long long)st.st_size);
	tap_ok(t_svg < RENDER_BUDGET_NS && t_png < RENDER_BUDGET_NS,
	    "heatmap renders in under %.0f CPU second%s (SVG %.3f s, PNG "
	    "%.3f s)", RENDER_BUDGET_NS / 1e9, RENDER_BUDGET_NS >
	    1000000000ull ? "s under ASan" : "",
	    t_svg / 1e9, t_png / 1e9);
	rc = chart_render_file(&chart_spread_def, &run, CHART_SVG, svg,
	    &cause);
	memset(&st, 0, sizeof st);
	if (rc == 0)
		rc = stat(svg, &st);
	tap_ok(rc == 0 && st.st_size > 0 && st.st_size < 2 * 1024 * 1024,
	    "long run spread SVG under 2 MB (%lld bytes)",
	    (long long)st.st_size);
	chart_run_free(&run);
	free(svg);
	free(png);
	free(dir);
}

/*
 * 400 regions: more than fit one per pixel row.  The first 200 are full,
 * the rest empty; rows share pixels, the chart keeps a bounded height, and
 * the top and bottom of the plot still show full and empty.
 */
static void
test_many(const char *tmp)
{
	cairo_surface_t *img;
	char *dir = xasprintf("%s/many", tmp), *path, *cause = NULL;
	FILE *f;
	int r, s, rc;
	uint32_t w = 0, h = 0;

	mkdir(dir, 0777);
	path = xasprintf("%s/meta.json", dir);
	f = fopen(path, "w");
	fprintf(f, "{\"schema_version\": 1, \"page_size\": 4096}\n");
	fclose(f);
	free(path);
	path = xasprintf("%s/regions.csv", dir);
	f = fopen(path, "w");
	fprintf(f, "node,region,zone,start_pfn,spanned_pages,present_pages,"
	    "managed_pages\n");
	for (r = 0; r < 400; r++)
		fprintf(f, "0,%d,Normal,%d,1000,1000,1000\n", r, r * 1000);
	fclose(f);
	free(path);
	path = xasprintf("%s/samples.csv", dir);
	f = fopen(path, "w");
	fprintf(f, "t_s,phase,node,region,zone,present_pages,free_pages\n");
	for (s = 0; s < 20; s++)
		for (r = 0; r < 400; r++)
			fprintf(f, "%d.000,sample,0,%d,Normal,1000,%d\n", s, r,
			    r < 200 ? 0 : 1000);
	fclose(f);
	free(path);
	path = xasprintf("%s/out", tmp);
	rc = chart_all(dir, path, CHART_PNG, NULL, &cause);
	tap_ok(rc == 0, "400 regions chart%s%s", cause ? ": " : "",
	    cause ? cause : "");
	free(path);
	path = xasprintf("%s/out/heatmap.png", tmp);
	rc = png_size(path, &w, &h);
	tap_ok(rc == 0 && h < 1000, "400 regions stay under 1000 px high "
	    "(%u)", h);
	img = cairo_image_surface_create_from_png(path);
	if (cairo_surface_status(img) == CAIRO_STATUS_SUCCESS) {
		/* Plot from y = 90 (title 56 + labels 34), 720 high. */
		tap_ok(rgb_near(pixel(img, 500, 92), chart_viridis_pixel(1), 2),
		    "top rows are full (%06x)", pixel(img, 500, 92));
		tap_ok(rgb_near(pixel(img, 500, 805), CHART_RGB_EMPTY,
		    2), "bottom rows are empty (%06x)", pixel(img, 500, 805));
	} else
		tap_ok(0, "400 regions heatmap reads back");
	cairo_surface_destroy(img);
	free(path);
	free(dir);
}

/*
 * A copy of the basic run in tmp/name with one file replaced by text;
 * returns the copy's directory (to free).
 */
static char *
basic_variant(const char *data, const char *tmp, const char *name,
    const char *file, const char *text)
{
	char *cmd, *path;
	FILE *f;

	cmd = xasprintf("cp -r '%s/charts/basic' '%s/%s'", data, tmp, name);
	tap_ok(system(cmd) == 0, "%s: copy the basic run", name);
	free(cmd);
	path = xasprintf("%s/%s/%s", tmp, name, file);
	if ((f = fopen(path, "w")) != NULL) {
		fputs(text, f);
		fclose(f);
	}
	free(path);
	return (xasprintf("%s/%s", tmp, name));
}

/*
 * The moments of the bar charts on a copy of the basic run whose only
 * checkpoint is at 6 s in fill: placement takes the scan closest to it (5
 * s, not 9.5 s, the first after it) and says so in the label, and
 * release, without a checkpoint, still gets its last scan.
 */
static void
test_moments(const char *data, const char *tmp)
{
	static const char events[] = "t_s,event,detail,phase\n"
	    "0.000,start,,\n0.000,phase_start,,fill\n"
	    "6.000,checkpoint,50%,fill\n9.700,phase_end,,fill\n"
	    "10.000,phase_start,,release\n19.700,phase_end,,release\n"
	    "19.800,stop,,\n";
	struct chart_moment *mo;
	struct chart_run run;
	char *path, *cause = NULL;
	int n, rc;

	path = basic_variant(data, tmp, "moments", "events.csv", events);
	rc = chart_run_load(path, &run, &cause);
	if (!tap_ok(rc == 0, "moments: the run loads (%s)",
	    cause ? cause : "ok")) {
		free(path);
		return;
	}
	n = chart_moments(run.res, &run.res->placement, &mo);
	tap_ok(n == 2 && fabs(run.res->placement.t[mo[0].index] - 5) < 1e-9 &&
	    strcmp(mo[0].label, "50% (scan -1 s)") == 0,
	    "moments: placement takes the scan closest to the checkpoint and "
	    "says which (%s)", n > 0 ? mo[0].label : "none");
	tap_ok(n == 2 && fabs(run.res->placement.t[mo[1].index] - 19.5) <
	    1e-9 && strcmp(mo[1].label, "end of release") == 0,
	    "moments: a phase without checkpoints is drawn at its end (%s)",
	    n > 1 ? mo[1].label : "none");
	chart_moments_free(mo, n);
	n = chart_moments(run.res, &run.res->samples, &mo);
	tap_ok(n == 2 && strcmp(mo[0].label, "50%") == 0 &&
	    fabs(run.res->samples.t[mo[0].index] - 6) < 1e-9,
	    "moments: the checkpoint's own sample carries no note");
	chart_moments_free(mo, n);
	tap_ok(chart_all(path, tmp, CHART_PNG, NULL, &cause) == 0,
	    "moments: the charts of the run draw");
	chart_run_free(&run);
	free(path);
	free(cause);
}

/* Does any pixel of a PNG have this colour (give or take tol)? */
static int
png_has_colour(const char *path, uint32_t rgb, int tol)
{
	cairo_surface_t *img = cairo_image_surface_create_from_png(path);
	int x, y, found = 0, w, h;

	if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(img);
		return (0);
	}
	w = cairo_image_surface_get_width(img);
	h = cairo_image_surface_get_height(img);
	for (y = 0; y < h && !found; y++)
		for (x = 0; x < w && !found; x++)
			found = rgb_near(pixel(img, x, y), rgb, tol);
	cairo_surface_destroy(img);
	return (found);
}

/*
 * Regions without pages: n0r1 a hole, n0r2 memory not initialised yet.
 * Neither is drawn as a bar of 0 free pages in the seed and fragmentation
 * charts, nor as an occupancy in the heatmap; each has its own colour.
 */
static void
test_no_pages(const char *tmp)
{
	char *dir = xasprintf("%s/nopages", tmp), *path, *cause = NULL;
	FILE *f;
	int s, rc;

	mkdir(dir, 0755);
	path = xasprintf("%s/meta.json", dir);
	f = fopen(path, "w");
	fprintf(f, "{\"schema_version\": 1, \"command\": \"sample\", "
	    "\"label\": \"\", \"host\": \"gen\", \"kernel\": "
	    "{\"release\": \"6.18\"}, \"page_size\": 4096, \"phases\": "
	    "[\"sample\"], \"status\": \"complete\", \"source\": "
	    "{\"name\": \"kpageflags\"}}\n");
	fclose(f);
	free(path);
	path = xasprintf("%s/regions.csv", dir);
	f = fopen(path, "w");
	fprintf(f, "node,region,zone,start_pfn,spanned_pages,present_pages\n"
	    "0,0,Normal,0,1000,1000\n0,1,Normal,1000,1000,0\n"
	    "0,2,Normal,2000,1000,0\n");
	fclose(f);
	free(path);
	path = xasprintf("%s/samples.csv", dir);
	f = fopen(path, "w");
	fprintf(f, "t_s,phase,node,region,zone,present_pages,free_pages,"
	    "managed_pages,anon_pages,file_pages,slab_pages,pgtable_pages,"
	    "other_pages,uninit_pages\n");
	for (s = 0; s < 4; s++)
		fprintf(f, "%d.000,sample,0,0,Normal,1000,400,1000,600,0,0,0,"
		    "0,0\n%d.000,sample,0,1,Normal,0,0,0,0,0,0,0,0,0\n"
		    "%d.000,sample,0,2,Normal,0,0,0,0,0,0,0,0,1000\n", s, s,
		    s);
	fclose(f);
	free(path);
	path = xasprintf("%s/buddy.csv", dir);
	f = fopen(path, "w");
	fprintf(f, "t_s,phase,node,region,zone,order,free_blocks\n");
	for (s = 0; s < 4; s++)
		fprintf(f, "%d.000,sample,0,0,Normal,0,400\n%d.000,sample,0,1,"
		    "Normal,0,0\n%d.000,sample,0,2,Normal,0,0\n", s, s, s);
	fclose(f);
	free(path);
	path = xasprintf("%s/out", tmp);
	rc = chart_all(dir, path, CHART_PNG, NULL, &cause);
	tap_ok(rc == 0, "no pages: charts draw (%s)", cause ? cause : "ok");
	free(path);
	path = xasprintf("%s/out/seed.png", tmp);
	tap_ok(png_has_colour(path, CHART_RGB_NO_DATA, 2) &&
	    png_has_colour(path, CHART_RGB_UNINIT, 2), "no pages: the seed "
	    "chart marks the hole and the uninitialised region in their "
	    "colours");
	free(path);
	path = xasprintf("%s/out/fragmentation.png", tmp);
	tap_ok(png_has_colour(path, CHART_RGB_NO_DATA, 2) &&
	    png_has_colour(path, CHART_RGB_UNINIT, 2), "no pages: the "
	    "fragmentation chart marks them too, not as full regions");
	free(path);
	path = xasprintf("%s/out/heatmap.png", tmp);
	tap_ok(png_has_colour(path, CHART_RGB_UNINIT, 2) &&
	    !png_has_colour(path, CHART_RGB_EMPTY, 2), "no pages: the "
	    "heatmap draws uninitialised memory in its colour, not as empty");
	free(path);
	free(dir);
	free(cause);
}

/*
 * The power-states chart of tests/data/analyze/references (states worked
 * out in tests/t-metrics.c).  Five regions of 40 units from y = 90; the
 * plot runs from x = 118 over 852 units for 0-5 s.  Runs without
 * references.csv have no such chart and say why.
 */
static void
test_power_states(const char *data, const char *tmp)
{
	static const struct {
		double		 t;
		int		 region;
		uint32_t	 rgb;
		const char	*what;
	} cells[] = {
		{ 0.5, 0, 0xe4e4e4, "t=0 n0r0: no DAMON reading joined" },
		{ 1.5, 0, 0xe69f00, "t=1 n0r0: on" },
		{ 1.5, 1, 0x0072b2, "t=1 n0r1: self-refresh (4 MiB is noise)" },
		{ 1.5, 3, CHART_RGB_EMPTY, "t=1 n0r3: off" },
		{ 2.5, 2, CHART_RGB_EMPTY, "t=2 n0r2: off" },
		{ 3.5, 1, 0xe69f00, "t=3 n0r1: on" },
		{ 3.5, 3, 0x0072b2, "t=3 n0r3: self-refresh" },
		{ 4.5, 2, 0x0072b2, "t=4 n0r2: unproven: self-refresh" },
		{ 4.5, 4, CHART_RGB_NO_DATA, "n0r4: no pages" },
	};
	struct chart_run run;
	cairo_surface_t *img;
	char *dir, *out, *path, *cause = NULL;
	const char *why;
	uint32_t w, h, got;
	size_t i;
	int x, y;

	dir = xasprintf("%s/analyze/references", data);
	out = xasprintf("%s/ps", tmp);
	tap_ok(chart_all(dir, out, CHART_PNG | CHART_SVG, NULL, &cause) == 0,
	    "chart_all on the references run%s%s", cause ? ": " : "",
	    cause ? cause : "");
	path = xasprintf("%s/power-states.png", out);
	w = h = 0;
	x = png_size(path, &w, &h);
	tap_ok(x == 0 && w == 1000 && h > 300 && h < 500,
	    "power-states.png is a PNG 1000 wide (%ux%u)", w, h);
	img = cairo_image_surface_create_from_png(path);
	if (tap_ok(cairo_surface_status(img) == CAIRO_STATUS_SUCCESS,
	    "power-states.png reads back")) {
		for (i = 0; i < sizeof cells / sizeof cells[0]; i++) {
			x = (int)(118 + cells[i].t * 852 / 5);
			y = 90 + 40 * cells[i].region + 20;
			got = pixel(img, x, y);
			tap_ok(rgb_near(got, cells[i].rgb, 2), "%s (%06x)",
			    cells[i].what, got);
		}
	}
	cairo_surface_destroy(img);
	free(path);

	free(dir);
	dir = xasprintf("%s/analyze/basic", data);
	if (tap_ok(chart_run_load(dir, &run, &cause) == 0, "load basic")) {
		why = chart_power_states_def.absent(&run);
		tap_ok(why != NULL && strstr(why, "references.csv") != NULL,
		    "no references.csv: no power-states chart, and why");
		chart_run_free(&run);
	}
	free(out);
	free(dir);
}

/*
 * The longest run of pixels of one colour (give or take tol) in a PNG,
 * along rows (across 0) or columns (across 1); -1 when it cannot be read.
 */
static int
png_longest_run(const char *path, uint32_t rgb, int tol, int across)
{
	cairo_surface_t *img = cairo_image_surface_create_from_png(path);
	int x, y, w, h, run, best = 0, outer, inner, no, ni;

	if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(img);
		return (-1);
	}
	w = cairo_image_surface_get_width(img);
	h = cairo_image_surface_get_height(img);
	no = across ? w : h;
	ni = across ? h : w;
	for (outer = 0; outer < no; outer++) {
		for (run = 0, inner = 0; inner < ni; inner++) {
			x = across ? outer : inner;
			y = across ? inner : outer;
			run = rgb_near(pixel(img, x, y), rgb, tol) ? run + 1 : 0;
			if (run > best)
				best = run;
		}
	}
	cairo_surface_destroy(img);
	return (best);
}

/*
 * The placement chart of a copy of the basic run in which pagetest has
 * pages only at the checkpoint in fill (half in n0r1, half in n0r2) and
 * "memcache, big" only at the one in release (two thirds in n0r1):
 * memcache's panel has one bar per region, the whole width of the two
 * moments' pair (0.8 x 0.92 of a region's 145.7 px, not half of it), in
 * the legend's second colour; and the share axis ends at the largest
 * share rounded up to a tenth (0.7), so its tallest bar fills 0.667 / 0.7
 * of the 150 px panel, not 0.667 of it.
 */
static void
test_placement(const char *data, const char *tmp)
{
	static const char csv[] = "t_s,phase,workload,pid,node,region,pages\n"
	    "5.000,fill,pagetest,4242,0,1,8192\n"
	    "5.000,fill,pagetest,4242,0,2,8192\n"
	    "15.000,release,\"memcache, big\",4343,0,1,16384\n"
	    "15.000,release,\"memcache, big\",4343,0,2,8192\n";
	char *path, *cause = NULL;
	int wide, tall;

	path = basic_variant(data, tmp, "placed", "placement.csv", csv);
	tap_ok(chart_all(path, path, CHART_PNG, NULL, &cause) == 0,
	    "placement: the charts draw (%s)", cause ? cause : "ok");
	free(path);
	path = xasprintf("%s/placed/placement.png", tmp);
	wide = png_longest_run(path, 0xd55e00, 2, 0);
	tall = png_longest_run(path, 0xd55e00, 2, 1);
	tap_ok(wide >= 100 && wide <= 110, "placement: a workload of one "
	    "moment gets bars the whole pair wide (%d px, 107 expected)",
	    wide);
	tap_ok(tall >= 140 && tall <= 146, "placement: the share axis ends at "
	    "0.7, so a share of 2/3 is %d px tall of 150 (143 expected)",
	    tall);
	tap_ok(chart_share_top(0) == 0.1 && chart_share_top(0.2) == 0.2 &&
	    fabs(chart_share_top(0.21) - 0.3) < 1e-12 &&
	    chart_share_top(1) == 1 && chart_share_top(NAN) == 0.1,
	    "placement: the share axis ends at a tenth, from 0.1 to 1");
	free(path);
	free(cause);
}

int
main(void)
{
	const char *data = getenv("TESTDATA");
	const char *tmp;

	if (data == NULL)
		data = "tests/data";
	tmp = tap_scratch_dir("t-chart");
	test_draw();
	test_basic(data, tmp);
	test_power_states(data, tmp);
	test_moments(data, tmp);
	test_placement(data, tmp);
	test_no_pages(tmp);
	test_long(tmp);
	test_many(tmp);
	chart_cleanup();
	return (tap_done());
}
