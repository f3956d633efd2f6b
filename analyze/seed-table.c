/*
 * The seed table of analyze --table seed and of suites with table = seed:
 * free pages per region at each checkpoint.  Columns come from the
 * checkpoint events (their detail is the heading, e.g. "94%"); a run
 * without checkpoints gets one column per sample.
 */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "metrics.h"
#include "output.h"
#include "seed-table.h"

/* Add a column for sample s. */
static void
seed_table_add(struct seed_table *t, int s, const char *head)
{
	t->cols = xreallocarray(t->cols, t->ncols + 1, sizeof *t->cols);
	t->cols[t->ncols].sample = s;
	snprintf(t->cols[t->ncols].head, sizeof t->cols[t->ncols].head, "%s",
	    head);
	t->ncols++;
}

/* Columns: checkpoints, or every sample when the run has none. */
void
seed_table_build(struct seed_table *t, const struct results *res)
{
	const struct results_event *e;
	char head[48];
	int i, s;

	memset(t, 0, sizeof *t);
	t->res = res;
	for (i = 0; i < res->nevents; i++) {
		e = &res->events[i];
		if (strcmp(e->event, "checkpoint") != 0)
			continue;
		if ((s = metrics_sample_at(res, e->phase, e->t)) < 0)
			continue;
		seed_table_add(t, s, e->detail[0] != '\0' ? e->detail :
		    "checkpoint");
	}
	if (t->ncols > 0)
		return;
	for (s = 0; s < res->samples.n; s++) {
		snprintf(head, sizeof head, "%.3fs", res->samples.t[s]);
		seed_table_add(t, s, head);
	}
}

/* Free the columns. */
void
seed_table_free(struct seed_table *t)
{
	free(t->cols);
	t->cols = NULL;
	t->ncols = 0;
}

/* Free pages of a region at a column. */
unsigned long long
seed_table_pages(const struct seed_table *t, int col, int region)
{
	return (t->res->free[(size_t)t->cols[col].sample * t->res->nregions +
	    region]);
}

/*
 * The text of a cell: the free pages, or what the region is when it has
 * no pages to be free ("hole": no memory there; "uninit": memory the
 * kernel has not initialised yet), as the charts leave those out.  A 0
 * there would read as a full region.  Returns 1 for such a word.
 */
static int
seed_table_cell(const struct seed_table *t, int col, int region, char *buf,
    size_t len)
{
	const struct results *res = t->res;
	size_t at = (size_t)t->cols[col].sample * res->nregions + region;

	if (res->present[at] == 0 && res->used[at] == 0) {
		snprintf(buf, len, "%s", res->uninit != NULL &&
		    res->uninit[at] > 0 ? "uninit" : "hole");
		return (1);
	}
	snprintf(buf, len, "%llu", seed_table_pages(t, col, region));
	return (0);
}

/* The legend of the words a table has used, if any. */
static void
seed_table_legend(FILE *f, const struct seed_table *t, const char *lead)
{
	char cell[32];
	int c, i, hole = 0, uninit = 0;

	for (i = 0; i < t->res->nregions; i++) {
		for (c = 0; c < t->ncols; c++) {
			if (!seed_table_cell(t, c, i, cell, sizeof cell))
				continue;
			if (strcmp(cell, "hole") == 0)
				hole = 1;
			else
				uninit = 1;
		}
	}
	if (hole || uninit)
		fprintf(f, "%s%s%s%s\n", lead, hole ? "hole: no memory in the "
		    "region" : "", hole && uninit ? "; " : "", uninit ?
		    "uninit: memory the kernel has not initialised yet" : "");
}

/* Row heading of a region: "Region 3", or "Node 1 Region 3". */
void
seed_table_row_name(const struct seed_table *t, int region, char *buf,
    size_t len)
{
	const struct results *res = t->res;

	if (res->regions[0].node == res->regions[res->nregions - 1].node)
		snprintf(buf, len, "Region %d", res->regions[region].region);
	else
		snprintf(buf, len, "Node %d Region %d",
		    res->regions[region].node, res->regions[region].region);
}

/* A horizontal rule of the text table. */
static void
seed_table_rule(FILE *f, int namew, const int *w, int n)
{
	int i, len = 1 + namew + 3;

	for (i = 0; i < n; i++)
		len += w[i] + 3;
	fputc('\t', f);
	for (i = 0; i < len; i++)
		fputc('-', f);
	fputc('\n', f);
}

/* Column widths of the text table; returns the width of the names. */
static int
seed_table_widths(const struct seed_table *t, int *w)
{
	char name[48], num[32];
	int i, c, namew = 6;

	for (c = 0; c < t->ncols; c++)
		w[c] = strlen(t->cols[c].head);
	for (i = 0; i < t->res->nregions; i++) {
		seed_table_row_name(t, i, name, sizeof name);
		if ((int)strlen(name) > namew)
			namew = strlen(name);
		for (c = 0; c < t->ncols; c++) {
			seed_table_cell(t, c, i, num, sizeof num);
			if ((int)strlen(num) > w[c])
				w[c] = strlen(num);
		}
	}
	return (namew);
}

/* Text, as the cover letter printed it. */
void
seed_table_print_text(FILE *f, const struct results *res)
{
	struct seed_table t;
	char name[48], cell[32];
	int i, c, namew, *w;

	seed_table_build(&t, res);
	w = xcalloc(t.ncols + 1, sizeof *w);
	namew = seed_table_widths(&t, w);
	fprintf(f, "free page statistics per region (pages):\n\n");
	seed_table_rule(f, namew, w, t.ncols);
	fprintf(f, "\t| %-*s |", namew, "");
	for (c = 0; c < t.ncols; c++)
		fprintf(f, " %-*s |", w[c], t.cols[c].head);
	fputc('\n', f);
	seed_table_rule(f, namew, w, t.ncols);
	for (i = 0; i < res->nregions; i++) {
		seed_table_row_name(&t, i, name, sizeof name);
		fprintf(f, "\t| %-*s |", namew, name);
		for (c = 0; c < t.ncols; c++) {
			seed_table_cell(&t, c, i, cell, sizeof cell);
			fprintf(f, " %-*s |", w[c], cell);
		}
		fputc('\n', f);
	}
	seed_table_rule(f, namew, w, t.ncols);
	seed_table_legend(f, &t, "\t");
	free(w);
	seed_table_free(&t);
}

/* CSV: node,region, then one column per checkpoint. */
void
seed_table_print_csv(FILE *f, const struct results *res)
{
	struct seed_table t;
	int i, c;

	seed_table_build(&t, res);
	fprintf(f, "node,region");
	for (c = 0; c < t.ncols; c++) {
		fputc(',', f);
		output_csv_field(f, t.cols[c].head);
	}
	fputc('\n', f);
	for (i = 0; i < res->nregions; i++) {
		fprintf(f, "%d,%d", res->regions[i].node,
		    res->regions[i].region);
		for (c = 0; c < t.ncols; c++)
			fprintf(f, ",%llu", seed_table_pages(&t, c, i));
		fputc('\n', f);
	}
	seed_table_free(&t);
}

/* JSON: the columns (label, time, phase) and free pages per region. */
int
seed_table_print_json(FILE *f, const struct results *res)
{
	json_t *root, *jcols, *jc, *jrows, *jrow, *jfree;
	struct seed_table t;
	int i, c, rc, s;

	seed_table_build(&t, res);
	jcols = json_array();
	for (c = 0; c < t.ncols; c++) {
		s = t.cols[c].sample;
		jc = json_pack("{s:s, s:f, s:s}", "label", t.cols[c].head,
		    "t_s", res->samples.t[s], "phase",
		    res->phases[res->samples.phase[s]]);
		json_array_append_new(jcols, jc);
	}
	jrows = json_array();
	for (i = 0; i < res->nregions; i++) {
		jfree = json_array();
		for (c = 0; c < t.ncols; c++)
			json_array_append_new(jfree,
			    json_integer(seed_table_pages(&t, c, i)));
		jrow = json_pack("{s:i, s:i, s:o}", "node",
		    res->regions[i].node, "region", res->regions[i].region,
		    "free_pages", jfree);
		json_array_append_new(jrows, jrow);
	}
	root = json_pack("{s:o, s:o}", "columns", jcols, "regions", jrows);
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(root);
	seed_table_free(&t);
	return (rc != 0 ? -1 : 0);
}

/* Markdown: one row per region, one column per checkpoint. */
void
seed_table_print_markdown(FILE *f, const struct results *res)
{
	struct seed_table t;
	char name[48], cell[32];
	int i, c;

	seed_table_build(&t, res);
	fprintf(f, "| |");
	for (c = 0; c < t.ncols; c++)
		fprintf(f, " %s |", t.cols[c].head);
	fprintf(f, "\n|---|");
	for (c = 0; c < t.ncols; c++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (i = 0; i < res->nregions; i++) {
		seed_table_row_name(&t, i, name, sizeof name);
		fprintf(f, "| %s |", name);
		for (c = 0; c < t.ncols; c++) {
			seed_table_cell(&t, c, i, cell, sizeof cell);
			fprintf(f, " %s |", cell);
		}
		fputc('\n', f);
	}
	seed_table_legend(f, &t, "\n");
	seed_table_free(&t);
}
