/*
 * Gate rules and their verdicts.  A rule fails when the candidate is worse
 * than the baseline by more than its allowed change and, when the rule asks
 * for it, the difference is significant.  A rule is never passed without
 * evidence: one that matches no metric present on both sides, or whose
 * groups have fewer runs than it needs (min_runs, at least 2 when it asks
 * for significance), gets no verdict and says why.  Every check is
 * measured before any is judged: with [gate] correction = holm, the
 * p-values of the checks that need significance are adjusted together.
 */
#include "config.h"

#include <fnmatch.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "log.h"
#include "suggest.h"
#include "quality.h"

/* Format the allowed change of a rule. */
void
gate_limit_text(const struct gate_rule *rule, char *buf, size_t len)
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

/*
 * Leave a result without a verdict when its groups have fewer units than
 * the rule needs; 1 when it did.
 */
static int
gate_too_few(const struct gate_rule *rule, const struct compare_set *set,
    struct gate_result *res)
{
	const char *unit;

	if (res->nbase >= rule->min_runs && res->ncand >= rule->min_runs)
		return (0);
	unit = set->unit == COMPARE_UNIT_BOOT ? "boot" : "run";
	gate_unjudged(res, "baseline has %d %s%s, candidate %d; the rule needs "
	    "%d a side%s", res->nbase, unit, res->nbase == 1 ? "" : "s",
	    res->ncand, rule->min_runs, set->unit == COMPARE_UNIT_BOOT ?
	    " (runs within one boot count once)" : "");
	return (1);
}

/* A gate looks this far ahead when it estimates the values that decide. */
#define GATE_NEED_MAX	1000

/*
 * The fewest values a side (more than have) with which a difference of dw
 * against the allowance at (both on the test's scale, dw > 0 worse), in
 * groups of pooled standard deviation s, would be decided: significant
 * beyond the allowance when dw exceeds it, else bounded within it; the
 * Mann-Whitney test also needs the group size at which alpha can be
 * reached at all.  0 when no size up to GATE_NEED_MAX would.
 */
static int
gate_need(double dw, double at, double s, double alpha,
    enum compare_test test, int have)
{
	double se, t, floor_p;
	int n, fail = dw > at;

	if (!isfinite(dw) || !isfinite(at) || !(s > 0) || dw == at)
		return (0);
	for (n = have + 1; n <= GATE_NEED_MAX; n++) {
		se = s * sqrt(2.0 / n);
		if (test == COMPARE_MANN_WHITNEY && n <= STATS_MW_EXACT_MAX) {
			floor_p = (fail ? 2 : 1) / gsl_sf_choose(2 * n, n);
			if (floor_p >= alpha)
				continue;
		}
		if (fail) {
			t = gsl_cdf_tdist_Pinv(1 - alpha / 2, 2 * n - 2);
			if (dw / se >= t)
				return (n);
		} else {
			t = gsl_cdf_tdist_Pinv(1 - alpha, 2 * n - 2);
			if (dw + t * se <= at)
				return (n);
		}
	}
	return (0);
}

/*
 * Fill in the means, the test, how much worse the candidate is and how
 * much worse it may be: the one-sided upper confidence bound (level 1 -
 * alpha) of the worsening, from Welch's interval of the difference of
 * means or the Hodges-Lehmann bound that goes with Mann-Whitney.  The
 * bound is taken on the values tested (reciprocals for harmonic rules)
 * against the allowance carried onto that scale, with the baseline's mean
 * as the reference of a percentage.
 */
static void
gate_measure(const struct gate_rule *rule, const double *vb,
    const double *vc, enum compare_test test, struct gate_result *res)
{
	struct compare_cell cell;
	struct stats_desc db;
	double allow, limit, lt, at, dw, hi, lo, diff, se, df, cb, bound, s;
	int worse_up, rc;

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
	if (!res->better_lower)
		res->worse = -res->worse;
	res->worse_pct = res->base_mean != 0 ? res->worse /
	    fabs(res->base_mean) * 100 : (res->worse == 0 ? 0 :
	    copysign(INFINITY, res->worse));
	res->no_variance = db.stddev == 0 && cell.desc.stddev == 0;
	res->worse_bound_pct = NAN;

	/* The allowance as a limit on the candidate's tested mean. */
	allow = rule->percent ? rule->max_change / 100 *
	    fabs(res->base_mean) : rule->max_change;
	limit = res->better_lower ? res->base_mean + allow :
	    res->base_mean - allow;
	worse_up = res->better_lower != rule->harmonic;
	lt = !rule->harmonic ? limit : limit > 0 ? 1 / limit : INFINITY;
	at = worse_up ? lt - db.mean : db.mean - lt;
	dw = worse_up ? cell.desc.mean - db.mean : db.mean - cell.desc.mean;
	if (test == COMPARE_MANN_WHITNEY)
		rc = stats_mw_shift_bounds(vb, res->nbase, vc, res->ncand,
		    rule->alpha, &lo, &hi);
	else {
		rc = stats_welch_diff(vb, res->nbase, vc, res->ncand, &diff,
		    &se, &df);
		hi = diff + (se > 0 ? gsl_cdf_tdist_Pinv(1 - rule->alpha,
		    df) * se : 0);
		lo = diff - (hi - diff);
	}
	if (rc != 0)
		return;
	bound = worse_up ? hi : -lo;
	res->within = bound <= at;
	cb = worse_up ? db.mean + bound : db.mean - bound;
	if (!isfinite(bound))
		res->worse_bound_pct = INFINITY;
	else if (rule->harmonic)
		cb = cb > 0 ? 1 / cb : (res->better_lower ? INFINITY : 0);
	if (isfinite(bound) && res->base_mean != 0)
		res->worse_bound_pct = (res->better_lower ? cb -
		    res->base_mean : res->base_mean - cb) /
		    fabs(res->base_mean) * 100;
	s = sqrt((db.stddev * db.stddev + cell.desc.stddev *
	    cell.desc.stddev) / 2);
	res->need = gate_need(dw, at, s, rule->alpha, test, res->nbase >
	    res->ncand ? res->nbase : res->ncand);
}

/* Leave a measured result inconclusive and say why. */
static const char *
gate_inconclusive(struct gate_result *res, int exceeds)
{
	res->judged = 0;
	res->failed = 0;
	res->inconclusive = 1;
	if (isinf(res->worse_bound_pct))
		return (exceeds ? "worse than allowed, and the test cannot "
		    "reach alpha with so few values" : "the test cannot "
		    "reach alpha with so few values");
	return (exceeds ? "worse than allowed but not significant" :
	    "may be worse than allowed");
}

/*
 * Decide a measured result and return why.  With significance required a
 * pass is evidence too: the candidate passes when the upper confidence
 * bound of its worsening lies within the allowance (a non-inferiority
 * test at the rule's alpha), fails when it is worse than allowed and
 * significantly different, and is inconclusive otherwise.  Two constant
 * groups (no variance observed) are decided on their difference, since
 * min_runs values a side agreed.
 */
static const char *
gate_verdict(const struct gate_rule *rule, struct gate_result *res)
{
	int exceeds;

	exceeds = rule->percent ? res->worse_pct > rule->max_change :
	    res->worse > rule->max_change;
	if (!rule->require_significance) {
		res->failed = exceeds && !res->unchanged;
		return (res->unchanged ? "no change" : exceeds ?
		    "worse than allowed" : "within the allowed change");
	}
	if (res->no_variance) {
		res->failed = exceeds && !res->unchanged;
		return (res->unchanged ? "no change, no variance observed" :
		    exceeds ? "worse than allowed, no variance observed" :
		    "within the allowed change, no variance observed");
	}
	if (!res->tested && !res->unchanged) {
		/* min_runs >= 2 makes this unreachable; never pass it. */
		gate_unjudged(res, "significance could not be tested");
		return (NULL);
	}
	if (exceeds && res->tested && (isnan(res->p_adjusted) ? res->p :
	    res->p_adjusted) < rule->alpha) {
		res->failed = 1;
		return ("worse than allowed and significant");
	}
	if (res->within) {
		res->failed = 0;
		return ("within the allowed change at the rule's confidence");
	}
	return (gate_inconclusive(res, exceeds));
}

/* Set the reason and the one-line message of a measured result. */
static void
gate_judged_message(const struct gate_rule *rule,
    const struct compare_key *key, const char *why, struct gate_result *res)
{
	char limit[32], pbuf[128], bound[160], need[128];
	const char *unit = res->unit_boot ? "boot" : "run";

	res->reason = xstrdup(why);
	gate_limit_text(rule, limit, sizeof limit);
	if (res->tested && !isnan(res->p_adjusted))
		snprintf(pbuf, sizeof pbuf, "p=%.4g (Holm-adjusted over %d "
		    "tests: %.4g, alpha %g)", res->p, res->family,
		    res->p_adjusted, rule->alpha);
	else if (res->tested)
		snprintf(pbuf, sizeof pbuf, "p=%.4g (alpha %g)", res->p,
		    rule->alpha);
	else if (res->unchanged)
		snprintf(pbuf, sizeof pbuf, "no test (no change)");
	else
		snprintf(pbuf, sizeof pbuf, "no test (significance not "
		    "required)");
	bound[0] = need[0] = '\0';
	if (rule->require_significance && !res->no_variance &&
	    isinf(res->worse_bound_pct))
		snprintf(bound, sizeof bound, ", no bound at %g%% confidence "
		    "with %d and %d values", 100 * (1 - rule->alpha),
		    res->nbase, res->ncand);
	else if (rule->require_significance && !res->no_variance &&
	    !isnan(res->worse_bound_pct))
		snprintf(bound, sizeof bound, ", %s %.3g%% %s at %g%% "
		    "confidence", res->worse_bound_pct > 0 ? "at most" :
		    "at least", fabs(res->worse_bound_pct),
		    res->worse_bound_pct > 0 ? "worse" : "better",
		    100 * (1 - rule->alpha));
	if (res->inconclusive && res->need > 0)
		snprintf(need, sizeof need, "; about %d %ss a side (%d more) "
		    "would decide it", res->need, unit, res->need -
		    (res->nbase < res->ncand ? res->nbase : res->ncand));
	else if (res->inconclusive)
		snprintf(need, sizeof need, "; more than %d %ss a side would "
		    "be needed to decide it", GATE_NEED_MAX, unit);
	res->message = xasprintf("%s: %s [%s]: %s baseline %.6g (n=%d), "
	    "candidate %.6g (n=%d), %s by %.3g%%%s (allowed %s, better %s), "
	    "%s: %s%s", res->inconclusive ? "inconclusive" : res->failed ?
	    "FAIL" : "pass", key->metric, key->phase,
	    rule->harmonic ? "Hmean" : "Amean", res->base_mean, res->nbase,
	    res->cand_mean, res->ncand, res->worse > 0 ? "worse" :
	    "better or equal", fabs(res->worse_pct), bound, limit,
	    gate_better_word(res), pbuf, why, need);
}

/*
 * Measure one rule on one key: its means and test.  The verdict waits for
 * every check to be measured, since a correction needs all the p-values.
 */
static void
gate_measure_key(const struct gate_rule *rule, const struct compare_set *set,
    const struct compare_key *key, enum compare_test test,
    struct gate_result *res)
{
	const struct compare_group *gb = &set->groups[0];
	const struct compare_group *gc = &set->groups[1];
	enum metrics_better better;
	double *vb, *vc;
	int bad;

	if (res->better_lower < 0) {
		better = metrics_better(key->metric, key->unit);
		if (better == METRICS_BETTER_NONE) {
			gate_unjudged(res, "the rule has no better = and %s "
			    "has no better direction", key->metric);
			return;
		}
		res->better_lower = better == METRICS_BETTER_LOWER;
	}
	vb = xcalloc(gb->nruns + 1, sizeof *vb);
	vc = xcalloc(gc->nruns + 1, sizeof *vc);
	bad = gate_values(rule, set, gb, key, vb, &res->nbase) != 0;
	bad |= gate_values(rule, set, gc, key, vc, &res->ncand) != 0;
	if (bad)
		gate_unjudged(res, "the harmonic mean needs positive values");
	else if (!gate_too_few(rule, set, res)) {
		res->unit_boot = set->unit == COMPARE_UNIT_BOOT;
		gate_measure(rule, vb, vc, test, res);
	}
	free(vb);
	free(vc);
}

/*
 * Which way the check of a result is better: its rule's better =, else
 * its metric's direction in METRIC_LIST ("unknown" before one is known).
 */
const char *
gate_better_word(const struct gate_result *res)
{
	if (res->better_lower < 0)
		return ("unknown");
	return (res->better_lower ? "lower" : "higher");
}

/* Is a result measured and waiting for its verdict? */
static int
gate_pending(const struct gate_result *res)
{
	return (res->judged && res->reason == NULL);
}

/*
 * Holm-adjust the p-values of every pending check whose rule needs
 * significance: the family is every test that could fail the gate, so
 * that an unchanged kernel fails any of them with a probability of alpha
 * at most.
 */
static void
gate_adjust(struct gate_result *res, int n)
{
	double *p, *adjusted;
	int *member, i, m = 0;

	p = xcalloc(n + 1, sizeof *p);
	adjusted = xcalloc(n + 1, sizeof *adjusted);
	member = xcalloc(n + 1, sizeof *member);
	for (i = 0; i < n; i++)
		if (gate_pending(&res[i]) && res[i].tested &&
		    res[i].rule->require_significance) {
			member[m] = i;
			p[m++] = res[i].p;
		}
	stats_holm(p, m, adjusted);
	for (i = 0; i < m; i++) {
		res[member[i]].p_adjusted = adjusted[i];
		res[member[i]].family = m;
	}
	free(p);
	free(adjusted);
	free(member);
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
	r->better_lower = rule->better_lower;
	r->p = NAN;
	r->p_adjusted = NAN;
	return (r);
}

/*
 * Append "RUN phase P: FIGURE above KEY LIMIT" for one figure beyond its
 * limit; returns 1 when it was.
 */
static int
gate_quality_check(char **text, const struct compare_run *run,
    const struct summary_row *row, const char *name, double limit,
    const char *key, const char *what)
{
	char *old = *text;

	if (strcmp(row->metric, name) != 0 || isnan(limit) ||
	    isnan(row->value) || row->value <= limit)
		return (0);
	*text = xasprintf("%s%s%s phase %s: %s %g, above %s = %g",
	    old != NULL ? old : "", old != NULL ? "; " : "", run->dir,
	    run->phases[row->phase], what, row->value, key, limit);
	free(old);
	return (1);
}

/*
 * Why the data of the set's runs is too poor to judge (the [data_quality]
 * limits against each phase's data_quality.* figures), or NULL when every
 * run is within them.  Naming each run and figure tells what to rerun.
 */
char *
gate_quality_refusal(const struct gate_quality *q,
    const struct compare_set *set)
{
	const struct compare_run *run;
	const struct summary_row *row;
	char *text = NULL, *out;
	int i, j;

	for (i = 0; i < set->nruns; i++) {
		run = set->runs[i];
		for (j = 0; j < run->sum.n; j++) {
			row = &run->sum.rows[j];
			gate_quality_check(&text, run, row, QUALITY_OVERRUNS,
			    q->max_overruns, "max_overruns",
			    "sampler overruns");
			gate_quality_check(&text, run, row, QUALITY_MAX_GAP,
			    q->max_gap_s, "max_gap_s",
			    "largest gap between samples (s)");
			gate_quality_check(&text, run, row, QUALITY_KPF_ERROR,
			    q->max_kpf_error, "max_kpageflags_error_pages",
			    "kpageflags error (pages)");
		}
	}
	if (text == NULL)
		return (NULL);
	out = xasprintf("data quality outside the [data_quality] limits: %s",
	    text);
	free(text);
	return (out);
}

/*
 * The check no rule file can leave out: a candidate whose runs were made
 * in guests (regionbench vm, ab) fails when its kernel reported a bug (an
 * oops, a WARNING, a hung task) in any of them, whatever its figures:
 * figures from a kernel that is not healthy prove nothing about it.  The
 * baseline's reports only show in the message, since the baseline is
 * what the candidate is measured against, not what is under test.
 */
static const struct gate_rule gate_guest_kernel_rule = {
	.name = "guest-kernel",
	.metric = "kernel_report",
	.phase = "*",
	.unit = "*",
	.better_lower = 1,
	.max_change = 0,
	.alpha = 0,
};

/* Add the guest-kernel check when the candidate ran in guests. */
static void
gate_guest_kernel(const struct compare_set *set, struct gate_result **res,
    int *n)
{
	const struct compare_run *fb, *fc;
	struct gate_result *r;
	int gb, rb, gc, rc;
	char *base = NULL;

	fc = compare_group_guests(&set->groups[1], &gc, &rc);
	if (gc == 0)
		return;
	fb = compare_group_guests(&set->groups[0], &gb, &rb);
	r = gate_add(res, n, &gate_guest_kernel_rule, NULL);
	r->judged = 1;
	r->nbase = gb;
	r->ncand = gc;
	r->base_mean = rb;
	r->cand_mean = rc;
	r->worse = rc;
	r->unchanged = rb == 0 && rc == 0;
	r->failed = rc > 0;
	r->reason = xstrdup(rc > 0 ? "the candidate's kernel reported a bug" :
	    "no bug reported by the candidate's kernel");
	if (rb > 0)
		base = xasprintf("; the baseline's kernel reported one in %d "
		    "of %d runs (\"%s\" in %s): its figures may not be "
		    "trusted", rb, gb, fb->guest_kernel_report, fb->dir);
	if (rc > 0)
		r->message = xasprintf("FAIL: guest kernel: the candidate's "
		    "kernel reported a bug in %d of %d runs made in guests "
		    "(\"%s\" in %s; its vm-dmesg.log has the rest)%s", rc,
		    gc, fc->guest_kernel_report, fc->dir, base != NULL ?
		    base : "");
	else
		r->message = xasprintf("pass: guest kernel: no bug reported "
		    "by the candidate's kernel in its %d runs made in "
		    "guests%s", gc, base != NULL ? base : "");
	free(base);
}

/*
 * For a rule's metric that matches nothing: "; did you mean NAME?" with
 * the closest metric name of the comparison, else "" (a pattern with
 * wildcards is left alone).
 */
static const char *
gate_suggest_metric(const struct compare_set *set, const char *metric,
    char *buf, size_t len)
{
	struct suggest sg;
	int k;

	buf[0] = '\0';
	if (strpbrk(metric, "*?[") != NULL)
		return (buf);
	suggest_init(&sg, metric);
	for (k = 0; k < set->nkeys; k++)
		suggest_offer(&sg, set->keys[k].metric);
	if (sg.best != NULL)
		snprintf(buf, len, "; did you mean %s?", sg.best);
	return (buf);
}

/*
 * Apply every rule to every key it matches.  A rule that matches no metric
 * present on both sides yields one result with key NULL, not judged.  The
 * guest-kernel check follows when the candidate's runs were made in guests.
 * Returns the number of failed checks (gate_count has every count).
 */
int
gate_evaluate(const struct gate_rules *rules, const struct compare_set *set,
    enum compare_test test, struct gate_result **out, int *nout)
{
	const struct gate_rule *rule;
	const struct compare_key *key;
	struct gate_result *res = NULL;
	const char *why;
	char *refusal, near[160];
	double *tmp;
	int i, k, n = 0, matched, most, failed;

	if ((refusal = gate_quality_refusal(&rules->quality, set)) != NULL) {
		/* Poor data is no evidence: no rule gets a verdict. */
		for (i = 0; i < rules->n; i++)
			gate_unjudged(gate_add(&res, &n, &rules->rules[i],
			    NULL), "%s", refusal);
		free(refusal);
		*out = res;
		*nout = n;
		return (0);
	}
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
			gate_measure_key(rule, set, key, test, gate_add(&res,
			    &n, rule, key));
			matched = 1;
		}
		if (!matched)
			gate_unjudged(gate_add(&res, &n, rule, NULL), "matches "
			    "no metric present in both groups (metric %s, "
			    "phase %s, unit %s)%s", rule->metric, rule->phase,
			    rule->unit, gate_suggest_metric(set, rule->metric,
			    near, sizeof near));
	}
	free(tmp);
	if (rules->correction == GATE_CORRECTION_HOLM)
		gate_adjust(res, n);
	for (i = 0; i < n; i++) {
		if (!gate_pending(&res[i]))
			continue;
		if ((why = gate_verdict(res[i].rule, &res[i])) != NULL)
			gate_judged_message(res[i].rule, res[i].key, why,
			    &res[i]);
	}
	gate_guest_kernel(set, &res, &n);
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
		if (r[i].inconclusive)
			c->inconclusive++;
		else if (r[i].failed)
			c->failed++;
		if (!isnan(r[i].p_adjusted))
			c->adjusted++;
	}
}
