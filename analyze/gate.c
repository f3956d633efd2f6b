/*
 * Gate rules and their verdicts.  A rule fails when the candidate is worse
 * than the baseline by more than its allowed change and, when the rule asks
 * for it, the difference is significant.  Groups too small for a test are
 * judged on the threshold alone (the conservative choice for CI), and the
 * report says so.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <ini.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "gate.h"
#include "output.h"
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
		    "unit, better, max_change, require_significance, alpha)",
		    name);
	return (0);
}

/* Load a rules file; every rule needs better= and max_change=. */
int
gate_rules_load(const char *path, struct gate_rules *rules, char **cause)
{
	struct rules_ctx ctx = { rules, NULL };
	struct gate_rule *r;
	int rc, i;

	memset(rules, 0, sizeof *rules);
	rc = ini_parse(path, rules_handler, &ctx);
	if (rc == -1)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: cannot open: %s",
		    path, strerror(errno)));
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

/* Judge one rule on one key. */
static void
gate_judge(const struct gate_rule *rule, const struct compare_set *set,
    const struct compare_key *key, enum compare_test test,
    struct gate_result *res)
{
	struct compare_cell base, cand;
	char limit[32], pbuf[64];
	const char *verdict, *why;
	int exceeds;

	compare_cell(set, 0, 0, key, test, rule->alpha, &base);
	compare_cell(set, 0, 1, key, test, rule->alpha, &cand);
	res->base = base.desc;
	res->cand = cand.desc;
	res->tested = cand.tested;
	res->p = cand.p;
	res->worse = cand.desc.mean - base.desc.mean;
	if (!rule->better_lower)
		res->worse = -res->worse;
	res->worse_pct = base.desc.mean != 0 ? res->worse /
	    fabs(base.desc.mean) * 100 : (res->worse == 0 ? 0 :
	    copysign(INFINITY, res->worse));
	exceeds = rule->percent ? res->worse_pct > rule->max_change :
	    res->worse > rule->max_change;
	if (!exceeds) {
		res->failed = 0;
		why = "within the allowed change";
	} else if (!rule->require_significance) {
		res->failed = 1;
		why = "worse than allowed";
	} else if (!res->tested) {
		res->failed = 1;
		why = "worse than allowed; significance not testable with "
		    "fewer than 2 runs per side, judged on the threshold "
		    "alone";
	} else if (res->p < rule->alpha) {
		res->failed = 1;
		why = "worse than allowed and significant";
	} else {
		res->failed = 0;
		why = "worse than allowed but not significant";
	}
	limit_text(rule, limit, sizeof limit);
	if (res->tested)
		snprintf(pbuf, sizeof pbuf, "p=%.4g (alpha %g)", res->p,
		    rule->alpha);
	else
		snprintf(pbuf, sizeof pbuf, "no test (n<2)");
	verdict = res->failed ? "FAIL" : "pass";
	res->message = xasprintf("%s: %s [%s]: baseline %.6g (n=%d), "
	    "candidate %.6g (n=%d), %s by %.3g%% (allowed %s, better %s), %s: "
	    "%s", verdict, key->metric, key->phase, base.desc.mean,
	    base.desc.n, cand.desc.mean, cand.desc.n, res->worse > 0 ?
	    "worse" : "better or equal", fabs(res->worse_pct), limit,
	    rule->better_lower ? "lower" : "higher", pbuf, why);
}

/*
 * Apply every rule to every key it matches.  Returns the number of failed
 * results; a rule that matches nothing yields one result with key NULL.
 */
int
gate_evaluate(const struct gate_rules *rules, const struct compare_set *set,
    enum compare_test test, struct gate_result **out, int *nout)
{
	const struct gate_rule *rule;
	const struct compare_key *key;
	struct gate_result *res = NULL;
	double *tmp;
	int i, k, n = 0, matched, failed = 0, most;

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
			res = xreallocarray(res, n + 1, sizeof *res);
			memset(&res[n], 0, sizeof *res);
			res[n].rule = rule;
			res[n].key = key;
			gate_judge(rule, set, key, test, &res[n]);
			failed += res[n].failed;
			n++;
			matched = 1;
		}
		if (!matched) {
			res = xreallocarray(res, n + 1, sizeof *res);
			memset(&res[n], 0, sizeof *res);
			res[n].rule = rule;
			res[n].message = xasprintf("skipped: rule [%s] matches "
			    "no metric present in both groups (metric %s, "
			    "phase %s, unit %s)", rule->name, rule->metric,
			    rule->phase, rule->unit);
			n++;
		}
	}
	free(tmp);
	*out = res;
	*nout = n;
	return (failed);
}

/* Free gate results. */
void
gate_results_free(struct gate_result *r, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(r[i].message);
	free(r);
}

/* Count results by kind. */
static void
gate_count(const struct gate_result *r, int n, int *failed, int *skipped)
{
	int i;

	*failed = *skipped = 0;
	for (i = 0; i < n; i++) {
		if (r[i].key == NULL)
			(*skipped)++;
		else if (r[i].failed)
			(*failed)++;
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

/* JUnit XML: one testcase per rule and metric it matched. */
int
gate_write_junit(FILE *f, const struct compare_set *set,
    const struct gate_result *r, int n)
{
	int i, failed, skipped;

	gate_count(r, n, &failed, &skipped);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"regionbench gate\" tests=\"%d\" "
	    "failures=\"%d\" errors=\"0\" skipped=\"%d\">\n"
	    "  <testsuite name=\"regionbench gate\" tests=\"%d\" "
	    "failures=\"%d\" errors=\"0\" skipped=\"%d\">\n"
	    "    <properties>\n"
	    "      <property name=\"baseline\" value=\"", n, failed, skipped,
	    n, failed, skipped);
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
		if (r[i].key == NULL) {
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

/* Markdown summary for a CI comment. */
int
gate_write_markdown(FILE *f, const struct compare_set *set,
    const struct gate_result *r, int n)
{
	char limit[32];
	int i, failed, skipped;

	gate_count(r, n, &failed, &skipped);
	fprintf(f, "## regionbench gate: %s\n\n",
	    failed > 0 ? "**FAILED**" : "passed");
	fprintf(f, "%d checks, %d failed, %d skipped; baseline %d run(s), "
	    "candidate %d run(s).\n\n", n, failed, skipped,
	    set->groups[0].nruns, set->groups[1].nruns);
	fprintf(f, "| Result | Rule | Phase | Metric | Baseline | Candidate "
	    "| Change | Allowed | p |\n"
	    "|---|---|---|---|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < n; i++) {
		limit_text(r[i].rule, limit, sizeof limit);
		if (r[i].key == NULL) {
			fprintf(f, "| skipped | ");
			md_cell(f, r[i].rule->name);
			fprintf(f, " | ");
			md_cell(f, r[i].rule->phase);
			fprintf(f, " | ");
			md_cell(f, r[i].rule->metric);
			fprintf(f, " | | | | %s | |\n", limit);
			continue;
		}
		fprintf(f, "| %s | ", r[i].failed ? ":x: FAIL" : "pass");
		md_cell(f, r[i].rule->name);
		fprintf(f, " | ");
		md_cell(f, r[i].key->phase);
		fprintf(f, " | `");
		md_cell(f, r[i].key->metric);
		fprintf(f, "` | %.6g (n=%d) | %.6g (n=%d) | ", r[i].base.mean,
		    r[i].base.n, r[i].cand.mean, r[i].cand.n);
		if (r[i].base.mean != 0)
			fprintf(f, "%+.2f%%", (r[i].cand.mean -
			    r[i].base.mean) / fabs(r[i].base.mean) * 100);
		else
			fprintf(f, "%+.6g", r[i].cand.mean - r[i].base.mean);
		fprintf(f, " | %s (better %s) | ", limit,
		    r[i].rule->better_lower ? "lower" : "higher");
		if (r[i].tested)
			fprintf(f, "%.3g |\n", r[i].p);
		else
			fprintf(f, "n<2 |\n");
	}
	for (i = 0; i < n; i++) {
		if (r[i].failed) {
			fprintf(f, "\n- ");
			md_cell(f, r[i].message);
		}
	}
	fprintf(f, "\n");
	return (ferror(f) ? -1 : 0);
}

/*
 * The rules file to use when none is named: gate-rules.ini in
 * $REGIONBENCH_DATADIR when it is there, else the installed one.
 */
char *
gate_default_rules(void)
{
	const char *env = getenv("REGIONBENCH_DATADIR");
	struct stat sb;
	char *path;

	if (env != NULL && env[0] != '\0') {
		path = xasprintf("%s/gate-rules.ini", env);
		if (stat(path, &sb) == 0)
			return (path);
		free(path);
	}
	return (xstrdup(PKGDATADIR "/gate-rules.ini"));
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
 * Print each check's message and the verdict line; a rule that matched
 * nothing is a warning on stderr.  failed: how many checks failed.
 */
void
gate_print(FILE *f, const struct compare_set *set,
    const struct gate_result *r, int n, int failed, const char *rules_path)
{
	int i, nb = set->groups[0].nruns, nc = set->groups[1].nruns;

	for (i = 0; i < n; i++) {
		if (r[i].key == NULL)
			log_warnx("%s", r[i].message);
		else
			fprintf(f, "%s\n", r[i].message);
	}
	fprintf(f, "gate: %s (%d check%s, %d failed; baseline %d run%s, "
	    "candidate %d run%s; rules %s)\n", failed > 0 ? "FAILED" :
	    "passed", n, n == 1 ? "" : "s", failed, nb, nb == 1 ? "" : "s",
	    nc, nc == 1 ? "" : "s", rules_path);
}
