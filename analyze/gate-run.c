/*
 * The gate's whole verdict policy, so that the gate command and an A/B of
 * two kernels judge alike: load the rules, load both groups of runs,
 * refuse runs of different suites or (without force) different machines,
 * measure and judge every check, and turn the counts into the exit code:
 * 1 when a check failed, 2 when one got no verdict or was inconclusive (a
 * gate passes only on evidence) unless unjudged checks are allowed, else 0.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data-find.h"
#include "gate.h"
#include "log.h"

/* The rules: the request's file, else gate-rules.ini of the data files. */
static int
gate_run_rules(const struct gate_request *req, struct gate_outcome *out,
    char **cause)
{
	enum gate_correction correction = GATE_CORRECTION_NONE;
	char *why = NULL;
	int rc;

	if (req->correction != NULL &&
	    gate_correction_parse(req->correction, &correction, &why) != 0) {
		rc = fail_with(cause, RB_EXIT_INPUT, "gate: --%s", why);
		free(why);
		return (rc);
	}
	if (req->rules != NULL)
		out->rules_path = xstrdup(req->rules);
	else if ((out->rules_path = data_find("gate-rules.ini", &why)) ==
	    NULL) {
		rc = fail_with(cause, RB_EXIT_INPUT, "gate: %s (give --rules "
		    "FILE)", why);
		free(why);
		return (rc);
	}
	if ((rc = gate_rules_load(out->rules_path, &out->rules, cause)) != 0)
		return (rc);
	out->have_rules = 1;
	if (req->correction != NULL)
		out->rules.correction = correction;
	return (0);
}

/*
 * Both groups of runs, refused when they ran different suites or, unless
 * forced, when they are not comparable (a warning when forced).
 */
static int
gate_run_load(const struct gate_request *req, struct gate_outcome *out,
    char **cause)
{
	struct metrics_options mo;
	char *differences;
	int rc;

	metrics_options_default(&mo);
	mo.empty_tolerance = req->empty_tolerance;
	if ((rc = compare_load_two(req->baseline, req->nbaseline,
	    req->candidate, req->ncandidate, &mo, req->db, &out->set,
	    cause)) != 0)
		return (rc);
	if ((differences = compare_suite_differences(out->set)) != NULL) {
		rc = fail_with(cause, RB_EXIT_INPUT, "baseline and candidate "
		    "ran different suites:\n%s", differences);
		free(differences);
		return (rc);
	}
	differences = compare_differences(out->set);
	if (differences != NULL && !req->force) {
		rc = fail_with(cause, RB_EXIT_INPUT, "baseline and candidate "
		    "are not comparable:\n%s\n(--force judges them anyway)",
		    differences);
		free(differences);
		return (rc);
	}
	if (differences != NULL)
		log_warnx("runs differ (--force): %s", differences);
	free(differences);
	if ((differences = compare_scan_differences(out->set)) != NULL)
		log_warnx("%s; sampled counts are estimates, so their "
		    "differences carry more noise", differences);
	free(differences);
	out->set->unit = req->unit;
	return (0);
}

/*
 * Judge the candidate against the baseline.  Returns 0 with the outcome
 * (its exit code and, when the checks left the gate unjudged, the note
 * saying so), or a negative exit code with a cause; the outcome is freed
 * with gate_outcome_free either way.
 */
int
gate_run(const struct gate_request *req, struct gate_outcome *out,
    char **cause)
{
	int rc;

	memset(out, 0, sizeof *out);
	if (req->nbaseline == 0 || req->ncandidate == 0)
		return (fail_with(cause, RB_EXIT_INPUT, "gate: needs "
		    "--baseline DIR and --candidate DIR"));
	if ((rc = gate_run_rules(req, out, cause)) != 0 ||
	    (rc = gate_run_load(req, out, cause)) != 0)
		return (rc);
	gate_evaluate(&out->rules, out->set, req->test, &out->results,
	    &out->n);
	gate_count(out->results, out->n, &out->counts);
	if (out->counts.failed > 0)
		out->exit_code = RB_EXIT_FAIL;
	else if (out->counts.unjudged > 0 && !req->allow_unjudged) {
		out->exit_code = RB_EXIT_INPUT;
		out->note = xasprintf("%d check%s got no verdict%s: a gate "
		    "passes only on evidence (--allow-unjudged passes without "
		    "it)", out->counts.unjudged, out->counts.unjudged == 1 ?
		    "" : "s", out->counts.inconclusive > 0 ? " (inconclusive: "
		    "more runs decide them)" : "");
	} else
		out->exit_code = RB_EXIT_OK;
	return (0);
}

/*
 * Print the outcome on f: the compare unit and a line per check, or one
 * JSON object.  -1 when writing failed.
 */
int
gate_outcome_print(FILE *f, const struct gate_outcome *out, int json)
{
	char *unit_note;

	if (json)
		return (gate_print_json(f, out->set, out->results, out->n,
		    out->rules_path));
	unit_note = compare_unit_note(out->set);
	fprintf(f, "%s\n", unit_note);
	free(unit_note);
	gate_print(f, out->set, out->results, out->n, out->rules_path);
	return (ferror(f) ? -1 : 0);
}

/*
 * Write one report (JUnit XML or markdown) to path, or to stdout for "-".
 * 0, or a negative exit code with a cause.
 */
int
gate_outcome_report(const struct gate_outcome *out, const char *path,
    gate_writer writer, char **cause)
{
	if (strcmp(path, "-") != 0)
		return (gate_write_file(path, out->set, out->results, out->n,
		    writer, cause));
	if (writer(stdout, out->set, out->results, out->n) != 0)
		return (fail_with(cause, RB_EXIT_ENV, "stdout: write "
		    "failed"));
	return (0);
}

/* Free what gate_run left in the outcome. */
void
gate_outcome_free(struct gate_outcome *out)
{
	if (out->results != NULL)
		gate_results_free(out->results, out->n);
	if (out->have_rules)
		gate_rules_free(&out->rules);
	if (out->set != NULL)
		compare_free(out->set);
	free(out->rules_path);
	free(out->note);
	memset(out, 0, sizeof *out);
}
