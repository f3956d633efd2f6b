/*
 * The report's comparison section: the table of every metric across the
 * runs or groups with its statistics, and the headline of each run (a few
 * figures against the baseline).  The per-run sections and the page
 * around them are report.c.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "output.h"
#include "report.h"
#include "report-int.h"
#include "summary.h"

/*
 * The class of a comparison cell: "sig" when the change is significant,
 * with "better" or "worse" by the metric's direction in METRIC_LIST (none
 * for a metric without one).
 */
static const char *
html_cell_class(const struct compare_key *k, const struct compare_cell *c)
{
	enum metrics_better better = metrics_better(k->metric, k->unit);
	int up;

	if (!c->significant || !isfinite(c->change_pct))
		return (c->significant ? " sig" : "");
	up = c->change_pct > 0;
	if (better == METRICS_BETTER_LOWER)
		return (up ? " sig worse" : " sig better");
	if (better == METRICS_BETTER_HIGHER)
		return (up ? " sig better" : " sig worse");
	return (" sig");
}

/* A full-precision figure as a data- attribute, for programs to read. */
static void
html_data(FILE *f, const char *name, double v)
{
	if (isfinite(v))
		fprintf(f, " data-%s=\"%.17g\"", name, v);
}

/*
 * The comparison table: every headline key, a column per group, with
 * compare's numbers (compare_cell: the same unit, n, interval, change and
 * p as `compare --format json`), coloured by the metric's direction.
 */
void
html_compare_table(FILE *f, const struct compare_set *set,
    const struct report_options *ro)
{
	struct compare_cell cell;
	const struct compare_key *k;
	char *note;
	int i, g;

	note = compare_unit_note(set);
	fputs("<p class=\"note\">", f);
	html_text(f, note);
	fputs("</p>\n", f);
	free(note);
	fputs("<table class=\"compare\">\n<tr><th>phase</th><th>metric</th>"
	    "<th>unit</th>", f);
	for (g = 0; g < set->ngroups; g++) {
		fputs("<th>", f);
		html_text(f, set->groups[g].name);
		fputs(g == 0 ? " (baseline)" : "", f);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (i = 0; i < set->nkeys; i++) {
		k = &set->keys[i];
		if (!metrics_shown(k->metric, k->headline, METRICS_HEADLINE))
			continue;
		fputs("<tr><td>", f);
		html_text(f, k->phase);
		fputs("</td><td>", f);
		html_text(f, k->metric);
		fputs("</td><td>", f);
		html_text(f, k->unit);
		fputs("</td>", f);
		for (g = 0; g < set->ngroups; g++) {
			compare_cell(set, 0, g, k, ro->test, ro->alpha, &cell);
			fprintf(f, "<td class=\"n%s\" data-n=\"%d\"",
			    g > 0 ? html_cell_class(k, &cell) : "",
			    cell.desc.n);
			html_data(f, "mean", cell.desc.mean);
			html_data(f, "ci-low", cell.desc.ci_low);
			html_data(f, "ci-high", cell.desc.ci_high);
			if (g > 0)
				html_data(f, "change-pct", cell.change_pct);
			if (g > 0 && cell.tested)
				html_data(f, "p", cell.p);
			fputs(">", f);
			html_number(f, cell.desc.mean);
			if (isfinite(cell.desc.ci_low)) {
				fputs(" [", f);
				html_number(f, cell.desc.ci_low);
				fputs(", ", f);
				html_number(f, cell.desc.ci_high);
				fputs("]", f);
			}
			fprintf(f, " n=%d", cell.desc.n);
			if (g > 0 && isfinite(cell.change_pct))
				fprintf(f, " %+.2f%%", cell.change_pct);
			if (g > 0 && cell.tested)
				fprintf(f, " p=%.3g", cell.p);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fprintf(f, "</table>\n<p class=\"note\">Mean [95%% confidence "
	    "interval, clamped to the possible range of a count] n=%ss, "
	    "change against the baseline and %s p-value when both groups "
	    "have at least two %ss, as <code>regionbench compare</code> "
	    "prints them; significant changes (p &lt; %g) in bold, "
	    "<span class=\"better\">green</span> when better and "
	    "<span class=\"worse\">red</span> when worse by the metric's "
	    "direction.</p>\n", set->unit == COMPARE_UNIT_BOOT ? "boot" :
	    "run", ro->test == COMPARE_MANN_WHITNEY ? "the Mann-Whitney U" :
	    "Welch's t-test", set->unit == COMPARE_UNIT_BOOT ? "boot" : "run",
	    ro->alpha);
}

/* A cell of the headline table: the value as the terminal prints it. */
static void
html_headline_cell(FILE *f, double v, const char *unit)
{
	char cell[64];

	summary_format_value(cell, sizeof cell, v, unit);
	fputs("<td class=\"n\">", f);
	html_text(f, cell);
	fputs("</td>", f);
}

/*
 * One line of the headline table: a series at its twmean row with its
 * five reductions, or a figure of its own in the mean column.
 */
static void
html_headline_row(FILE *f, const struct compare_run *run, int p,
    const struct summary_row *row)
{
	static const char *const red[] = {
		"min", "mean", "max", "final", "twmean"
	};
	size_t len = strlen(row->metric);
	char *base;
	int j;

	if (metrics_is_reduction(row->metric)) {
		if (len < 7 || strcmp(row->metric + len - 7, ".twmean") != 0)
			return;
		base = xstrndup(row->metric, len - 7);
		/* A workload that does not run in this phase. */
		if (strncmp(base, "placement.", 10) == 0 &&
		    html_row_value_of(run, p, base, "max") == 0) {
			free(base);
			return;
		}
		fputs("<tr><td>", f);
		html_text(f, base);
		fputs("</td>", f);
		for (j = 0; j < 5; j++)
			html_headline_cell(f, html_row_value_of(run, p, base,
			    red[j]), row->unit);
		free(base);
	} else {
		if (!metrics_shown(row->metric, row->headline,
		    METRICS_HEADLINE))
			return;
		fputs("<tr><td>", f);
		html_text(f, row->metric);
		fputs("</td><td></td>", f);
		html_headline_cell(f, row->value, row->unit);
		fputs("<td></td><td></td><td></td>", f);
	}
	fputs("<td>", f);
	html_text(f, summary_table_unit(row->unit));
	fputs("</td></tr>\n", f);
}

/*
 * The answer first: per phase, the table analyze prints on the terminal
 * (each headline series with its min, mean, max, final and time-weighted
 * mean, then the phase's duration and the workloads' figures in the mean
 * column), in the same units.
 */
void
html_headline(FILE *f, const struct compare_run *run)
{
	const struct summary_row *row;
	int p, i, pass;

	fputs("<h3>Headline figures</h3>\n", f);
	for (p = 0; p < run->nphases; p++) {
		fputs("<h4>Phase ", f);
		html_text(f, run->phases[p]);
		fputs("</h4>\n<table>\n<tr><th>metric</th><th>min</th>"
		    "<th>mean</th><th>max</th><th>final</th>"
		    "<th>time-weighted mean</th><th>unit</th></tr>\n", f);
		/* The series first, then the figures of their own. */
		for (pass = 0; pass < 2; pass++) {
			for (i = 0; i < run->sum.n; i++) {
				row = &run->sum.rows[i];
				if (row->phase == p && row->headline &&
				    metrics_is_reduction(row->metric) ==
				    (pass == 0))
					html_headline_row(f, run, p, row);
			}
		}
		fputs("</table>\n", f);
	}
}

