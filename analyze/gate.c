/*
 * Gate rules and their verdicts.  A rule fails when the candidate is worse
 * than the baseline by more than its allowed change and, when the rule asks
 * for it, the difference is significant.  A rule is never passed without
 * evidence: one that matches no metric present on both sides, or whose
 * groups have fewer runs than it needs (min_runs, at least 2 when it asks
 * for significance), gets no verdict and says why.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <ini.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gate.h"
#include "output.h"
#include "input-file.h"
#include "log.h"

/* Parsing state for ini_parse. */
struct rules_ctx {
	struct gate_rules	*rules;
	char			*cause;
};

/* Parse "yes"/"no" and friends. */
static int
parse_bool(const char *v, int *out)
{
	if (strcasecmp(v, "yes") == 0 || strcasecmp(v, "true") == 0 ||
	    strcmp(v, "1") == 0 || strcasecmp(v, "on") == 0)
		*out = 1;
	else if (strcasecmp(v, "no") == 0 || strcasecmp(v, "false") == 0 ||
	    strcmp(v, "0") == 0 || strcasecmp(v, "off") == 0)
		*out = 0;
	else
		return (-1);
	return (0);
}

/* Parse a non-negative finite number, with an optional '%' suffix. */
static int
parse_number(const char *v, double *out, int *percent)
{
	char *end;
	double d;

	d = strtod(v, &end);
	if (end == v || !isfinite(d) || d < 0)
		return (-1);
	*out = d;
	if (percent != NULL)
		*percent = 0;
	if (*end == '%' && percent != NULL) {
		*percent = 1;
		end++;
	}
	while (*end == ' ' || *end == '\t')
		end++;
	return (*end == '\0' ? 0 : -1);
}

/* inih handler: one key of one rule; returns 0 on a bad key or value. */
static int
rules_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct rules_ctx *ctx = user;
	struct gate_rules *rules = ctx->rules;
	struct gate_rule *r;
	char **str = NULL;
	double d;

	if (section[0] == '\0') {
		if (ctx->cause == NULL)
			ctx->cause = xasprintf("'%s' is outside a [rule] "
			    "section", name);
		return (0);
	}
	if (rules->n == 0 || strcmp(rules->rules[rules->n - 1].name,
	    section) != 0) {
		rules->rules = xreallocarray(rules->rules, rules->n + 1,
		    sizeof *rules->rules);
		r = &rules->rules[rules->n++];
		memset(r, 0, sizeof *r);
		r->name = xstrdup(section);
		r->better_lower = -1;
		r->max_change = NAN;
		r->alpha = 0.05;
	}
	r = &rules->rules[rules->n - 1];
	if (strcmp(name, "metric") == 0)
		str = &r->metric;
	else if (strcmp(name, "phase") == 0)
		str = &r->phase;
	else if (strcmp(name, "unit") == 0)
		str = &r->unit;
	if (str != NULL) {
		free(*str);
		*str = xstrdup(value);
		return (1);
	}
	if (strcmp(name, "better") == 0) {
		if (strcmp(value, "lower") == 0)
			r->better_lower = 1;
		else if (strcmp(value, "higher") == 0)
			r->better_lower = 0;
		else {
			if (ctx->cause == NULL)
				ctx->cause = xasprintf("better: expected "
				    "lower or higher, not '%s'", value);
			return (0);
		}
		return (1);
	}
	if (strcmp(name, "max_change") == 0) {
		if (parse_number(value, &r->max_change, &r->percent) != 0) {
			if (ctx->cause == NULL)
				ctx->cause = xasprintf("max_change: expected "
				    "a number or a percentage like 5%%, not "
				    "'%s'", value);
			return (0);
		}
		return (1);
	}
	if (strcmp(name, "require_significance") == 0) {
		if (parse_bool(value, &r->require_significance) != 0) {
			if (ctx->cause == NULL)
				ctx->cause = xasprintf("require_significance: "
				    "expected yes or no, not '%s'", value);
			return (0);
		}
		return (1);
	}
	if (strcmp(name, "min_runs") == 0) {
		if (parse_number(value, &d, NULL) != 0 || d < 1 ||
		    d > 1000 || d != floor(d)) {
			if (ctx->cause == NULL)
				ctx->cause = xasprintf("min_runs: expected a "
				    "whole number from 1 to 1000, not '%s'",
				    value);
			return (0);
		}
		r->min_runs = (int)d;
		return (1);
	}
	if (strcmp(name, "mean") == 0) {
		if (strcmp(value, "arithmetic") == 0)
			r->harmonic = 0;
		else if (strcmp(value, "harmonic") == 0)
			r->harmonic = 1;
		else {
			if (ctx->cause == NULL)
				ctx->cause = xasprintf("mean: expected "
				    "arithmetic or harmonic, not '%s'", value);
			return (0);
		}
		return (1);
	}
	if (strcmp(name, "alpha") == 0) {
		if (parse_number(value, &r->alpha, NULL) != 0 ||
		    r->alpha <= 0 || r->alpha >= 1) {
			if (ctx->cause == NULL)
				ctx->cause = xasprintf("alpha: expected a "
				    "number between 0 and 1, not '%s'", value);
			return (0);
		}
		return (1);
	}
	if (ctx->cause == NULL)
		ctx->cause = xasprintf("unknown key '%s' (keys: metric, phase, "
		    "unit, better, max_change, require_significance, alpha, "
		    "min_runs, mean)", name);
	return (0);
}

/* Load a rules file; every rule needs better= and max_change=. */
int
gate_rules_load(const char *path, struct gate_rules *rules, char **cause)
{
	struct rules_ctx ctx = { rules, NULL };
	struct gate_rule *r;
	FILE *f;
	int rc, i;

	memset(rules, 0, sizeof *rules);
	if ((f = input_fopen(path, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	rc = ini_parse_file(f, rules_handler, &ctx);
	fclose(f);
	if (rc != 0) {
		rc = fail_with(cause, RB_EXIT_INPUT, "%s:%d: %s", path, rc,
		    ctx.cause != NULL ? ctx.cause : "expected [rule] or "
		    "key = value");
		free(ctx.cause);
		gate_rules_free(rules);
		return (rc);
	}
	for (i = 0; i < rules->n; i++) {
		r = &rules->rules[i];
		if (r->better_lower < 0 || isnan(r->max_change)) {
			rc = fail_with(cause, RB_EXIT_INPUT, "%s: rule [%s] "
			    "needs both better = lower|higher and max_change "
			    "= N or N%%", path, r->name);
			gate_rules_free(rules);
			return (rc);
		}
		if (r->metric == NULL)
			r->metric = xstrdup(r->name);
		if (r->phase == NULL)
			r->phase = xstrdup("*");
		if (r->unit == NULL)
			r->unit = xstrdup("*");
		/* A test needs two values a side; one value is no evidence. */
		if (r->min_runs == 0)
			r->min_runs = r->require_significance ? 2 : 1;
		if (r->require_significance && r->min_runs < 2)
			r->min_runs = 2;
	}
	if (rules->n == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: no rules",
		    path));
	return (0);
}

/* Free loaded rules. */
void
gate_rules_free(struct gate_rules *rules)
{
	int i;

	for (i = 0; i < rules->n; i++) {
		free(rules->rules[i].name);
		free(rules->rules[i].metric);
		free(rules->rules[i].phase);
		free(rules->rules[i].unit);
	}
	free(rules->rules);
	rules->rules = NULL;
	rules->n = 0;
}

/* Format the allowed change of a rule. */
static void
limit_text(const struct gate_rule *rule, char *buf, size_t len)
{
	snprintf(buf, len, "%g%s", rule->max_change, rule->percent ? "%" :
	    "");
}

/* A result without a verdict. */
static void
gate_unjudged(struct gate_result *res, const char *fmt, ...) RB_PRINTF(2, 3);

static void
gate_unjudged(struct gate_result *res, const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = xvasprintf(fmt, ap);
	va_end(ap);
	res->judged = 0;
	res->failed = 0;
	res->reason = xstrdup(why);
	if (res->key != NULL)
		res->message = xasprintf("not judged: %s [%s]: %s",
		    res->key->metric, res->key->phase, why);
	else
		res->message = xasprintf("not judged: rule [%s]: %s",
		    res->rule->name, why);
	free(why);
}

/*
 * The values a rule compares, one per unit of the set (boot or run): for a
 * harmonic rule their reciprocals (the harmonic mean is the reciprocal of
 * their mean, and the test runs on them); -1 when a harmonic rule meets a
 * value that is not positive.
 */
static int
gate_values(const struct gate_rule *rule, const struct compare_set *set,
    const struct compare_group *g, const struct compare_key *key,
    double *out, int *n)
{
	*n = compare_unit_values(g, key, set->unit, rule->harmonic, out);
	return (*n < 0 ? -1 : 0);
}

/* Judge one rule on one key. */
static void
gate_judge(const struct gate_rule *rule, const struct compare_set *set,
    const struct compare_key *key, enum compare_test test,
    struct gate_result *res)
{
	const struct compare_group *gb = &set->groups[0];
	const struct compare_group *gc = &set->groups[1];
	struct compare_cell cell;
	struct stats_desc db;
	char limit[32], pbuf[64];
	const char *why, *unit, *mean = rule->harmonic ? "Hmean" : "Amean";
	double *vb, *vc;
	int exceeds, bad;

	vb = xcalloc(gb->nruns + 1, sizeof *vb);
	vc = xcalloc(gc->nruns + 1, sizeof *vc);
	bad = gate_values(rule, set, gb, key, vb, &res->nbase) != 0;
	bad |= gate_values(rule, set, gc, key, vc, &res->ncand) != 0;
	if (bad) {
		gate_unjudged(res, "the harmonic mean needs positive values");
		goto out;
	}
	if (res->nbase < rule->min_runs || res->ncand < rule->min_runs) {
		unit = set->unit == COMPARE_UNIT_BOOT ? "boot" : "run";
		gate_unjudged(res, "baseline has %d %s%s, candidate %d; the "
		    "rule needs %d a side%s", res->nbase, unit,
		    res->nbase == 1 ? "" : "s", res->ncand, rule->min_runs,
		    set->unit == COMPARE_UNIT_BOOT ? " (runs within one boot "
		    "count once)" : "");
		goto out;
	}
	compare_cell_values(vb, res->nbase, vc, res->ncand, 0, test,
	    rule->alpha, &cell);
	stats_describe(vb, res->nbase, 0.95, &db);
	res->judged = 1;
	res->base_mean = rule->harmonic ? 1 / db.mean : db.mean;
	res->cand_mean = rule->harmonic ? 1 / cell.desc.mean :
	    cell.desc.mean;
	res->unchanged = cell.unchanged;
	res->tested = cell.tested;
	res->p = cell.p;
	res->worse = res->unchanged ? 0 : res->cand_mean - res->base_mean;
	if (!rule->better_lower)
		res->worse = -res->worse;
	res->worse_pct = res->base_mean != 0 ? res->worse /
	    fabs(res->base_mean) * 100 : (res->worse == 0 ? 0 :
	    copysign(INFINITY, res->worse));
	exceeds = rule->percent ? res->worse_pct > rule->max_change :
	    res->worse > rule->max_change;
	if (res->unchanged) {
		res->failed = 0;
		why = "no change";
	} else if (!exceeds) {
		res->failed = 0;
		why = "within the allowed change";
	} else if (!rule->require_significance) {
		res->failed = 1;
		why = "worse than allowed";
	} else if (!res->tested) {
		/* min_runs >= 2 makes this unreachable; never pass it. */
		gate_unjudged(res, "significance could not be tested");
		goto out;
	} else if (res->p < rule->alpha) {
		res->failed = 1;
		why = "worse than allowed and significant";
	} else {
		res->failed = 0;
		why = "worse than allowed but not significant";
	}
	res->reason = xstrdup(why);
	limit_text(rule, limit, sizeof limit);
	if (res->tested)
		snprintf(pbuf, sizeof pbuf, "p=%.4g (alpha %g)", res->p,
		    rule->alpha);
	else if (res->unchanged)
		snprintf(pbuf, sizeof pbuf, "no test (no change)");
	else
		snprintf(pbuf, sizeof pbuf, "no test (significance not "
		    "required)");
	res->message = xasprintf("%s: %s [%s]: %s baseline %.6g (n=%d), "
	    "candidate %.6g (n=%d), %s by %.3g%% (allowed %s, better %s), %s: "
	    "%s", res->failed ? "FAIL" : "pass", key->metric, key->phase, mean,
	    res->base_mean, res->nbase, res->cand_mean, res->ncand,
	    res->worse > 0 ? "worse" : "better or equal", fabs(res->worse_pct),
	    limit, rule->better_lower ? "lower" : "higher", pbuf, why);
out:
	free(vb);
	free(vc);
}

/* A new, zeroed result at the end of *res. */
static struct gate_result *
gate_add(struct gate_result **res, int *n, const struct gate_rule *rule,
    const struct compare_key *key)
{
	struct gate_result *r;

	*res = xreallocarray(*res, *n + 1, sizeof **res);
	r = &(*res)[(*n)++];
	memset(r, 0, sizeof *r);
	r->rule = rule;
	r->key = key;
	r->p = NAN;
	return (r);
}

/*
 * Apply every rule to every key it matches.  A rule that matches no metric
 * present on both sides yields one result with key NULL, not judged.
 * Returns the number of failed checks (gate_count has every count).
 */
int
gate_evaluate(const struct gate_rules *rules, const struct compare_set *set,
    enum compare_test test, struct gate_result **out, int *nout)
{
	const struct gate_rule *rule;
	const struct compare_key *key;
	struct gate_result *res = NULL;
	double *tmp;
	int i, k, n = 0, matched, most, failed;

	most = set->groups[0].nruns > set->groups[1].nruns ?
	    set->groups[0].nruns : set->groups[1].nruns;
	tmp = xcalloc(most + 1, sizeof *tmp);
	for (i = 0; i < rules->n; i++) {
		rule = &rules->rules[i];
		matched = 0;
		for (k = 0; k < set->nkeys; k++) {
			key = &set->keys[k];
			if (fnmatch(rule->metric, key->metric, 0) != 0 ||
			    fnmatch(rule->phase, key->phase, 0) != 0 ||
			    fnmatch(rule->unit, key->unit, 0) != 0)
				continue;
			if (compare_values(&set->groups[0], key, tmp) == 0 ||
			    compare_values(&set->groups[1], key, tmp) == 0)
				continue;
			gate_judge(rule, set, key, test, gate_add(&res, &n,
			    rule, key));
			matched = 1;
		}
		if (!matched)
			gate_unjudged(gate_add(&res, &n, rule, NULL), "matches "
			    "no metric present in both groups (metric %s, "
			    "phase %s, unit %s)", rule->metric, rule->phase,
			    rule->unit);
	}
	free(tmp);
	*out = res;
	*nout = n;
	for (i = failed = 0; i < n; i++)
		failed += res[i].failed;
	return (failed);
}

/* Free gate results. */
void
gate_results_free(struct gate_result *r, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(r[i].reason);
		free(r[i].message);
	}
	free(r);
}

/* Count results by kind. */
void
gate_count(const struct gate_result *r, int n, struct gate_counts *c)
{
	int i;

	memset(c, 0, sizeof *c);
	c->checks = n;
	for (i = 0; i < n; i++) {
		if (!r[i].judged)
			c->unjudged++;
		else if (r[i].failed)
			c->failed++;
	}
}

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

/* The one-word outcome of a gate (what the exit code says). */
const char *
gate_outcome(const struct gate_counts *c)
{
	if (c->failed > 0)
		return ("FAILED");
	if (c->unjudged > 0)
		return ("NOT JUDGED");
	return ("passed");
}

/* Markdown summary for a CI comment. */
int
gate_write_markdown(FILE *f, const struct compare_set *set,
    const struct gate_result *r, int n)
{
	struct gate_counts c;
	char limit[32], *note;
	int i;

	gate_count(r, n, &c);
	fprintf(f, "## regionbench gate: %s%s%s\n\n", c.failed > 0 ||
	    c.unjudged > 0 ? "**" : "", gate_outcome(&c), c.failed > 0 ||
	    c.unjudged > 0 ? "**" : "");
	fprintf(f, "%d checks, %d failed, %d not judged; baseline %d run(s), "
	    "candidate %d run(s).\n\n", n, c.failed, c.unjudged,
	    set->groups[0].nruns, set->groups[1].nruns);
	note = compare_unit_note(set);
	fprintf(f, "%s\n\n", note);
	free(note);
	fprintf(f, "| Result | Rule | Phase | Metric | Baseline | Candidate "
	    "| Change | Allowed | p |\n"
	    "|---|---|---|---|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < n; i++) {
		limit_text(r[i].rule, limit, sizeof limit);
		if (!r[i].judged) {
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
		fprintf(f, "| %s | ", r[i].failed ? ":x: FAIL" : "pass");
		md_cell(f, r[i].rule->name);
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
		    r[i].rule->better_lower ? "lower" : "higher");
		if (r[i].tested)
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

	gate_count(r, n, &c);
	for (i = 0; i < n; i++)
		fprintf(f, "%s\n", r[i].message);
	fprintf(f, "gate: %s (%d check%s, %d failed, %d not judged; "
	    "baseline %d run%s, candidate %d run%s; rules %s)\n",
	    gate_outcome(&c), n, n == 1 ? "" : "s", c.failed, c.unjudged,
	    nb, nb == 1 ? "" : "s", nc, nc == 1 ? "" : "s", rules_path);
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

	limit_text(rule, limit, sizeof limit);
	json_object_set_new(c, "rule", json_string(rule->name));
	json_object_set_new(c, "phase", json_string(r->key != NULL ?
	    r->key->phase : rule->phase));
	json_object_set_new(c, "metric", json_string(r->key != NULL ?
	    r->key->metric : rule->metric));
	json_object_set_new(c, "verdict", json_string(!r->judged ?
	    "not judged" : r->failed ? "failed" : "passed"));
	json_object_set_new(c, "reason", json_string(r->reason != NULL ?
	    r->reason : ""));
	json_object_set_new(c, "mean", json_string(rule->harmonic ?
	    "harmonic" : "arithmetic"));
	json_object_set_new(c, "better", json_string(rule->better_lower ?
	    "lower" : "higher"));
	json_object_set_new(c, "allowed", json_string(limit));
	json_object_set_new(c, "n_baseline", r->key != NULL ?
	    json_integer(r->nbase) : json_null());
	json_object_set_new(c, "n_candidate", r->key != NULL ?
	    json_integer(r->ncand) : json_null());
	json_object_set_new(c, "baseline_mean", r->judged ?
	    gate_json_num(r->base_mean) : json_null());
	json_object_set_new(c, "candidate_mean", r->judged ?
	    gate_json_num(r->cand_mean) : json_null());
	json_object_set_new(c, "change_pct", !r->judged ? json_null() :
	    r->unchanged ? json_real(0) : r->base_mean != 0 ?
	    gate_json_num((r->cand_mean - r->base_mean) /
	    fabs(r->base_mean) * 100) : json_null());
	json_object_set_new(c, "worse_pct", r->judged ?
	    gate_json_num(r->worse_pct) : json_null());
	json_object_set_new(c, "p_value", r->judged && r->tested ?
	    gate_json_num(r->p) : json_null());
	json_object_set_new(c, "alpha", json_real(rule->alpha));
	json_object_set_new(c, "message", json_string(r->message));
	return (c);
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
	root = json_pack("{s:s, s:i, s:i, s:i, s:s, s:s, s:o, s:o, s:o}",
	    "outcome", c.failed > 0 ? "failed" : c.unjudged > 0 ?
	    "not judged" : "passed", "checks_total", n, "failed", c.failed,
	    "not_judged", c.unjudged, "rules", rules_path, "unit", note,
	    "baseline", gate_json_dirs(&set->groups[0]), "candidate",
	    gate_json_dirs(&set->groups[1]), "checks", checks);
	free(note);
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return (rc != 0 || ferror(f) ? -1 : 0);
}
