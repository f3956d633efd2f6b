/*
 * The output formats of compare.  Text and markdown share one walk over
 * the keys (compare_print_table) with a table of line printers; CSV and
 * JSON, which carry every key and every statistic, are
 * compare-output-data.c.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare-output.h"
#include "compare-output-int.h"
#include "log.h"
#include "opt.h"
#include "output.h"
#include "summary.h"

#define COMPARE_COLW	24
#define COMPARE_NSTATS	6

static const char *const compare_stats[COMPARE_NSTATS] = {
	"Amean", "Stddev", "CI95", "Min", "Max", "p-value"
};

/* How text or markdown prints each kind of line. */
struct compare_style {
	void	(*head)(FILE *f, const struct compare_set *set,
		    const struct compare_output *o);
	void	(*columns)(FILE *f, const struct compare_set *set, int base);
	void	(*phase)(FILE *f, const char *phase);
	void	(*stat)(FILE *f, const struct compare_key *k,
		    const char *stat, const char *better);
	void	(*cell)(FILE *f, const char *cell);
	const char *group_bullet;
};

/* The name of a significance test, as --test spells it. */
const char *
compare_test_name(enum compare_test test)
{
	return (test == COMPARE_MANN_WHITNEY ? "mann-whitney" : "welch");
}

/* The group names, comma-separated, for messages. */
char *
compare_group_names(const struct compare_set *set)
{
	char *names = xstrdup(""), *old;
	int g;

	for (g = 0; g < set->ngroups; g++) {
		old = names;
		names = xasprintf("%s%s%s", old, g > 0 ? ", " : "",
		    set->groups[g].name);
		free(old);
	}
	return (names);
}

/*
 * A group some of whose runs were made in guests whose kernel reported a
 * bug (an oops, a WARNING): its figures come from a kernel that was not
 * healthy, which the statistics cannot show.
 */
static void
compare_guest_note(json_t *notes, const struct compare_group *g)
{
	const struct compare_run *first;
	int n, guests;

	if ((first = compare_group_guests(g, &guests, &n)) != NULL)
		json_array_append_new(notes, json_sprintf("group %s: the guest "
		    "kernel reported a bug in %d of its %d runs made in "
		    "guests (\"%s\" in %s): its figures may not be trusted",
		    g->name, n, guests, first->guest_kernel_report,
		    first->dir));
}

/* What a reader must know about the comparison, as JSON strings. */
json_t *
compare_notes(const struct compare_set *set, const char *differences)
{
	json_t *notes = json_array();
	char *unit_note, *scan;
	int g;

	unit_note = compare_unit_note(set);
	json_array_append_new(notes, json_string(unit_note));
	free(unit_note);
	if (differences != NULL)
		json_array_append_new(notes, json_sprintf("runs differ "
		    "(--force): %s", differences));
	if ((scan = compare_scan_differences(set)) != NULL) {
		json_array_append_new(notes, json_sprintf("%s; sampled "
		    "counts are estimates, so their differences carry more "
		    "noise", scan));
		free(scan);
	}
	for (g = 0; g < set->ngroups; g++)
		compare_guest_note(notes, &set->groups[g]);
	for (g = 0; g < set->ngroups; g++) {
		if (set->groups[g].nruns < 2)
			json_array_append_new(notes, json_sprintf("group %s "
			    "has %d run: means only, no significance test "
			    "(repeat the run, e.g. run --repeat 5)",
			    set->groups[g].name, set->groups[g].nruns));
	}
	if (set->ngroups < 2)
		json_array_append_new(notes, json_string("only one group: "
		    "nothing to compare against"));
	return (notes);
}

/* The arrow saying which way a metric is better, or a blank. */
static const char *
compare_arrow(const struct compare_key *k)
{
	switch (metrics_better(k->metric, k->unit)) {
	case METRICS_BETTER_LOWER:
		return ("\u2193");
	case METRICS_BETTER_HIGHER:
		return ("\u2191");
	default:
		return (" ");
	}
}

/*
 * Does a key belong in the human-readable tables?  By default the
 * headline set (metrics_compare_shown), without the placement of a workload in
 * a phase where no group has any of its pages.
 */
int
compare_key_shown(const struct compare_set *set, const struct compare_key *k,
    const struct compare_cell *cells, int all)
{
	int g;

	if (all)
		return (1);
	if (!metrics_compare_shown(k->metric, k->unit, k->headline))
		return (0);
	if (metric_lookup(k->metric) != &metric_defs[METRIC_PLACEMENT_REGIONS])
		return (1);
	for (g = 0; g < set->ngroups; g++) {
		if (cells[g].desc.n > 0 && cells[g].desc.mean != 0)
			return (1);
	}
	return (0);
}

/* Format a number in the key's unit, as analyze prints it. */
static void
compare_num(char *buf, size_t len, double v, const char *unit)
{
	summary_format_value(buf, len, v, unit);
}

/* The change column: stars around significant changes (mmtests style). */
static void
compare_change(char *buf, size_t len, const struct compare_cell *c, int base)
{
	if (base)
		snprintf(buf, len, "(   0.00%%)");
	else if (isnan(c->change_pct))
		snprintf(buf, len, "(    n/a)");
	else if (c->significant)
		snprintf(buf, len, "*%7.2f%%*", c->change_pct);
	else
		snprintf(buf, len, "(%7.2f%%)", c->change_pct);
}

/* The text of statistic row `stat` for one group. */
static void
compare_stat_cell(char *cell, size_t len, int stat,
    const struct compare_cell *c, int is_base, const char *unit)
{
	const struct stats_desc *d = &c->desc;
	char a[32], b[32];

	switch (stat) {
	case 0:
		compare_num(a, sizeof a, d->mean, unit);
		compare_change(b, sizeof b, c, is_base);
		snprintf(cell, len, "%s %s", a, b);
		break;
	case 1:
		compare_num(cell, len, d->stddev, unit);
		break;
	case 2:
		if (isnan(d->ci_low))
			snprintf(cell, len, "-");
		else {
			compare_num(a, sizeof a, (d->ci_high - d->ci_low) / 2,
			    unit);
			snprintf(cell, len, "+-%s", a);
		}
		break;
	case 3:
		compare_num(cell, len, d->min, unit);
		break;
	case 4:
		compare_num(cell, len, d->max, unit);
		break;
	default:
		if (is_base)
			snprintf(cell, len, " ");
		else if (c->unchanged)
			snprintf(cell, len, "same");
		else if (!c->tested)
			snprintf(cell, len, "n<2");
		else
			snprintf(cell, len, "%.4g", c->p);
		break;
	}
}

/* The harmonic cells of a rate key; 0 when some value is not positive. */
int
compare_harmonic_cells(const struct compare_set *set,
    const struct compare_output *o, const struct compare_key *k,
    struct compare_cell *hcells)
{
	int g;

	if (!metrics_is_rate(k->metric, k->unit))
		return (0);
	for (g = 0; g < set->ngroups; g++) {
		if (compare_cell_harmonic(set, o->base, g, k, o->test,
		    o->alpha, &hcells[g]) != 0)
			return (0);
	}
	return (1);
}

/*
 * The rows of one key, one column per group: the harmonic mean of a rate
 * (Hmean), else the arithmetic mean (Amean); with --all every statistic.
 */
static void
compare_print_key(FILE *f, const struct compare_set *set,
    const struct compare_output *o, const struct compare_key *k,
    const struct compare_cell *cells, struct compare_cell *hcells,
    const struct compare_style *st)
{
	const char *arrow = compare_arrow(k);
	char cell[64];
	int g, s, harmonic;

	harmonic = compare_harmonic_cells(set, o, k, hcells);
	if (harmonic) {
		st->stat(f, k, "Hmean", arrow);
		for (g = 0; g < set->ngroups; g++) {
			compare_stat_cell(cell, sizeof cell, 0, &hcells[g],
			    g == o->base, k->unit);
			st->cell(f, cell);
		}
		fputc('\n', f);
		if (!o->all)
			return;
	}
	for (s = 0; s < (o->all ? COMPARE_NSTATS : 1); s++) {
		st->stat(f, k, compare_stats[s], arrow);
		for (g = 0; g < set->ngroups; g++) {
			compare_stat_cell(cell, sizeof cell, s, &cells[g],
			    g == o->base, k->unit);
			st->cell(f, cell);
		}
		fputc('\n', f);
	}
}

/* The groups, the statistics table and the notes in one style. */
static void
compare_print_table(FILE *f, const struct compare_set *set,
    const struct compare_output *o, const struct compare_style *st)
{
	const struct compare_group *grp;
	struct compare_cell *cells, *hcells;
	const char *phase = NULL;
	int i, g;

	st->head(f, set, o);
	for (g = 0; g < set->ngroups; g++) {
		grp = &set->groups[g];
		fprintf(f, "%s%s: %d run%s", st->group_bullet, grp->name,
		    grp->nruns, grp->nruns == 1 ? "" : "s");
		for (i = 0; i < grp->nruns && i < 3; i++)
			fprintf(f, "%s%s", i == 0 ? " (" : ", ",
			    grp->runs[i]->dir);
		fprintf(f, "%s\n", grp->nruns > 3 ? ", ...)" : ")");
	}
	fputc('\n', f);
	st->columns(f, set, o->base);
	cells = xcalloc(set->ngroups, sizeof *cells);
	hcells = xcalloc(set->ngroups, sizeof *hcells);
	for (i = 0; i < set->nkeys; i++) {
		for (g = 0; g < set->ngroups; g++)
			compare_cell(set, o->base, g, &set->keys[i], o->test,
			    o->alpha, &cells[g]);
		if (!compare_key_shown(set, &set->keys[i], cells, o->all))
			continue;
		if (phase == NULL || strcmp(phase, set->keys[i].phase) != 0) {
			phase = set->keys[i].phase;
			st->phase(f, phase);
		}
		compare_print_key(f, set, o, &set->keys[i], cells, hcells, st);
	}
	free(hcells);
	free(cells);
	for (i = 0; i < (int)json_array_size(o->notes); i++)
		fprintf(f, "%snote: %s\n", i == 0 ? "\n" : "",
		    json_string_value(json_array_get(o->notes, i)));
}

/* Text: the first line. */
static void
text_head(FILE *f, const struct compare_set *set,
    const struct compare_output *o)
{
	fprintf(f, "regionbench compare: baseline %s, %s test, alpha %g "
	    "(*change*: significant; \u2191 higher is better, \u2193 lower is "
	    "better; Hmean: harmonic mean of a rate)\n",
	    set->groups[o->base].name, compare_test_name(o->test), o->alpha);
}

/* Text: the column headings. */
static void
text_columns(FILE *f, const struct compare_set *set, int base)
{
	int g;

	(void)base;
	fprintf(f, "%-7s %-44s %-8s  ", "", "metric", "unit");
	for (g = 0; g < set->ngroups; g++)
		fprintf(f, " %*s", COMPARE_COLW, set->groups[g].name);
	fputc('\n', f);
}

/* Text: a phase starts. */
static void
text_phase(FILE *f, const char *phase)
{
	fprintf(f, "\nphase %s\n", phase);
}

/* Text: the start of a statistic row (the arrow is one column wide). */
static void
text_stat(FILE *f, const struct compare_key *k, const char *stat,
    const char *better)
{
	fprintf(f, "%-7s %-44s %-8s %s", stat, k->metric,
	    summary_table_unit(k->unit), better);
}

/* Text: one cell. */
static void
text_cell(FILE *f, const char *cell)
{
	fprintf(f, " %*s", COMPARE_COLW, cell);
}

static const struct compare_style compare_text_style = {
	.head = text_head,
	.columns = text_columns,
	.phase = text_phase,
	.stat = text_stat,
	.cell = text_cell,
	.group_bullet = "  ",
};

/* Markdown: the heading and what the stars mean. */
static void
md_head(FILE *f, const struct compare_set *set,
    const struct compare_output *o)
{
	fprintf(f, "## regionbench compare\n\nBaseline `%s`, %s test, alpha "
	    "%g; changes significant at p < alpha are between stars; "
	    "\u2191 higher is better, \u2193 lower is better; Hmean is the "
	    "harmonic mean of a rate.\n\n",
	    set->groups[o->base].name, compare_test_name(o->test), o->alpha);
}

/* Markdown: the table head. */
static void
md_columns(FILE *f, const struct compare_set *set, int base)
{
	int g;

	fprintf(f, "| phase | metric | unit | better | stat |");
	for (g = 0; g < set->ngroups; g++)
		fprintf(f, " %s%s |", set->groups[g].name, g == base ?
		    " (baseline)" : "");
	fprintf(f, "\n|---|---|---|:-:|---|");
	for (g = 0; g < set->ngroups; g++)
		fprintf(f, "---:|");
	fputc('\n', f);
}

/* Markdown: phases are a column, not a heading. */
static void
md_phase(FILE *f, const char *phase)
{
	(void)f;
	(void)phase;
}

/* Markdown: the start of a statistic row. */
static void
md_stat(FILE *f, const struct compare_key *k, const char *stat,
    const char *better)
{
	fprintf(f, "| %s | `%s` | %s | %s | %s |", k->phase, k->metric,
	    summary_table_unit(k->unit), better, stat);
}

/* Markdown: one cell. */
static void
md_cell(FILE *f, const char *cell)
{
	fprintf(f, " %s |", cell);
}

static const struct compare_style compare_markdown_style = {
	.head = md_head,
	.columns = md_columns,
	.phase = md_phase,
	.stat = md_stat,
	.cell = md_cell,
	.group_bullet = "- ",
};

/* One statistic row of the fitted text table, its cells formatted. */
struct compare_fit_row {
	const struct compare_key *k;
	const char	*stat;
	char		**cells;	/* one per group */
};

/* The rows a key prints (as compare_print_key), appended to *rows. */
static void
compare_fit_key(const struct compare_set *set, const struct compare_output *o,
    const struct compare_key *k, const struct compare_cell *cells,
    struct compare_cell *hcells, struct compare_fit_row **rows, int *n)
{
	char cell[64];
	int g, s, harmonic, nstats;

	harmonic = compare_harmonic_cells(set, o, k, hcells);
	nstats = harmonic && !o->all ? 0 : o->all ? COMPARE_NSTATS : 1;
	for (s = harmonic ? -1 : 0; s < nstats; s++) {
		*rows = xreallocarray(*rows, *n + 1, sizeof **rows);
		(*rows)[*n].k = k;
		(*rows)[*n].stat = s < 0 ? "Hmean" : compare_stats[s];
		(*rows)[*n].cells = xcalloc(set->ngroups, sizeof (char *));
		for (g = 0; g < set->ngroups; g++) {
			compare_stat_cell(cell, sizeof cell, s < 0 ? 0 : s,
			    s < 0 ? &hcells[g] : &cells[g], g == o->base,
			    k->unit);
			(*rows)[*n].cells[g] = xstrdup(cell);
		}
		(*n)++;
	}
}

/*
 * Print cells (group names or figures) after a lead of lead columns, as
 * many per line as fit in width, the next ones on lines indented as far.
 */
static void
compare_fit_cells(FILE *f, char *const *cells, int ncells, int cw, int lead,
    int width)
{
	int g, per = (width - lead) / (cw + 1);

	if (per < 1)
		per = 1;
	for (g = 0; g < ncells; g++) {
		if (g > 0 && g % per == 0)
			fprintf(f, "\n%*s", lead, "");
		fprintf(f, " %*s", cw, cells[g]);
	}
	fputc('\n', f);
}

/*
 * The text table fitted to a terminal of o->width columns: columns as
 * wide as their contents and short units; when a row still does not fit,
 * each metric's name, unit and direction on a line of its own above its
 * statistics, and groups that do not fit beside each other on further
 * lines.  Long lines of prose are wrapped.
 */
static void
compare_print_text_fit(FILE *f, const struct compare_set *set,
    const struct compare_output *o)
{
	struct compare_fit_row *rows = NULL;
	struct compare_cell *cells, *hcells;
	const struct compare_group *grp;
	const char *phase = NULL, *unit;
	char **names, *text, *old;
	int i, g, n = 0, sw = 5, mw = 6, uw = 4, cw = 1, lead, alone;

	text = xasprintf("regionbench compare: baseline %s, %s test, alpha "
	    "%g (*change*: significant; \u2191 higher is better, \u2193 lower "
	    "is better; Hmean: harmonic mean of a rate)",
	    set->groups[o->base].name, compare_test_name(o->test), o->alpha);
	opt_print_wrapped(f, text, 0, 2, o->width);
	free(text);
	names = xcalloc(set->ngroups, sizeof *names);
	for (g = 0; g < set->ngroups; g++) {
		grp = &set->groups[g];
		names[g] = grp->name;
		if ((int)strlen(grp->name) > cw)
			cw = (int)strlen(grp->name);
		text = xasprintf("%s: %d run%s", grp->name, grp->nruns,
		    grp->nruns == 1 ? "" : "s");
		for (i = 0; i < grp->nruns && i < 3; i++) {
			old = text;
			text = xasprintf("%s%s%s", old, i == 0 ? " (" : ", ",
			    grp->runs[i]->dir);
			free(old);
		}
		old = text;
		text = xasprintf("%s%s", old, grp->nruns > 3 ? ", ...)" : ")");
		free(old);
		fputs("  ", f);
		opt_print_wrapped(f, text, 2, 4, o->width);
		free(text);
	}
	cells = xcalloc(set->ngroups, sizeof *cells);
	hcells = xcalloc(set->ngroups, sizeof *hcells);
	for (i = 0; i < set->nkeys; i++) {
		for (g = 0; g < set->ngroups; g++)
			compare_cell(set, o->base, g, &set->keys[i], o->test,
			    o->alpha, &cells[g]);
		if (compare_key_shown(set, &set->keys[i], cells, o->all))
			compare_fit_key(set, o, &set->keys[i], cells, hcells,
			    &rows, &n);
	}
	free(hcells);
	free(cells);
	for (i = 0; i < n; i++) {
		if ((int)strlen(rows[i].stat) > sw)
			sw = (int)strlen(rows[i].stat);
		if ((int)strlen(rows[i].k->metric) > mw)
			mw = (int)strlen(rows[i].k->metric);
		unit = summary_table_unit(rows[i].k->unit);
		if ((int)strlen(unit) > uw)
			uw = (int)strlen(unit);
		for (g = 0; g < set->ngroups; g++) {
			if ((int)strlen(rows[i].cells[g]) > cw)
				cw = (int)strlen(rows[i].cells[g]);
		}
	}
	/* stat metric unit arrow, then the groups */
	lead = sw + 1 + mw + 1 + uw + 2;
	alone = lead + set->ngroups * (cw + 1) > o->width;
	if (alone)
		lead = 2 + sw;
	fputc('\n', f);
	if (alone)
		fprintf(f, "%-*s", lead, "");
	else
		fprintf(f, "%-*s %-*s %-*s  ", sw, "", mw, "metric", uw,
		    "unit");
	compare_fit_cells(f, names, set->ngroups, cw, lead, o->width);
	for (i = 0; i < n; i++) {
		if (phase == NULL || strcmp(phase, rows[i].k->phase) != 0) {
			phase = rows[i].k->phase;
			fprintf(f, "\nphase %s\n", phase);
		}
		unit = summary_table_unit(rows[i].k->unit);
		if (alone && (i == 0 || rows[i - 1].k != rows[i].k))
			fprintf(f, "%s (%s)%s%s\n", rows[i].k->metric, unit,
			    metrics_better(rows[i].k->metric, rows[i].k->unit)
			    == METRICS_BETTER_NONE ? "" : " ",
			    compare_arrow(rows[i].k));
		if (alone)
			fprintf(f, "  %-*s", sw, rows[i].stat);
		else
			fprintf(f, "%-*s %-*s %-*s %s", sw, rows[i].stat, mw,
			    rows[i].k->metric, uw, unit,
			    compare_arrow(rows[i].k));
		compare_fit_cells(f, rows[i].cells, set->ngroups, cw, lead,
		    o->width);
		for (g = 0; g < set->ngroups; g++)
			free(rows[i].cells[g]);
		free(rows[i].cells);
	}
	free(rows);
	free(names);
	for (i = 0; i < (int)json_array_size(o->notes); i++) {
		text = xasprintf("note: %s", json_string_value(
		    json_array_get(o->notes, i)));
		if (i == 0)
			fputc('\n', f);
		opt_print_wrapped(f, text, 0, 6, o->width);
		free(text);
	}
}

/* mmtests-style text: rows of statistics, one column per group. */
void
compare_print_text(FILE *f, const struct compare_set *set,
    const struct compare_output *o)
{
	if (o->width > 0) {
		compare_print_text_fit(f, set, o);
		return;
	}
	compare_print_table(f, set, o, &compare_text_style);
}

/* The same table in markdown. */
void
compare_print_markdown(FILE *f, const struct compare_set *set,
    const struct compare_output *o)
{
	compare_print_table(f, set, o, &compare_markdown_style);
}

/* Print groups of runs in the format asked for. */
static void
compare_run_print(FILE *f, const struct compare_set *set,
    const struct compare_output *o, enum compare_format format)
{
	switch (format) {
	case COMPARE_FORMAT_CSV:
		compare_print_csv(f, set, o);
		break;
	case COMPARE_FORMAT_JSON:
		compare_print_json(f, set, o);
		break;
	case COMPARE_FORMAT_MARKDOWN:
		compare_print_markdown(f, set, o);
		break;
	default:
		compare_print_text(f, set, o);
		break;
	}
}

/*
 * Load the runs of a request, refuse runs that are not comparable unless
 * forced, and print the comparison on f.  0, or a negative exit code with
 * a cause.
 */
int
compare_run(FILE *f, const struct compare_request *req, char **cause)
{
	struct metrics_options mo;
	struct compare_output o;
	struct compare_set *set;
	char *differences;
	int rc;

	metrics_options_default(&mo);
	mo.empty_tolerance = req->empty_tolerance;
	if ((rc = compare_load(req->paths, req->npaths, req->group_by, &mo,
	    req->db, &set, cause)) != 0)
		return (rc);
	set->unit = req->unit;
	memset(&o, 0, sizeof o);
	if (req->baseline != NULL &&
	    (o.base = compare_find_group(set, req->baseline)) < 0) {
		differences = compare_group_names(set);
		rc = fail_with(cause, RB_EXIT_INPUT, "--baseline %s: no such "
		    "group (groups: %s)", req->baseline, differences);
		free(differences);
		compare_free(set);
		return (rc);
	}
	differences = compare_differences(set);
	if (differences != NULL && !req->force) {
		rc = fail_with(cause, RB_EXIT_INPUT, "these runs are not "
		    "comparable:\n%s\n(--force compares them anyway)",
		    differences);
		free(differences);
		compare_free(set);
		return (rc);
	}
	o.test = req->test;
	o.alpha = req->alpha;
	o.all = req->all;
	o.width = req->width;
	o.differences = differences;
	o.notes = compare_notes(set, differences);
	compare_run_print(f, set, &o, req->format);
	json_decref(o.notes);
	free(differences);
	compare_free(set);
	return (0);
}
