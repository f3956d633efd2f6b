/*
 * The summary's two table styles: the line printers of aligned text
 * (fitted to a terminal by summary-fit.c) and of markdown, with their
 * title blocks.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opt.h"
#include "summary.h"
#include "summary-int.h"

/* How the counts were read, for the title blocks. */
static const char *
summary_counts(const struct results *res)
{
	if (res->scan == NULL || strcmp(res->scan, "exact") == 0)
		return (res->count_age_ms != NULL ? "exact, in rotation: a "
		    "region keeps its last exact count until its part of "
		    "memory is counted again (counted_at_s)" : "exact");
	return (res->scan);
}

/*
 * Print items separated by ", " from column col, a new line (at indent)
 * before an item that would pass width (0: no limit); ends the line.
 */
static void
summary_print_items(FILE *f, const char *const *items, int n, int col,
    int indent, int width)
{
	int i, len;

	for (i = 0; i < n; i++) {
		len = (int)strlen(items[i]) + (i + 1 < n ? 1 : 0);
		if (i > 0 && width > 0 && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (i > 0) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%s%s", items[i], i + 1 < n ? "," : "");
		col += len;
	}
	fputc('\n', f);
}

/* Text: the title block, its lines broken between items to fit width. */
static void
text_title(FILE *f, const struct summary_run *sr, int width)
{
	const struct results *res = sr->res;
	char *items[9];
	int i;

	fprintf(f, "regionbench analyze %s\n  ", res->dir);
	items[0] = xasprintf("label %s", res->label[0] != '\0' ? res->label :
	    "(none)");
	items[1] = xasprintf("kernel %s", res->kernel_release);
	items[2] = xasprintf("host %s", res->host);
	items[3] = xasprintf("source %s", res->source != NULL ? res->source :
	    "unknown");
	summary_print_items(f, (const char *const *)items, 4, 2, 2, width);
	items[4] = xasprintf("%d regions", res->nregions);
	items[5] = xasprintf("%d samples", res->samples.n);
	items[6] = xasprintf("page size %llu",
	    (unsigned long long)res->page_size);
	items[7] = xasprintf("empty tolerance %llu pages",
	    (unsigned long long)sr->m->opt.empty_tolerance);
	items[8] = xasprintf("status %s", res->status);
	fputs("  ", f);
	summary_print_items(f, (const char *const *)items + 4, 5, 2, 2, width);
	for (i = 0; i < 9; i++)
		free(items[i]);
	items[0] = xasprintf("counts: %s", summary_counts(res));
	fputs("  ", f);
	if (width > 0)
		opt_print_wrapped(f, items[0], 2, 4, width);
	else
		fprintf(f, "%s\n", items[0]);
	free(items[0]);
	if (res->guest_kernel_report != NULL) {
		fputs("  ", f);
		items[0] = xasprintf("the guest kernel reported a bug: %s (its "
		    "boot's vm-dmesg.log has the rest)",
		    res->guest_kernel_report);
		if (width > 0)
			opt_print_wrapped(f, items[0], 2, 4, width);
		else
			fprintf(f, "%s\n", items[0]);
		free(items[0]);
	}
}

/* Text, compact: the cells of one line, value alone in the mean column. */
static void
text_fit_cells(FILE *f, const struct summary_fit *fit,
    char cell[SUMMARY_NRED][32], const char *unit)
{
	int j;

	for (j = 0; j < SUMMARY_NRED; j++) {
		if (fit->shown[j])
			fprintf(f, " %*s", fit->cell_width, cell[j]);
	}
	if (unit[0] != '\0')
		fprintf(f, " %s", unit);
	fputc('\n', f);
}

/* Text, compact: the start of a metric's line (or its own line). */
static void
text_fit_name(FILE *f, const struct summary_fit *fit, const char *name)
{
	if (fit->name_alone)
		fprintf(f, "  %s\n    ", name);
	else
		fprintf(f, "  %-*s", fit->name_width, name);
}

/* Text: a phase's heading and column names. */
static void
text_phase(FILE *f, const char *phase, const struct summary_fit *fit)
{
	char cell[SUMMARY_NRED][32];
	int j, left = 0;

	if (!fit->compact) {
		fprintf(f, "\nphase %s\n  %-*s %10s %10s %10s %10s %10s  %s\n",
		    phase, fit->name_width, "metric", "min", "mean", "max",
		    "final", "twmean", "unit");
		return;
	}
	fprintf(f, "\nphase %s", phase);
	for (j = 0; j < SUMMARY_NRED; j++) {
		snprintf(cell[j], sizeof cell[j], "%s", summary_red_names[j]);
		if (!fit->shown[j])
			fprintf(f, "%s%s", left++ == 0 ? " (not shown: " : ", ",
			    summary_red_names[j]);
	}
	fprintf(f, "%s\n", left > 0 ? ")" : "");
	text_fit_name(f, fit, "metric");
	text_fit_cells(f, fit, cell, "unit");
}

/* Text: one series with its reductions. */
static void
text_series(FILE *f, const struct summary_fit *fit, const char *name,
    char cell[SUMMARY_NRED][32], const char *unit)
{
	if (fit->compact) {
		text_fit_name(f, fit, name);
		text_fit_cells(f, fit, cell, summary_fit_unit(fit, unit));
		return;
	}
	fprintf(f, "  %-*s %10s %10s %10s %10s %10s  %s\n", fit->name_width,
	    name, cell[0], cell[1], cell[2], cell[3], cell[4],
	    summary_table_unit(unit));
}

/* Text: one summary row, its value in the mean column. */
static void
text_row(FILE *f, const struct summary_fit *fit,
    const struct summary_row *row, const char *cell)
{
	char cells[SUMMARY_NRED][32] = { "", "", "", "", "" };
	int model = strncmp(row->metric, "power_model.", 12) == 0;

	if (fit->compact) {
		snprintf(cells[1], sizeof cells[1], "%s", cell);
		text_fit_name(f, fit, row->metric);
		text_fit_cells(f, fit, cells, model ? "(model)" :
		    summary_fit_unit(fit, row->unit));
		return;
	}
	fprintf(f, "  %-*s %10s %10s %10s %10s %10s  %s%s\n", fit->name_width,
	    row->metric, "", cell, "", "", "", row->unit, model ?
	    "  (model estimate)" : "");
}

/* Text: the heading of the region list. */
static void
text_regions(FILE *f, double t_s, const struct summary_fit *fit)
{
	if (!fit->compact) {
		fprintf(f, "\n  regions at the last sample (t=%.3fs)\n"
		    "  %-8s %-25s %12s %12s %9s  %s\n", t_s, "region",
		    "pfn range", "present MiB", "used MiB", "occupancy",
		    "state");
		return;
	}
	fprintf(f, "\n  regions at t=%.3fs (the last sample; MiB)\n"
	    "  %-*s", t_s, fit->region_width, "region");
	if (fit->show_range)
		fprintf(f, " %-*s", fit->range_width, "pfn range");
	fprintf(f, " %7s %7s %7s  %s\n", "present", "used", "occup.",
	    "state");
}

/* Text: one region. */
static void
text_region(FILE *f, const struct summary_fit *fit, const char *name,
    const char *range, double present, double used, double occupancy,
    const char *state)
{
	if (!fit->compact) {
		fprintf(f, "  %-8s %-25s %12.1f %12.1f %9.4f  %s\n", name,
		    range, present, used, occupancy, state);
		return;
	}
	fprintf(f, "  %-*s", fit->region_width, name);
	if (fit->show_range)
		fprintf(f, " %-*s", fit->range_width, range);
	fprintf(f, " %7.1f %7.1f %7.4f  %s\n", present, used, occupancy,
	    state);
}

/* Text: the data-quality line of a phase, wrapped on a terminal. */
static void
text_quality(FILE *f, const char *text, const struct summary_fit *fit)
{
	fprintf(f, "  data quality: ");
	if (fit->width > 0)
		opt_print_wrapped(f, text, 16, 4, fit->width);
	else
		fprintf(f, "%s\n", text);
}

const struct summary_style summary_text_style = {
	.title = text_title,
	.phase = text_phase,
	.series = text_series,
	.row = text_row,
	.regions = text_regions,
	.region = text_region,
	.quality = text_quality,
	.power_note = "Power figures are a MODEL ESTIMATE from --power-model "
	    "(DRAM power per GiB on, in self-refresh and powered down), "
	    "not a measurement.",
};

/* Markdown: the title block. */
static void
md_title(FILE *f, const struct summary_run *sr, int width)
{
	const struct results *res = sr->res;

	(void)width;
	fprintf(f, "## regionbench analyze: `%s`\n\nlabel `%s`, kernel `%s`, "
	    "host `%s`, source `%s`, %d regions, %d samples, status %s\n",
	    res->dir, res->label, res->kernel_release, res->host,
	    res->source != NULL ? res->source : "unknown", res->nregions,
	    res->samples.n, res->status);
	fprintf(f, "\ncounts: %s\n", summary_counts(res));
	if (res->guest_kernel_report != NULL)
		fprintf(f, "\n**The guest kernel reported a bug:** `%s` (its "
		    "boot's `vm-dmesg.log` has the rest)\n",
		    res->guest_kernel_report);
}

/* Markdown: a phase's heading and table head. */
static void
md_phase(FILE *f, const char *phase, const struct summary_fit *fit)
{
	(void)fit;
	fprintf(f, "\n### Phase `%s`\n\n| metric | min | mean | max | final | "
	    "time-weighted mean | unit |\n|---|---:|---:|---:|---:|---:|---|\n",
	    phase);
}

/* Markdown: one series with its reductions. */
static void
md_series(FILE *f, const struct summary_fit *fit, const char *name,
    char cell[SUMMARY_NRED][32], const char *unit)
{
	(void)fit;
	fprintf(f, "| %s | %s | %s | %s | %s | %s | %s |\n", name, cell[0],
	    cell[1], cell[2], cell[3], cell[4], summary_table_unit(unit));
}

/* Markdown: one summary row, its value in the mean column. */
static void
md_row(FILE *f, const struct summary_fit *fit, const struct summary_row *row,
    const char *cell)
{
	(void)fit;
	fprintf(f, "| %s | | %s | | | | %s |\n", row->metric, cell, row->unit);
}

/* Markdown: the head of the region table. */
static void
md_regions(FILE *f, double t_s, const struct summary_fit *fit)
{
	(void)t_s;
	(void)fit;
	fprintf(f, "\n| region | pfn range | present MiB | used MiB | "
	    "occupancy | state |\n|---|---|---:|---:|---:|---|\n");
}

/* Markdown: one region. */
static void
md_region(FILE *f, const struct summary_fit *fit, const char *name,
    const char *range, double present, double used, double occupancy,
    const char *state)
{
	(void)fit;
	fprintf(f, "| %s | %s | %.1f | %.1f | %.4f | %s |\n", name, range,
	    present, used, occupancy, state);
}

/* Markdown: the data-quality line of a phase, after its table. */
static void
md_quality(FILE *f, const char *text, const struct summary_fit *fit)
{
	(void)fit;
	fprintf(f, "\n**data quality:** %s\n", text);
}

const struct summary_style summary_markdown_style = {
	.title = md_title,
	.phase = md_phase,
	.series = md_series,
	.row = md_row,
	.regions = md_regions,
	.region = md_region,
	.quality = md_quality,
	.power_note = "> Power figures are a MODEL ESTIMATE from "
	    "--power-model (DRAM power per GiB on, in self-refresh and "
	    "powered down), not a measurement.",
};

