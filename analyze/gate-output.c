/*
 * The gate's reports: the text lines and verdict line, JSON, JUnit XML and
 * a markdown summary, each from the checks gate_evaluate measured and
 * judged.
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "output.h"
#include "log.h"

/* Write the directories of one group as a property value. */
static void
junit_dirs(FILE *f, const struct compare_group *g)
{
	int i;

	for (i = 0; i < g->nruns; i++) {
		if (i > 0)
			fputc(' ', f);
		output_xml_escape(f, g->runs[i]->dir);
	}
}

/*
 * JUnit XML: one testcase per rule and metric it matched.  A check without
 * a verdict is a skipped testcase whose message says why.
 */
int
gate_write_junit(FILE *f, const struct compare_set *set,
    const struct gate_result *r, int n)
{
	struct gate_counts c;
	int i;

	gate_count(r, n, &c);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"regionbench gate\" tests=\"%d\" "
	    "failures=\"%d\" errors=\"0\" skipped=\"%d\">\n"
	    "  <testsuite name=\"regionbench gate\" tests=\"%d\" "
	    "failures=\"%d\" errors=\"0\" skipped=\"%d\">\n"
	    "    <properties>\n"
	    "      <property name=\"baseline\" value=\"", n, c.failed,
	    c.unjudged, n, c.failed, c.unjudged);
	junit_dirs(f, &set->groups[0]);
	fprintf(f, "\"/>\n      <property name=\"candidate\" value=\"");
	junit_dirs(f, &set->groups[1]);
	fprintf(f, "\"/>\n    </properties>\n");
	for (i = 0; i < n; i++) {
		fprintf(f, "    <testcase classname=\"gate.");
		output_xml_escape(f, r[i].rule->name);
		fprintf(f, "\" name=\"");
		if (r[i].key != NULL) {
			output_xml_escape(f, r[i].key->phase);
			fputs(": ", f);
			output_xml_escape(f, r[i].key->metric);
		} else
			output_xml_escape(f, r[i].rule->metric);
		fprintf(f, "\">\n");
		if (!r[i].judged) {
			fprintf(f, "      <skipped message=\"");
			output_xml_escape(f, r[i].message);
			fprintf(f, "\"/>\n");
		} else if (r[i].failed) {
			fprintf(f, "      <failure type=\"regression\" "
			    "message=\"");
			output_xml_escape(f, r[i].message);
			fprintf(f, "\">");
			output_xml_escape(f, r[i].message);
			fprintf(f, "</failure>\n");
		} else {
			fprintf(f, "      <system-out>");
			output_xml_escape(f, r[i].message);
			fprintf(f, "</system-out>\n");
		}
		fprintf(f, "    </testcase>\n");
	}
	fprintf(f, "  </testsuite>\n</testsuites>\n");
	return (ferror(f) ? -1 : 0);
}

/* Write markdown table cell text, escaping the pipe. */
static void
md_cell(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

/* "N failed, [M inconclusive, ]K not judged" of a gate's counts. */
static void
gate_counts_text(const struct gate_counts *c, char *buf, size_t len)
{
	if (c->inconclusive > 0)
		snprintf(buf, len, "%d failed, %d inconclusive, %d not judged",
		    c->failed, c->inconclusive, c->unjudged - c->inconclusive);
	else
		snprintf(buf, len, "%d failed, %d not judged", c->failed,
		    c->unjudged);
}

/* The one-word outcome of a gate (what the exit code says). */
const char *
gate_outcome(const struct gate_counts *c)
{
	if (c->failed > 0)
		return ("FAILED");
	if (c->unjudged > c->inconclusive)
		return ("NOT JUDGED");
	if (c->inconclusive > 0)
		return ("INCONCLUSIVE");
	return ("passed");
}

/* Markdown summary for a CI comment. */
int
gate_write_markdown(FILE *f, const struct compare_set *set,
    const struct gate_result *r, int n)
{
	struct gate_counts c;
	char limit[32], counts[96], *note;
	int i;

	gate_count(r, n, &c);
	fprintf(f, "## regionbench gate: %s%s%s\n\n", c.failed > 0 ||
	    c.unjudged > 0 ? "**" : "", gate_outcome(&c), c.failed > 0 ||
	    c.unjudged > 0 ? "**" : "");
	gate_counts_text(&c, counts, sizeof counts);
	fprintf(f, "%d checks, %s; baseline %d run(s), candidate %d "
	    "run(s).\n\n", n, counts, set->groups[0].nruns,
	    set->groups[1].nruns);
	note = compare_unit_note(set);
	fprintf(f, "%s\n\n", note);
	free(note);
	if (c.adjusted > 0)
		fprintf(f, "The p-values of the %d check%s that need%s "
		    "significance are Holm-adjusted together.\n\n",
		    c.adjusted, c.adjusted == 1 ? "" : "s", c.adjusted == 1 ?
		    "s" : "");
	fprintf(f, "| Result | Rule | Phase | Metric | Baseline | Candidate "
	    "| Change | Allowed | p |\n"
	    "|---|---|---|---|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < n; i++) {
		gate_limit_text(r[i].rule, limit, sizeof limit);
		if (!r[i].judged && !r[i].inconclusive) {
			fprintf(f, "| :grey_question: not judged | ");
			md_cell(f, r[i].rule->name);
			fprintf(f, " | ");
			md_cell(f, r[i].key != NULL ? r[i].key->phase :
			    r[i].rule->phase);
			fprintf(f, " | `");
			md_cell(f, r[i].key != NULL ? r[i].key->metric :
			    r[i].rule->metric);
			if (r[i].key != NULL)
				fprintf(f, "` | n=%d | n=%d | | %s | |\n",
				    r[i].nbase, r[i].ncand, limit);
			else
				fprintf(f, "` | | | | %s | |\n", limit);
			continue;
		}
		fprintf(f, "| %s | ", r[i].inconclusive ?
		    ":grey_question: inconclusive" : r[i].failed ? ":x: FAIL" :
		    "pass");
		md_cell(f, r[i].rule->name);
		if (r[i].key == NULL) {
			/* guest-kernel: runs whose kernel reported a bug */
			fprintf(f, " | %s | `%s` | %g of %d runs | %g of %d "
			    "runs | | none allowed | - |\n",
			    r[i].rule->phase, r[i].rule->metric,
			    r[i].base_mean, r[i].nbase, r[i].cand_mean,
			    r[i].ncand);
			continue;
		}
		fprintf(f, " | ");
		md_cell(f, r[i].key->phase);
		fprintf(f, " | `");
		md_cell(f, r[i].key->metric);
		fprintf(f, "` | %s %.6g (n=%d) | %.6g (n=%d) | ",
		    r[i].rule->harmonic ? "Hmean" : "Amean", r[i].base_mean,
		    r[i].nbase, r[i].cand_mean, r[i].ncand);
		if (r[i].unchanged)
			fprintf(f, "none");
		else if (r[i].base_mean != 0)
			fprintf(f, "%+.2f%%", (r[i].cand_mean -
			    r[i].base_mean) / fabs(r[i].base_mean) * 100);
		else
			fprintf(f, "%+.6g", r[i].cand_mean - r[i].base_mean);
		fprintf(f, " | %s (better %s) | ", limit,
		    gate_better_word(&r[i]));
		if (r[i].tested && !isnan(r[i].p_adjusted))
			fprintf(f, "%.3g (Holm %.3g) |\n", r[i].p,
			    r[i].p_adjusted);
		else if (r[i].tested)
			fprintf(f, "%.3g |\n", r[i].p);
		else
			fprintf(f, "- |\n");
	}
	for (i = 0; i < n; i++) {
		if (r[i].failed || !r[i].judged) {
			fprintf(f, "\n- ");
			md_cell(f, r[i].message);
		}
	}
	fprintf(f, "\n");
	return (ferror(f) ? -1 : 0);
}

/* Write a report with one of the writers into a file replaced whole. */
int
gate_write_file(const char *path, const struct compare_set *set,
    const struct gate_result *r, int n, gate_writer writer, char **cause)
{
	struct output_file of;
	int rc;

	if ((rc = output_open(&of, path, cause)) != 0)
		return (rc);
	if (writer(of.f, set, r, n) != 0) {
		output_abort(&of);
		return (fail_with(cause, RB_EXIT_ENV, "%s: write failed",
		    path));
	}
	return (output_commit(&of, cause));
}

/*
 * Print each check's message, then the verdict line with how many checks
 * failed and how many got no verdict.
 */
void
gate_print(FILE *f, const struct compare_set *set,
    const struct gate_result *r, int n, const char *rules_path)
{
	int i, nb = set->groups[0].nruns, nc = set->groups[1].nruns;
	struct gate_counts c;
	char counts[96];

	gate_count(r, n, &c);
	gate_counts_text(&c, counts, sizeof counts);
	for (i = 0; i < n; i++)
		fprintf(f, "%s\n", r[i].message);
	fprintf(f, "gate: %s (%d check%s, %s; baseline %d run%s, candidate "
	    "%d run%s; rules %s", gate_outcome(&c), n, n == 1 ? "" : "s",
	    counts, nb, nb == 1 ? "" : "s", nc, nc == 1 ? "" : "s",
	    rules_path);
	if (c.adjusted > 0)
		fprintf(f, "; p-values Holm-adjusted over %d test%s",
		    c.adjusted, c.adjusted == 1 ? "" : "s");
	fprintf(f, ")\n");
}

/* A JSON number, or null when it is not finite. */
static json_t *
gate_json_num(double v)
{
	return (isfinite(v) ? json_real(v) : json_null());
}

/* The directories of one group as a JSON array. */
static json_t *
gate_json_dirs(const struct compare_group *g)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < g->nruns; i++)
		json_array_append_new(a, json_string(g->runs[i]->dir));
	return (a);
}

/* One check as JSON: its rule, what it judged and the verdict. */
static json_t *
gate_json_check(const struct gate_result *r)
{
	const struct gate_rule *rule = r->rule;
	json_t *c = json_object();
	char limit[32];
	int measured = r->judged || r->inconclusive;

	gate_limit_text(rule, limit, sizeof limit);
	json_object_set_new(c, "rule", json_string(rule->name));
	json_object_set_new(c, "phase", json_string(r->key != NULL ?
	    r->key->phase : rule->phase));
	json_object_set_new(c, "metric", json_string(r->key != NULL ?
	    r->key->metric : rule->metric));
	json_object_set_new(c, "verdict", json_string(r->inconclusive ?
	    "inconclusive" : !r->judged ? "not judged" : r->failed ?
	    "failed" : "passed"));
	json_object_set_new(c, "reason", json_string(r->reason != NULL ?
	    r->reason : ""));
	json_object_set_new(c, "mean", json_string(rule->harmonic ?
	    "harmonic" : "arithmetic"));
	json_object_set_new(c, "better", json_string(gate_better_word(r)));
	json_object_set_new(c, "allowed", json_string(limit));
	json_object_set_new(c, "n_baseline", r->key != NULL || measured ?
	    json_integer(r->nbase) : json_null());
	json_object_set_new(c, "n_candidate", r->key != NULL || measured ?
	    json_integer(r->ncand) : json_null());
	json_object_set_new(c, "baseline_mean", measured ?
	    gate_json_num(r->base_mean) : json_null());
	json_object_set_new(c, "candidate_mean", measured ?
	    gate_json_num(r->cand_mean) : json_null());
	json_object_set_new(c, "change_pct", !measured ? json_null() :
	    r->unchanged ? json_real(0) : r->base_mean != 0 ?
	    gate_json_num((r->cand_mean - r->base_mean) /
	    fabs(r->base_mean) * 100) : json_null());
	json_object_set_new(c, "worse_pct", measured ?
	    gate_json_num(r->worse_pct) : json_null());
	json_object_set_new(c, "p_value", measured && r->tested ?
	    gate_json_num(r->p) : json_null());
	json_object_set_new(c, "p_adjusted", measured && r->tested ?
	    gate_json_num(r->p_adjusted) : json_null());
	json_object_set_new(c, "worse_bound_pct", measured &&
	    rule->require_significance && !r->no_variance ?
	    gate_json_num(r->worse_bound_pct) : json_null());
	json_object_set_new(c, "no_variance", json_boolean(measured &&
	    r->no_variance));
	json_object_set_new(c, "more_needed_a_side", r->inconclusive &&
	    r->need > 0 ? json_integer(r->need - (r->nbase < r->ncand ?
	    r->nbase : r->ncand)) : json_null());
	json_object_set_new(c, "alpha", json_real(rule->alpha));
	json_object_set_new(c, "message", json_string(r->message));
	return (c);
}

/*
 * A group's replication in numbers: its runs, the boots they came from,
 * and how many of the runs had no boot id (each counted as its own boot).
 */
static json_t *
gate_json_counts(const struct compare_group *g)
{
	int boots, unknown;

	boots = compare_boots(g, &unknown);
	return (json_pack("{s:i, s:i, s:i}", "runs", g->nruns, "boots", boots,
	    "runs_without_boot_id", unknown));
}

/*
 * The whole gate as one JSON object: the outcome and its counts, the
 * groups, the unit note and every check.  -1 when writing failed.
 */
int
gate_print_json(FILE *f, const struct compare_set *set,
    const struct gate_result *r, int n, const char *rules_path)
{
	struct gate_counts c;
	json_t *root, *checks;
	char *note;
	int i, rc;

	gate_count(r, n, &c);
	checks = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(checks, gate_json_check(&r[i]));
	note = compare_unit_note(set);
	root = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:s, s:o, "
	    "s:o, s:o, s:o, s:o}", "outcome", c.failed > 0 ? "failed" :
	    c.unjudged > c.inconclusive ? "not judged" : c.inconclusive > 0 ?
	    "inconclusive" : "passed", "checks_total", n, "failed", c.failed,
	    "inconclusive", c.inconclusive, "not_judged", c.unjudged -
	    c.inconclusive, "holm_adjusted", c.adjusted, "rules",
	    rules_path, "unit", set->unit == COMPARE_UNIT_BOOT ? "boot" :
	    "run", "unit_note", note, "baseline_counts",
	    gate_json_counts(&set->groups[0]), "candidate_counts",
	    gate_json_counts(&set->groups[1]),
	    "baseline", gate_json_dirs(&set->groups[0]), "candidate",
	    gate_json_dirs(&set->groups[1]), "checks", checks);
	free(note);
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return (rc != 0 || ferror(f) ? -1 : 0);
}
