/*
 * The gate's rules file: an INI file read with libinih, one [section] per
 * rule plus the [gate] and [data_quality] sections.  Every rule needs
 * max_change=; without better= a rule takes the direction each metric has
 * in METRIC_LIST (analyze/metric-list.h); an unknown key or a bad value is an error
 * naming the file, its line and what was expected.
 */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gate.h"
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

/*
 * Load a rules file; every rule needs max_change= (better= defaults to
 * the direction of each metric it matches).
 */
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
		if (isnan(r->max_change)) {
			rc = fail_with(cause, RB_EXIT_INPUT, "%s: rule [%s] "
			    "needs max_change = N or N%% (and better = "
			    "lower|higher unless its metrics have a direction)",
			    path, r->name);
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
