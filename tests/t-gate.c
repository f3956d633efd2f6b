/*
 * analyze/gate*.c: rules files (defaults, every key, every error with
 * file:line) and verdicts on a baseline and a candidate group made in
 * memory (tests/fake-runs.h): pass, fail, not judged, percentage and
 * absolute thresholds, both directions, significance with Welch and
 * Mann-Whitney, groups too small for a rule, and the JUnit and markdown
 * reports.
 *
 * The Welch p-values were computed independently with SciPy 1.10.1 (Debian
 * python3-scipy): scipy.stats.ttest_ind(base, cand, equal_var=False).  The
 * exact Mann-Whitney p-value (4 against 4 values) was counted by brute
 * force over every choice of ranks (Python itertools.combinations).
 *
 *   key                        baseline             candidate
 *   fill spread_index.twmean   1.00 1.02 0.98 1.01  1.20 1.22 1.18 1.21
 *     +19.950124688279296%; Welch p = 3.0904261100621347e-06,
 *     Mann-Whitney exact p = 2/70 = 0.02857142857142857
 *   fill used_pages.max        1000 1100 900 1000   1100 1300 900 1100
 *     +10%; Welch p = 0.329486987166182
 *   drain workload.rate        50 52 48 50          60 61 59 60
 *     +20%; Welch p = 0.00022988958185019513
 *   fill only_base             1 1 1 1              (none)
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake-runs.h"
#include "gate.h"
#include "log.h"
#include "tap.h"

static char scratch[4096];

/* The rules of the verdict tests; the comments give each verdict. */
static const char rules_text[] =
    "# spread: +19.95% > 5%: FAIL\n"
    "[spread_index.twmean]\n"
    "better = lower\n"
    "max_change = 5%\n"
    "\n"
    "; spread, significance at 1%: Welch FAIL, Mann-Whitney pass\n"
    "[spread-significant]\n"
    "metric = spread_index.*\n"
    "better = lower\n"
    "max_change = 5%\n"
    "require_significance = yes\n"
    "alpha = 0.01\n"
    "\n"
    "# used: +10% > 5% but p = 0.33: pass\n"
    "[used]\n"
    "metric = used_pages.max\n"
    "better = lower\n"
    "max_change = 5%\n"
    "require_significance = yes\n"
    "\n"
    "# used, absolute: 100 pages worse, 200 allowed: pass\n"
    "[used-absolute]\n"
    "metric = used_pages.max\n"
    "better = lower\n"
    "max_change = 200\n"
    "\n"
    "# rate went up, higher is better: pass\n"
    "[rate]\n"
    "metric = workload.rate\n"
    "better = higher\n"
    "max_change = 1%\n"
    "\n"
    "# every drain metric in ops/s, read as lower is better: FAIL\n"
    "[drain-any]\n"
    "metric = *\n"
    "phase = drain\n"
    "unit = ops/s\n"
    "better = lower\n"
    "max_change = 10%\n"
    "\n"
    "# only in the baseline: not judged\n"
    "[only-base]\n"
    "metric = only_base\n"
    "better = lower\n"
    "max_change = 1%\n";

/* Write text to the scratch rules file and return its path. */
static const char *
rules_file(const char *text)
{
	static char path[4200];
	FILE *f;

	snprintf(path, sizeof path, "%s/rules.ini", scratch);
	if ((f = fopen(path, "w")) == NULL || fputs(text, f) == EOF ||
	    fclose(f) != 0) {
		perror(path);
		exit(99);
	}
	return (path);
}

/* A bad rules file: exit 2 and a cause holding where and what. */
static void
check_bad(const char *text, const char *where, const char *what)
{
	struct gate_rules rules;
	char *cause = NULL;
	int rc;

	rc = gate_rules_load(rules_file(text), &rules, &cause);
	if (!tap_ok(rc == -RB_EXIT_INPUT && cause != NULL &&
	    strstr(cause, where) != NULL && strstr(cause, what) != NULL,
	    "bad rules: '%s' at %s", what, where))
		tap_diag("rc %d, cause: %s", rc, cause ? cause : "(none)");
	free(cause);
}

/* Loading rules: defaults and every key. */
static void
test_load(void)
{
	struct gate_rules rules;
	struct gate_rule *r;
	char *cause = NULL;
	int rc;

	rc = gate_rules_load(rules_file(rules_text), &rules, &cause);
	if (!tap_ok(rc == 0, "rules: load (%s)", cause ? cause : "ok"))
		return;
	tap_eq_u64(rules.n, 7, "rules: 7 rules");
	r = &rules.rules[0];
	tap_eq_str(r->metric, "spread_index.twmean", "rules: metric defaults "
	    "to the section name");
	tap_ok(strcmp(r->phase, "*") == 0 && strcmp(r->unit, "*") == 0,
	    "rules: phase and unit default to every one");
	tap_ok(r->better_lower == 1 && r->max_change == 5 && r->percent,
	    "rules: better = lower, max_change = 5%%");
	tap_ok(!r->require_significance && r->alpha == 0.05, "rules: no "
	    "significance asked, alpha 0.05 by default");
	r = &rules.rules[1];
	tap_ok(r->require_significance && r->alpha == 0.01 &&
	    strcmp(r->metric, "spread_index.*") == 0, "rules: "
	    "require_significance, alpha and a metric pattern");
	r = &rules.rules[3];
	tap_ok(r->max_change == 200 && !r->percent, "rules: an absolute "
	    "max_change");
	r = &rules.rules[4];
	tap_ok(r->better_lower == 0, "rules: better = higher");
	r = &rules.rules[5];
	tap_ok(strcmp(r->phase, "drain") == 0 && strcmp(r->unit, "ops/s") ==
	    0, "rules: phase and unit");
	gate_rules_free(&rules);
	tap_ok(rules.n == 0 && rules.rules == NULL, "rules: freed");

	if (tap_ok(gate_rules_load(rules_file("[r]\nbetter=lower\n"
	    "max_change=2.5\nrequire_significance=On\n"), &rules, &cause) ==
	    0, "rules: compact and mixed-case values")) {
		tap_ok(rules.rules[0].max_change == 2.5 &&
		    !rules.rules[0].percent &&
		    rules.rules[0].require_significance == 1,
		    "rules: 2.5 absolute, On is yes");
		gate_rules_free(&rules);
	}
}

/* Every rule error names file:line and what was expected. */
static void
test_errors(void)
{
	struct gate_rules rules;
	char *cause = NULL;
	char missing[4300];

	check_bad("better = lower\n", "rules.ini:1:", "outside a [rule]");
	check_bad("[r]\nbetter = sideways\n", "rules.ini:2:",
	    "expected lower or higher, not 'sideways'");
	check_bad("[r]\nbetter = lower\nmax_change = -5%\n", "rules.ini:3:",
	    "max_change: expected a number or a percentage");
	check_bad("[r]\nmax_change = 5%%\n", "rules.ini:2:", "max_change");
	check_bad("[r]\nmax_change = five\n", "rules.ini:2:", "max_change");
	check_bad("[r]\nalpha = 1\n", "rules.ini:2:",
	    "alpha: expected a number between 0 and 1, not '1'");
	check_bad("[r]\nalpha = 0\n", "rules.ini:2:", "alpha");
	check_bad("[r]\nrequire_significance = maybe\n", "rules.ini:2:",
	    "require_significance: expected yes or no");
	check_bad("[r]\n\n# note\ncolour = red\n", "rules.ini:4:",
	    "unknown key 'colour'");
	check_bad("[r]\nbetter = lower\n[r2\n", "rules.ini:3:",
	    "expected [rule] or key = value");
	check_bad("[ok]\nbetter = lower\nmax_change = 1\n[r]\nbetter = lower\n",
	    "rules.ini: rule [r]", "needs max_change");
	check_bad("# nothing\n", "rules.ini", "no rules");
	snprintf(missing, sizeof missing, "%s/missing.ini", scratch);
	tap_ok(gate_rules_load(missing, &rules, &cause) == -RB_EXIT_INPUT &&
	    cause != NULL && strstr(cause, "missing.ini: cannot open") != NULL,
	    "a missing rules file is bad input (%s)", cause ? cause : "none");
	free(cause);
}

/* The baseline and candidate groups of the table at the top. */
static struct compare_set *
verdict_set(int nruns)
{
	static const double spread_b[] = { 1.00, 1.02, 0.98, 1.01 };
	static const double spread_c[] = { 1.20, 1.22, 1.18, 1.21 };
	static const double used_b[] = { 1000, 1100, 900, 1000 };
	static const double used_c[] = { 1100, 1300, 900, 1100 };
	static const double rate_b[] = { 50, 52, 48, 50 };
	static const double rate_c[] = { 60, 61, 59, 60 };
	static const double only_b[] = { 1, 1, 1, 1 };
	struct compare_set *set = xcalloc(1, sizeof *set);

	fake_group(set, "baseline", nruns);
	fake_group(set, "candidate", nruns);
	fake_values(set, 0, "fill", "spread_index.twmean", "ratio", spread_b);
	fake_values(set, 1, "fill", "spread_index.twmean", "ratio", spread_c);
	fake_values(set, 0, "fill", "used_pages.max", "pages", used_b);
	fake_values(set, 1, "fill", "used_pages.max", "pages", used_c);
	fake_values(set, 0, "drain", "workload.rate", "ops/s", rate_b);
	fake_values(set, 1, "drain", "workload.rate", "ops/s", rate_c);
	fake_values(set, 0, "fill", "only_base", "pages", only_b);
	return (set);
}

/* Does result r come from rule name, failed as want, saying why? */
static void
check_result(const struct gate_result *r, const char *rule, int failed,
    const char *why)
{
	if (!tap_ok(strcmp(r->rule->name, rule) == 0 && r->key != NULL &&
	    r->failed == failed && strstr(r->message, why) != NULL,
	    "[%s]: %s, %s", rule, failed ? "FAIL" : "pass", why))
		tap_diag("rule [%s]: %s", r->rule->name, r->message);
}

/* Text a report writer produced. */
static char *
report_text(int (*write)(FILE *, const struct compare_set *,
    const struct gate_result *, int), const struct compare_set *set,
    const struct gate_result *r, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return (NULL);
	if (write(f, set, r, n) != 0)
		tap_ok(0, "report written");
	fclose(f);
	return (buf);
}

/* Verdicts with Welch's test, then with Mann-Whitney, and the reports. */
static void
test_verdicts(void)
{
	struct compare_set *set = verdict_set(4);
	struct gate_rules rules;
	struct gate_result *r;
	char *cause = NULL, *text;
	int n, failed;

	if (!tap_ok(gate_rules_load(rules_file(rules_text), &rules,
	    &cause) == 0, "verdicts: rules"))
		return;
	failed = gate_evaluate(&rules, set, COMPARE_WELCH, &r, &n);
	tap_eq_u64(n, 7, "welch: 7 results, one per rule and key");
	tap_eq_u64(failed, 3, "welch: 3 failed");
	check_result(&r[0], "spread_index.twmean", 1, "worse than allowed");
	tap_near(r[0].worse_pct, 19.950124688279296, 1e-9,
	    "welch: spread is 19.95%% worse");
	tap_near(r[0].worse, 0.2, 1e-12, "welch: by 0.2");
	check_result(&r[1], "spread-significant", 1,
	    "worse than allowed and significant");
	tap_near(r[1].p, 3.0904261100621347e-06, 1e-12,
	    "welch: spread p (scipy)");
	check_result(&r[2], "used", 0,
	    "worse than allowed but not significant");
	tap_ok(r[2].inconclusive && !r[2].judged && strncmp(r[2].message,
	    "inconclusive: used_pages.max [fill]", 35) == 0 &&
	    strstr(r[2].message, "runs a side") != NULL && r[2].need > 4,
	    "welch: [used] is inconclusive, with the runs that would decide "
	    "it (%d a side)", r[2].need);
	tap_near(r[2].p, 0.329486987166182, 1e-9, "welch: used p (scipy)");
	check_result(&r[3], "used-absolute", 0, "within the allowed change");
	tap_near(r[3].worse, 100, 1e-12, "used, absolute: 100 pages worse");
	check_result(&r[4], "rate", 0, "within the allowed change");
	tap_near(r[4].worse_pct, -20, 1e-12, "rate, better higher: 20%% up "
	    "is 20%% better");
	tap_ok(strstr(r[4].message, "better or equal") != NULL, "rate: the "
	    "message says better");
	check_result(&r[5], "drain-any", 1, "worse than allowed");
	tap_ok(strcmp(r[5].key->metric, "workload.rate") == 0 &&
	    strcmp(r[5].key->phase, "drain") == 0, "drain-any: phase and unit "
	    "patterns pick drain workload.rate only");
	tap_ok(r[6].key == NULL && !r[6].failed &&
	    strcmp(r[6].rule->name, "only-base") == 0 &&
	    !r[6].judged && strstr(r[6].message, "not judged: rule "
	    "[only-base]: matches no metric present in both groups") ==
	    r[6].message,
	    "only-base: a metric only the baseline has is not judged");

	text = report_text(gate_write_markdown, set, r, n);
	tap_ok(text != NULL && strstr(text, "## regionbench gate: "
	    "**FAILED**") != NULL && strstr(text, "7 checks, 3 failed, 1 "
	    "inconclusive, 1 not judged; baseline 4 run(s), candidate 4 "
	    "run(s).") != NULL,
	    "markdown: verdict and counts");
	tap_ok(text != NULL && strstr(text, "| :x: FAIL | spread_index.twmean "
	    "| fill | `spread_index.twmean` | Amean 1.0025 (n=4) | 1.2025 (n=4) | "
	    "+19.95% | 5% (better lower) |") != NULL,
	    "markdown: the failed spread row");
	tap_ok(text != NULL && strstr(text, "| :grey_question: not judged | "
	    "only-base |") != NULL, "markdown: the row not judged");
	free(text);
	text = report_text(gate_write_junit, set, r, n);
	tap_ok(text != NULL && strstr(text, "<testsuites name=\"regionbench "
	    "gate\" tests=\"7\" failures=\"3\" errors=\"0\" skipped=\"2\">") !=
	    NULL, "junit: counts");
	tap_ok(text != NULL && strstr(text, "<property name=\"baseline\" "
	    "value=\"baseline-1 baseline-2 baseline-3 baseline-4\"/>") != NULL,
	    "junit: the baseline directories");
	tap_ok(text != NULL && strstr(text, "<testcase classname=\"gate."
	    "drain-any\" name=\"drain: workload.rate\">\n      <failure "
	    "type=\"regression\"") != NULL, "junit: a failure per failed "
	    "check");
	tap_ok(text != NULL && strstr(text, "<testcase classname=\"gate."
	    "only-base\" name=\"only_base\">\n      <skipped") != NULL,
	    "junit: skipped for a rule that matched nothing");
	free(text);
	gate_results_free(r, n);

	failed = gate_evaluate(&rules, set, COMPARE_MANN_WHITNEY, &r, &n);
	tap_eq_u64(failed, 2, "mann-whitney: 2 failed");
	check_result(&r[1], "spread-significant", 0,
	    "worse than allowed, and the test cannot reach alpha with so few "
	    "values");
	tap_ok(r[1].inconclusive, "mann-whitney: 4 against 4 at alpha 0.01 "
	    "is inconclusive (its smallest p is 2/70)");
	tap_near(r[1].p, 0.02857142857142857, 1e-9,
	    "mann-whitney: spread exact p (2/70) is above alpha 0.01");
	gate_results_free(r, n);
	gate_rules_free(&rules);
	compare_free(set);
}

/* The rules of the evidence tests: 5%, significance, 3 values a side. */
static const char evidence_rules[] =
    "[spread]\nmetric = spread_index.twmean\nbetter = lower\n"
    "max_change = 5%\nrequire_significance = yes\nmin_runs = 3\n"
    "[used]\nmetric = used_pages.max\nbetter = lower\n"
    "max_change = 5%\nrequire_significance = yes\nmin_runs = 3\n"
    "[empty]\nmetric = empty_regions.*\nbetter = higher\n"
    "max_change = 5%\nrequire_significance = yes\nmin_runs = 3\n"
    "[active]\nmetric = active_regions.twmean\nbetter = lower\n"
    "max_change = 5%\nrequire_significance = yes\nmin_runs = 3\n";

/*
 * A pass is evidence: 3 runs a side, a spread twice the baseline's, a
 * noisy +49% that no test at this n can prove, two constant groups that
 * differ and two that agree, and a change whose upper bound lies within
 * the allowance.
 */
static void
test_evidence(void)
{
	static const double spread_b[] = { 1.00, 1.01, 0.99 };
	static const double spread_c[] = { 2.02, 2.05, 2.00 };
	static const double used_b[] = { 1000, 1600, 700 };
	static const double used_c[] = { 1500, 2400, 1000 };
	static const double empty_b[] = { 5, 5, 5 };
	static const double empty_c[] = { 4, 4, 4 };
	static const double active_b[] = { 10.0, 10.1, 9.9 };
	static const double active_c[] = { 10.05, 10.0, 10.1 };
	struct compare_set *set = xcalloc(1, sizeof *set);
	struct gate_rules rules;
	struct gate_result *r;
	struct gate_counts c;
	char *cause = NULL;
	int n;

	fake_group(set, "baseline", 3);
	fake_group(set, "candidate", 3);
	fake_values(set, 0, "fill", "spread_index.twmean", "ratio", spread_b);
	fake_values(set, 1, "fill", "spread_index.twmean", "ratio", spread_c);
	fake_values(set, 0, "fill", "used_pages.max", "pages", used_b);
	fake_values(set, 1, "fill", "used_pages.max", "pages", used_c);
	fake_values(set, 0, "fill", "empty_regions.twmean", "regions",
	    empty_b);
	fake_values(set, 1, "fill", "empty_regions.twmean", "regions",
	    empty_c);
	fake_values(set, 0, "fill", "empty_regions.min", "regions", empty_b);
	fake_values(set, 1, "fill", "empty_regions.min", "regions", empty_b);
	fake_values(set, 0, "fill", "active_regions.twmean", "regions",
	    active_b);
	fake_values(set, 1, "fill", "active_regions.twmean", "regions",
	    active_c);
	set->unit = COMPARE_UNIT_RUN;
	if (!tap_ok(gate_rules_load(rules_file(evidence_rules), &rules,
	    &cause) == 0, "evidence: rules"))
		return;

	gate_evaluate(&rules, set, COMPARE_WELCH, &r, &n);
	gate_count(r, n, &c);
	tap_eq_u64(n, 5, "evidence: 5 checks");
	check_result(&r[0], "spread", 1, "worse than allowed and significant");
	check_result(&r[1], "used", 0, "worse than allowed but not "
	    "significant");
	tap_ok(r[1].inconclusive && strstr(r[1].message, "would decide it") !=
	    NULL, "welch: +49%% with p %.2g at 3 a side is inconclusive (%s)",
	    r[1].p, r[1].message);
	check_result(&r[2], "empty", 1, "worse than allowed, no variance "
	    "observed");
	check_result(&r[3], "empty", 0, "no change, no variance observed");
	check_result(&r[4], "active", 0, "within the allowed change at the "
	    "rule's confidence");
	tap_ok(r[4].worse_bound_pct > 0.5 && r[4].worse_bound_pct < 5 &&
	    strstr(r[4].message, "at most ") != NULL, "welch: the pass "
	    "states its bound (%.3g%% worse at 95%%)", r[4].worse_bound_pct);
	tap_ok(c.failed == 2 && c.inconclusive == 1 && c.unjudged == 1,
	    "welch: 2 failed, 1 inconclusive");
	gate_results_free(r, n);

	gate_evaluate(&rules, set, COMPARE_MANN_WHITNEY, &r, &n);
	gate_count(r, n, &c);
	tap_ok(r[0].inconclusive && !r[0].failed && r[0].worse_pct > 100 &&
	    strstr(r[0].message, "cannot reach alpha") != NULL,
	    "mann-whitney 3 v 3: a regression of %.0f%% is inconclusive, not "
	    "a pass (%s)", r[0].worse_pct, r[0].message);
	tap_ok(r[4].inconclusive && !r[4].failed, "mann-whitney 3 v 3: a "
	    "small change cannot pass either");
	tap_ok(r[2].failed && r[2].no_variance, "mann-whitney: constant "
	    "groups that differ are decided, with no variance observed");
	tap_ok(r[0].need >= 4, "mann-whitney: at least 4 a side would "
	    "decide (%d)", r[0].need);
	gate_results_free(r, n);
	gate_rules_free(&rules);
	compare_free(set);
}

/*
 * A rule without better = takes each metric's direction from
 * METRIC_LIST, and a metric without one gets no verdict.
 */
static void
test_default_better(void)
{
	struct compare_set *set = verdict_set(4);
	struct gate_rules rules;
	struct gate_result *r;
	char *cause = NULL;
	int n;

	if (!tap_ok(gate_rules_load(rules_file("[spread_index.twmean]\n"
	    "max_change = 5%\n[used_pages.max]\nmax_change = 5%\n"),
	    &rules, &cause) == 0 && rules.rules[0].better_lower == -1,
	    "default better: rules without better = load"))
		return;
	gate_evaluate(&rules, set, COMPARE_WELCH, &r, &n);
	tap_eq_u64(n, 2, "default better: 2 results");
	check_result(&r[0], "spread_index.twmean", 1, "worse than allowed");
	tap_ok(strstr(r[0].message, "better lower") != NULL,
	    "default better: spread_index is better lower, as listed");
	tap_ok(!r[1].judged && strstr(r[1].message, "has no better "
	    "direction") != NULL, "default better: used_pages has none, so "
	    "no verdict");
	gate_results_free(r, n);
	gate_rules_free(&rules);
	compare_free(set);
}

/*
 * One run a side: rules that need significance (2 runs a side at least)
 * are not judged; the others judge the threshold.
 */
static void
test_one_run(void)
{
	struct compare_set *set = verdict_set(1);
	struct gate_counts counts;
	struct gate_rules rules;
	struct gate_result *r;
	char *cause = NULL, *text;
	int n, failed;

	if (!tap_ok(gate_rules_load(rules_file(rules_text), &rules,
	    &cause) == 0, "one run: rules"))
		return;
	failed = gate_evaluate(&rules, set, COMPARE_WELCH, &r, &n);
	gate_count(r, n, &counts);
	tap_ok(!r[1].tested && isnan(r[1].p), "one run: not tested");
	tap_ok(!r[1].judged && !r[1].failed && strstr(r[1].message,
	    "baseline has 1 run, candidate 1; the rule needs 2 a side") !=
	    NULL, "one run: a significance rule is not judged (%s)",
	    r[1].message);
	tap_ok(!r[2].judged && !r[2].failed, "one run: nor is [used]");
	check_result(&r[0], "spread_index.twmean", 1, "worse than allowed");
	tap_ok(strstr(r[0].message, "no test (significance not required)") !=
	    NULL, "one run: the message says no test");
	tap_eq_u64(failed, 2, "one run: 2 failed");
	tap_eq_u64(counts.unjudged, 3, "one run: 3 not judged");
	gate_results_free(r, n);
	gate_rules_free(&rules);

	if (tap_ok(gate_rules_load(rules_file("[rate]\nmetric = "
	    "workload.rate\nbetter = higher\nmax_change = 0\n"), &rules,
	    &cause) == 0, "passing rules")) {
		failed = gate_evaluate(&rules, set, COMPARE_WELCH, &r, &n);
		tap_ok(failed == 0 && n == 1 && !r[0].failed, "a candidate "
		    "that is better passes a zero threshold");
		text = report_text(gate_write_markdown, set, r, n);
		tap_ok(text != NULL && strstr(text, "## regionbench gate: "
		    "passed") != NULL && strstr(text, "| - |") != NULL,
		    "markdown: passed, and no p-value");
		free(text);
		gate_results_free(r, n);
		gate_rules_free(&rules);
	}
	compare_free(set);
}

/*
 * [data_quality]: a run beyond a limit leaves every rule without a
 * verdict, the reason naming the run, its phase and the figure; within
 * the limits (or without them) the rules are judged as before.
 */
static void
test_data_quality(void)
{
	static const double ok3[] = { 0, 0, 0 }, bad3[] = { 0, 12, 0 };
	static const double spread[] = { 1, 1, 1 };
	struct compare_set *set = xcalloc(1, sizeof *set);
	struct gate_rules rules;
	struct gate_result *r;
	char *cause = NULL;
	int n, i, judged, loaded;

	fake_group(set, "base", 3);
	fake_group(set, "cand", 3);
	fake_values(set, 0, "fill", "spread_index.twmean", "ratio", spread);
	fake_values(set, 1, "fill", "spread_index.twmean", "ratio", spread);
	fake_values(set, 0, "fill", "data_quality.sampler_overruns",
	    "overruns", ok3);
	fake_values(set, 1, "fill", "data_quality.sampler_overruns",
	    "overruns", bad3);
	loaded = gate_rules_load(rules_file("[data_quality]\n"
	    "max_overruns = 10\nmax_gap_s = 5\n[spread]\nmetric = "
	    "spread_index.twmean\nbetter = lower\nmax_change = 5%\n"),
	    &rules, &cause);
	if (!tap_ok(loaded == 0, "data quality: rules load (%s)",
	    cause ? cause : "ok"))
		return;
	tap_ok(rules.n == 1 && rules.quality.max_overruns == 10 &&
	    rules.quality.max_gap_s == 5 && isnan(rules.quality.max_kpf_error),
	    "data quality: [data_quality] is limits, not a rule");
	gate_evaluate(&rules, set, COMPARE_WELCH, &r, &n);
	tap_ok(n == 1 && !r[0].judged && strstr(r[0].message, "cand-2 phase "
	    "fill: sampler overruns 12, above max_overruns = 10") != NULL,
	    "data quality: a run with 12 overruns leaves the rule unjudged "
	    "(%s)", n > 0 ? r[0].message : "no result");
	gate_results_free(r, n);
	rules.quality.max_overruns = 12;
	gate_evaluate(&rules, set, COMPARE_WELCH, &r, &n);
	for (judged = 1, i = 0; i < n; i++)
		judged &= r[i].judged;
	tap_ok(n == 1 && judged, "data quality: at the limit, judged");
	gate_results_free(r, n);
	gate_rules_free(&rules);
	check_bad("[data_quality]\nmax_overruns = -1\n[a]\nbetter = lower\n"
	    "max_change = 1\n", ":2:", "max_overruns: expected a number");
	compare_free(set);
	free(cause);
}

/*
 * [gate] correction = holm: the three checks that need significance are
 * one family (the table's p-values times 3, 2 and 1 in ascending order),
 * the one that does not is left out.  The drain rate's p of 0.00023 fails
 * alpha 0.0003 alone but not Holm-adjusted (0.00046); the spread's
 * 3.1e-6 fails either way.
 */
static void
test_holm(void)
{
	static const char text[] =
	    "[gate]\ncorrection = holm\n"
	    "[spread]\nmetric = spread_index.twmean\nbetter = lower\n"
	    "max_change = 5%\nrequire_significance = yes\nalpha = 0.01\n"
	    "[used]\nmetric = used_pages.max\nbetter = lower\n"
	    "max_change = 5%\nrequire_significance = yes\n"
	    "[drain]\nmetric = workload.rate\nbetter = lower\n"
	    "max_change = 10%\nrequire_significance = yes\n"
	    "alpha = 0.0003\n"
	    "[used-absolute]\nmetric = used_pages.max\nbetter = lower\n"
	    "max_change = 50\n";
	struct compare_set *set = verdict_set(4);
	struct gate_counts counts;
	struct gate_rules rules;
	struct gate_result *r;
	char *cause = NULL, *out;
	int n, failed;

	if (!tap_ok(gate_rules_load(rules_file(text), &rules, &cause) == 0,
	    "holm: rules load (%s)", cause ? cause : "ok"))
		return;
	tap_ok(rules.correction == GATE_CORRECTION_HOLM && rules.n == 4,
	    "holm: [gate] is a setting, not a rule");
	failed = gate_evaluate(&rules, set, COMPARE_WELCH, &r, &n);
	gate_count(r, n, &counts);
	tap_eq_u64(counts.adjusted, 3, "holm: three checks adjusted together");
	tap_near(r[0].p_adjusted, 3 * 3.0904261100621347e-06, 1e-12,
	    "holm: the smallest p times 3");
	tap_near(r[2].p_adjusted, 2 * 0.00022988958185019513, 1e-10,
	    "holm: the next times 2");
	tap_near(r[1].p_adjusted, 0.329486987166182, 1e-9,
	    "holm: the largest as it is");
	tap_ok(r[0].family == 3 && isnan(r[3].p_adjusted) && r[3].family == 0,
	    "holm: a rule without significance is not in the family");
	check_result(&r[0], "spread", 1, "worse than allowed and significant");
	check_result(&r[2], "drain", 0,
	    "worse than allowed but not significant");
	tap_ok(strstr(r[2].message, "p=0.0002299 (Holm-adjusted over 3 "
	    "tests: 0.0004598, alpha 0.0003)") != NULL, "holm: the message gives "
	    "both p-values (%s)", r[2].message);
	check_result(&r[3], "used-absolute", 1, "worse than allowed");
	tap_eq_u64(failed, 2, "holm: 2 failed");
	out = report_text(gate_write_markdown, set, r, n);
	tap_ok(out != NULL && strstr(out, "The p-values of the 3 checks that "
	    "need significance are Holm-adjusted together.") != NULL &&
	    strstr(out, "| 0.00023 (Holm 0.00046) |") != NULL,
	    "holm: markdown says so and gives both p-values");
	free(out);
	gate_results_free(r, n);

	rules.correction = GATE_CORRECTION_NONE;
	failed = gate_evaluate(&rules, set, COMPARE_WELCH, &r, &n);
	check_result(&r[2], "drain", 1, "worse than allowed and significant");
	tap_ok(isnan(r[2].p_adjusted) && strstr(r[2].message, "Holm") == NULL,
	    "no correction: the drain rate fails alpha 0.0003 alone");
	tap_eq_u64(failed, 3, "no correction: 3 failed");
	gate_results_free(r, n);
	gate_rules_free(&rules);
	compare_free(set);

	check_bad("[gate]\ncorrection = bonferroni\n", "rules.ini:2:",
	    "correction: expected none or holm, not 'bonferroni'");
	check_bad("[gate]\nalpha = 0.05\n", "rules.ini:2:",
	    "unknown key 'alpha' in [gate]");
}

int
main(void)
{
	log_set_program("t-gate");
	snprintf(scratch, sizeof scratch, "%s", tap_scratch_dir("t-gate"));
	test_load();
	test_errors();
	test_verdicts();
	test_evidence();
	test_default_better();
	test_holm();
	test_one_run();
	test_data_quality();
	return (tap_done());
}
