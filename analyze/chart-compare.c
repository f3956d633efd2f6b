/*
 * Spread of several runs or groups overlaid (vanilla vs patched): the
 * spread index, active regions and empty memory over time, one colour per
 * group.  Groups come from compare.h (a directory of run directories is
 * one group, as in `compare`); a group with repetitions is drawn as its
 * mean with a 95% Student-t confidence band (stats.h) at each time of its
 * first run.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart.h"
#include "chart-run.h"
#include "compare.h"
#include "log.h"
#include "stats.h"

#define CMP_W		1000.0
#define CMP_PANEL_H	150.0
#define CMP_GAP		26.0
#define CMP_RIGHT	190.0
#define CMP_NMETRICS	3

static const enum metric_id cmp_metrics[CMP_NMETRICS] = {
	METRIC_SPREAD_INDEX, METRIC_ACTIVE_REGIONS, METRIC_EMPTY_BYTES
};

/* One group reduced to a mean line and band per metric. */
struct cmp_group {
	char		*name;
	int		 nruns;
	int		 n;
	double		*t;
	double		*mean[CMP_NMETRICS];
	double		*lo[CMP_NMETRICS];
	double		*hi[CMP_NMETRICS];
};

struct cmp_data {
	struct cmp_group *groups;
	int		 ngroups;
	struct chart_run first;		/* phases and checkpoints come from it */
	char		*where;
	double		 max_bytes;
	int		 max_regions;
	double		 max_spread;
};

/* Value of series s at time t: the last point at or before t (NAN after). */
static double
value_at(const struct metric_series *s, double t, double end)
{
	const struct results_times *tm = s->times;
	int lo = 0, hi = tm->n - 1, mid;

	if (tm->n == 0 || t < tm->t[0] - 0.0005 || t > end + 0.0005)
		return (NAN);
	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (tm->t[mid] <= t + 0.0005)
			lo = mid;
		else
			hi = mid - 1;
	}
	return (s->v[lo]);
}

/* Load the runs of one group and reduce them onto its first run's times. */
static int
group_reduce(const struct compare_group *cg, struct cmp_data *d,
    struct cmp_group *g, char **cause)
{
	struct chart_run *runs = xcalloc(cg->nruns, sizeof *runs);
	const struct metric_series *s;
	struct stats_desc desc;
	double *x = xcalloc(cg->nruns, sizeof *x), end, t0, t1;
	int i, k, m, nx, rc = 0, loaded = 0;

	g->name = xstrdup(cg->name);
	g->nruns = cg->nruns;
	for (i = 0; i < cg->nruns; i++, loaded++)
		if ((rc = chart_run_load(cg->runs[i]->dir, &runs[i],
		    cause)) != 0)
			goto out;
	g->n = runs[0].res->samples.n;
	g->t = xcalloc(g->n, sizeof *g->t);
	memcpy(g->t, runs[0].res->samples.t, g->n * sizeof *g->t);
	for (m = 0; m < CMP_NMETRICS; m++) {
		g->mean[m] = xcalloc(g->n, sizeof *g->mean[m]);
		g->lo[m] = xcalloc(g->n, sizeof *g->lo[m]);
		g->hi[m] = xcalloc(g->n, sizeof *g->hi[m]);
		for (k = 0; k < g->n; k++) {
			for (nx = 0, i = 0; i < cg->nruns; i++) {
				s = metrics_find(runs[i].m,
				    metric_defs[cmp_metrics[m]].name);
				if (s == NULL)
					continue;
				chart_time_range(runs[i].res, &t0, &t1);
				end = t1;
				x[nx] = value_at(s, g->t[k], end);
				if (isfinite(x[nx]))
					nx++;
			}
			stats_describe(x, nx, 0.95, &desc);
			g->mean[m][k] = nx > 0 ? desc.mean : NAN;
			g->lo[m][k] = desc.ci_low;
			g->hi[m][k] = desc.ci_high;
			if (m == 0 && isfinite(desc.max))
				d->max_spread = fmax(d->max_spread, nx > 1 &&
				    isfinite(desc.ci_high) ? fmax(desc.max,
				    desc.ci_high) : desc.max);
		}
	}
	for (i = 0; i < cg->nruns; i++) {
		double total = 0;
		int r;

		for (r = 0; r < runs[i].res->nregions; r++)
			total += (double)runs[i].res->regions[r].present_pages *
			    runs[i].res->page_size;
		d->max_bytes = fmax(d->max_bytes, total);
		if (runs[i].res->nregions > d->max_regions)
			d->max_regions = runs[i].res->nregions;
	}
	if (d->first.res == NULL) {
		d->first = runs[0];
		memset(&runs[0], 0, sizeof runs[0]);
	}
out:
	for (i = 0; i < loaded; i++)
		if (runs[i].res != NULL)
			chart_run_free(&runs[i]);
	free(runs);
	free(x);
	return (rc);
}

/* Free what cmp_load built. */
static void
cmp_free(struct cmp_data *d)
{
	int i, m;

	for (i = 0; i < d->ngroups; i++) {
		free(d->groups[i].name);
		free(d->groups[i].t);
		for (m = 0; m < CMP_NMETRICS; m++) {
			free(d->groups[i].mean[m]);
			free(d->groups[i].lo[m]);
			free(d->groups[i].hi[m]);
		}
	}
	free(d->groups);
	if (d->first.res != NULL)
		chart_run_free(&d->first);
	free(d->where);
}

/* Group paths as `compare --group-by` does and reduce each group. */
static int
cmp_load(char **paths, int npaths, enum compare_group_by by,
    struct cmp_data *d, char **cause)
{
	struct compare_set *set;
	char *where, *next;
	int i, rc;

	memset(d, 0, sizeof *d);
	if ((rc = compare_load(paths, npaths, by, NULL, NULL, &set,
	    cause)) != 0)
		return (rc);
	d->groups = xcalloc(set->ngroups, sizeof *d->groups);
	where = xstrdup("");
	for (i = 0; i < set->ngroups; i++) {
		d->ngroups++;
		if ((rc = group_reduce(&set->groups[i], d, &d->groups[i],
		    cause)) != 0)
			break;
		next = xasprintf("%s%s%s: %d run%s, kernel %s", where,
		    i > 0 ? " | " : "", set->groups[i].name,
		    set->groups[i].nruns, set->groups[i].nruns == 1 ? "" : "s",
		    set->groups[i].runs[0]->kernel_release);
		free(where);
		where = next;
	}
	d->where = where;
	compare_free(set);
	if (rc != 0)
		cmp_free(d);
	return (rc);
}

static const char *
cmp_absent(const void *data)
{
	const struct cmp_data *d = data;

	return (d->ngroups == 0 ? "nothing to compare" : NULL);
}

static void
cmp_size(const void *data, double *w, double *h)
{
	(void)data;
	*w = CMP_W;
	*h = 62 + 34 + CMP_NMETRICS * CMP_PANEL_H +
	    (CMP_NMETRICS - 1) * CMP_GAP + 56;
}

/* The stacked time panels, one per metric, sharing one time range. */
static void
cmp_panels(const struct cmp_data *d, double w, double top,
    struct chart_axes *p)
{
	double t1 = 0;
	int i, m;

	for (i = 0; i < d->ngroups; i++)
		if (d->groups[i].n > 0)
			t1 = fmax(t1, d->groups[i].t[d->groups[i].n - 1]);
	for (m = 0; m < CMP_NMETRICS; m++) {
		p[m].x = 96;
		p[m].w = w - p[m].x - CMP_RIGHT;
		p[m].y = round(top + 34 + m * (CMP_PANEL_H + CMP_GAP));
		p[m].h = CMP_PANEL_H;
		chart_time_range(d->first.res, &p[m].x0, &p[m].x1);
		p[m].x1 = fmax(p[m].x1, t1);
		p[m].y0 = 0;
	}
	p[0].y1 = fmax(2, ceil(d->max_spread * 1.15 * 2) / 2);
	p[1].y1 = d->max_regions + 0.5;
	p[2].y1 = fmax(d->max_bytes, 1);
}

/* Panel m: its y axis, each group's band (with repetitions) and mean. */
static void
cmp_panel(cairo_t *cr, const struct cmp_data *d, const struct chart_axes *a,
    int m)
{
	static const char *const ylabel[CMP_NMETRICS] = {
		"spread index", "active regions", NULL
	};
	struct chart_scale none = { 1, "", 0 }, count = { 1, "", 1 }, bytes;
	char label[64];
	int i;

	if (ylabel[m] != NULL)
		chart_axis_y(cr, a, m == 1 ? count : none, ylabel[m], 1);
	else {
		bytes = chart_bytes_scale(d->max_bytes);
		snprintf(label, sizeof label, "empty (%s)", bytes.unit);
		chart_axis_y(cr, a, bytes, label, 1);
	}
	for (i = 0; i < d->ngroups; i++)
		if (d->groups[i].nruns > 1)
			chart_band(cr, a, d->groups[i].t, d->groups[i].lo[m],
			    d->groups[i].hi[m], d->groups[i].n,
			    chart_palette(i), 0.22);
	for (i = 0; i < d->ngroups; i++)
		chart_line(cr, a, d->groups[i].t, d->groups[i].mean[m],
		    d->groups[i].n, chart_palette(i), 2, i % 2);
	chart_frame(cr, a);
}

/* Legend right of the first panel a: one line per group. */
static void
cmp_legend(cairo_t *cr, const struct cmp_data *d, const struct chart_axes *a)
{
	double dash[] = { 5, 3 }, ly;
	char *name, *fit;
	int i;

	chart_font(cr, CHART_FONT_SIZE, 0);
	for (ly = a->y + 4, i = 0; i < d->ngroups; i++) {
		cairo_save(cr);
		chart_set_rgb(cr, chart_palette(i), 1);
		cairo_set_line_width(cr, 2.5);
		if (i % 2)
			cairo_set_dash(cr, dash, 2, 0);
		cairo_move_to(cr, a->x + a->w + 12, ly + CHART_FONT_SIZE / 2);
		cairo_line_to(cr, a->x + a->w + 32, ly + CHART_FONT_SIZE / 2);
		cairo_stroke(cr);
		cairo_restore(cr);
		name = xasprintf("%s (n=%d)", d->groups[i].name,
		    d->groups[i].nruns);
		fit = chart_fit_text(cr, name, CMP_RIGHT - 44);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text(cr, a->x + a->w + 38, ly, 0, 0, fit);
		free(fit);
		free(name);
		ly += CHART_FONT_SIZE * 1.6;
	}
}

static void
cmp_draw(cairo_t *cr, double w, double h, const void *data)
{
	const struct cmp_data *d = data;
	struct chart_axes p[CMP_NMETRICS];
	struct chart_scale ts;
	char label[64];
	double top;
	int m, k = CMP_NMETRICS - 1;

	chart_background(cr, w, h);
	top = chart_title(cr, w, "Spread compared (group means, 95% "
	    "confidence bands where groups have repetitions)", d->where);
	cmp_panels(d, w, top, p);
	chart_phase_bands(cr, d->first.res, p, CMP_NMETRICS, 0);
	for (m = 0; m < CMP_NMETRICS; m++)
		cmp_panel(cr, d, &p[m], m);
	cmp_legend(cr, d, &p[0]);
	ts = chart_time_scale(p[k].x1 - p[k].x0);
	snprintf(label, sizeof label, "time since start (%s)", ts.unit);
	chart_axis_x(cr, &p[k], ts, label);
}

/* CHART_RUNS load hook: cmp_load into a new cmp_data. */
static int
cmp_load_hook(char **paths, int npaths, enum compare_group_by by,
    void **data, char **cause)
{
	struct cmp_data *d = xcalloc(1, sizeof *d);
	int rc;

	if ((rc = cmp_load(paths, npaths, by, d, cause)) != 0) {
		free(d);
		return (rc);
	}
	*data = d;
	return (0);
}

/* CHART_RUNS free hook. */
static void
cmp_free_hook(void *data)
{
	cmp_free(data);
	free(data);
}

const struct chart_def chart_compare_def = {
	.name = "compare",
	.title = "Spread compared",
	.input = CHART_RUNS,
	.load = cmp_load_hook,
	.free = cmp_free_hook,
	.absent = cmp_absent,
	.size = cmp_size,
	.draw = cmp_draw,
};
