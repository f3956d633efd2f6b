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
#include "suggest.h"
#include "quality.h"

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

/* Record the first cause of a bad rules file; returns 0 for inih. */
static int
rules_fail(struct rules_ctx *ctx, const char *fmt, ...) RB_PRINTF(2, 3);

static int
rules_fail(struct rules_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->cause == NULL) {
		va_start(ap, fmt);
		ctx->cause = xvasprintf(fmt, ap);
		va_end(ap);
	}
	return (0);
}

/* The rule of a section, added with its defaults when the section is new. */
static struct gate_rule *
rules_section(struct gate_rules *rules, const char *section)
{
	struct gate_rule *r;

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
	return (&rules->rules[rules->n - 1]);
}

/* The string field a key names (metric, phase, unit), or NULL. */
static char **
rules_string_key(struct gate_rule *r, const char *name)
{
	if (strcmp(name, "metric") == 0)
		return (&r->metric);
	if (strcmp(name, "phase") == 0)
		return (&r->phase);
	if (strcmp(name, "unit") == 0)
		return (&r->unit);
	return (NULL);
}

/*
 * Set a key taking a word (better, require_significance, mean): 1 when
 * set, 0 on a bad value, -1 when the key is none of them.
 */
static int
rules_word_key(struct rules_ctx *ctx, struct gate_rule *r, const char *name,
    const char *value)
{
	if (strcmp(name, "better") == 0) {
		if (strcmp(value, "lower") == 0)
			r->better_lower = 1;
		else if (strcmp(value, "higher") == 0)
			r->better_lower = 0;
		else
			return (rules_fail(ctx, "better: expected lower or "
			    "higher, not '%s'", value));
		return (1);
	}
	if (strcmp(name, "require_significance") == 0) {
		if (parse_bool(value, &r->require_significance) != 0)
			return (rules_fail(ctx, "require_significance: "
			    "expected yes or no, not '%s'", value));
		return (1);
	}
	if (strcmp(name, "mean") == 0) {
		if (strcmp(value, "arithmetic") == 0)
			r->harmonic = 0;
		else if (strcmp(value, "harmonic") == 0)
			r->harmonic = 1;
		else
			return (rules_fail(ctx, "mean: expected arithmetic or "
			    "harmonic, not '%s'", value));
		return (1);
	}
	return (-1);
}

/*
 * Set a key taking a number (max_change, min_runs, alpha): 1 when set, 0
 * on a bad value, -1 when the key is none of them.
 */
static int
rules_number_key(struct rules_ctx *ctx, struct gate_rule *r, const char *name,
    const char *value)
{
	double d;

	if (strcmp(name, "max_change") == 0) {
		if (parse_number(value, &r->max_change, &r->percent) != 0)
			return (rules_fail(ctx, "max_change: expected a "
			    "number or a percentage like 5%%, not '%s'",
			    value));
		return (1);
	}
	if (strcmp(name, "min_runs") == 0) {
		if (parse_number(value, &d, NULL) != 0 || d < 1 ||
		    d > 1000 || d != floor(d))
			return (rules_fail(ctx, "min_runs: expected a whole "
			    "number from 1 to 1000, not '%s'", value));
		r->min_runs = (int)d;
		return (1);
	}
	if (strcmp(name, "alpha") == 0) {
		if (parse_number(value, &r->alpha, NULL) != 0 ||
		    r->alpha <= 0 || r->alpha >= 1)
			return (rules_fail(ctx, "alpha: expected a number "
			    "between 0 and 1, not '%s'", value));
		return (1);
	}
	return (-1);
}

/* A key of the [data_quality] section; returns 0 on a bad key or value. */
static int
rules_quality_key(struct rules_ctx *ctx, const char *name, const char *value)
{
	struct gate_quality *q = &ctx->rules->quality;
	double *limit, d;

	if (strcmp(name, "max_overruns") == 0)
		limit = &q->max_overruns;
	else if (strcmp(name, "max_gap_s") == 0)
		limit = &q->max_gap_s;
	else if (strcmp(name, "max_kpageflags_error_pages") == 0)
		limit = &q->max_kpf_error;
	else
		return (rules_fail(ctx, "unknown key '%s' in [data_quality] "
		    "(keys: max_overruns, max_gap_s, "
		    "max_kpageflags_error_pages)", name));
	if (parse_number(value, &d, NULL) != 0)
		return (rules_fail(ctx, "%s: expected a number >= 0, not "
		    "'%s'", name, value));
	*limit = d;
	return (1);
}

/*
 * Parse a correction's name (none, holm); -RB_EXIT_INPUT with what was
 * expected when it is neither.
 */
int
gate_correction_parse(const char *word, enum gate_correction *out,
    char **cause)
{
	if (strcmp(word, "none") == 0)
		*out = GATE_CORRECTION_NONE;
	else if (strcmp(word, "holm") == 0)
		*out = GATE_CORRECTION_HOLM;
	else
		return (fail_with(cause, RB_EXIT_INPUT, "correction: expected "
		    "none or holm, not '%s'", word));
	return (0);
}

/* A key of the [gate] section; returns 0 on a bad key or value. */
static int
rules_gate_key(struct rules_ctx *ctx, const char *name, const char *value)
{
	char *cause = NULL;

	if (strcmp(name, "correction") != 0)
		return (rules_fail(ctx, "unknown key '%s' in [gate] (keys: "
		    "correction)", name));
	if (gate_correction_parse(value, &ctx->rules->correction,
	    &cause) != 0) {
		rules_fail(ctx, "%s", cause);
		free(cause);
		return (0);
	}
	return (1);
}

/* inih handler: one key of one rule; returns 0 on a bad key or value. */
static int
rules_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct rules_ctx *ctx = user;
	struct gate_rule *r;
	char **str;
	int rc;

	if (section[0] == '\0')
		return (rules_fail(ctx, "'%s' is outside a [rule] section",
		    name));
	if (strcmp(section, "data_quality") == 0)
		return (rules_quality_key(ctx, name, value));
	if (strcmp(section, "gate") == 0)
		return (rules_gate_key(ctx, name, value));
	r = rules_section(ctx->rules, section);
	if ((str = rules_string_key(r, name)) != NULL) {
		free(*str);
		*str = xstrdup(value);
		return (1);
	}
	if ((rc = rules_word_key(ctx, r, name, value)) != -1)
		return (rc);
	if ((rc = rules_number_key(ctx, r, name, value)) != -1)
		return (rc);
	return (rules_fail(ctx, "unknown key '%s' (keys: metric, phase, unit, "
	    "better, max_change, require_significance, alpha, min_runs, "
	    "mean)", name));
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
	rules->quality.max_overruns = NAN;
	rules->quality.max_gap_s = NAN;
	rules->quality.max_kpf_error = NAN;
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

/* Fill in the means, the test and how much worse the candidate is. */
static void
gate_measure(const struct gate_rule *rule, const double *vb,
    const double *vc, enum compare_test test, struct gate_result *res)
{
	struct compare_cell cell;
	struct stats_desc db;

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
}

/*
 * Decide whether a measured result fails its rule and return why, or NULL
 * when it gets no verdict after all.
 */
static const char *
gate_verdict(const struct gate_rule *rule, struct gate_result *res)
{
	int exceeds;

	exceeds = rule->percent ? res->worse_pct > rule->max_change :
	    res->worse > rule->max_change;
	if (res->unchanged) {
		res->failed = 0;
		return ("no change");
	}
	if (!exceeds) {
		res->failed = 0;
		return ("within the allowed change");
	}
	if (!rule->require_significance) {
		res->failed = 1;
		return ("worse than allowed");
	}
	if (!res->tested) {
		/* min_runs >= 2 makes this unreachable; never pass it. */
		gate_unjudged(res, "significance could not be tested");
		return (NULL);
	}
	if ((isnan(res->p_adjusted) ? res->p : res->p_adjusted) <
	    rule->alpha) {
		res->failed = 1;
		return ("worse than allowed and significant");
	}
	res->failed = 0;
	return ("worse than allowed but not significant");
}

/* Set the reason and the one-line message of a judged result. */
static void
gate_judged_message(const struct gate_rule *rule,
    const struct compare_key *key, const char *why, struct gate_result *res)
{
	char limit[32], pbuf[128];

	res->reason = xstrdup(why);
	limit_text(rule, limit, sizeof limit);
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
	res->message = xasprintf("%s: %s [%s]: %s baseline %.6g (n=%d), "
	    "candidate %.6g (n=%d), %s by %.3g%% (allowed %s, better %s), %s: "
	    "%s", res->failed ? "FAIL" : "pass", key->metric, key->phase,
	    rule->harmonic ? "Hmean" : "Amean", res->base_mean, res->nbase,
	    res->cand_mean, res->ncand, res->worse > 0 ? "worse" :
	    "better or equal", fabs(res->worse_pct), limit, rule->better_lower ?
	    "lower" : "higher", pbuf, why);
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
	double *vb, *vc;
	int bad;

	vb = xcalloc(gb->nruns + 1, sizeof *vb);
	vc = xcalloc(gc->nruns + 1, sizeof *vc);
	bad = gate_values(rule, set, gb, key, vb, &res->nbase) != 0;
	bad |= gate_values(rule, set, gc, key, vc, &res->ncand) != 0;
	if (bad)
		gate_unjudged(res, "the harmonic mean needs positive values");
	else if (!gate_too_few(rule, set, res))
		gate_measure(rule, vb, vc, test, res);
	free(vb);
	free(vc);
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
		else if (r[i].failed)
			c->failed++;
		if (!isnan(r[i].p_adjusted))
			c->adjusted++;
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
	if (c.adjusted > 0)
		fprintf(f, "The p-values of the %d check%s that need%s "
		    "significance are Holm-adjusted together.\n\n",
		    c.adjusted, c.adjusted == 1 ? "" : "s", c.adjusted == 1 ?
		    "s" : "");
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
		    r[i].rule->better_lower ? "lower" : "higher");
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

	gate_count(r, n, &c);
	for (i = 0; i < n; i++)
		fprintf(f, "%s\n", r[i].message);
	fprintf(f, "gate: %s (%d check%s, %d failed, %d not judged; "
	    "baseline %d run%s, candidate %d run%s; rules %s", gate_outcome(&c),
	    n, n == 1 ? "" : "s", c.failed, c.unjudged, nb, nb == 1 ? "" :
	    "s", nc, nc == 1 ? "" : "s", rules_path);
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
	json_object_set_new(c, "n_baseline", r->key != NULL || r->judged ?
	    json_integer(r->nbase) : json_null());
	json_object_set_new(c, "n_candidate", r->key != NULL || r->judged ?
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
	json_object_set_new(c, "p_adjusted", r->judged && r->tested ?
	    gate_json_num(r->p_adjusted) : json_null());
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
	root = json_pack("{s:s, s:i, s:i, s:i, s:i, s:s, s:s, s:s, s:o, s:o, "
	    "s:o, s:o, s:o}",
	    "outcome", c.failed > 0 ? "failed" : c.unjudged > 0 ?
	    "not judged" : "passed", "checks_total", n, "failed", c.failed,
	    "not_judged", c.unjudged, "holm_adjusted", c.adjusted, "rules",
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
