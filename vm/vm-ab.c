/*
 * regionbench ab: boots two kernels (or one kernel with two sets of boot
 * arguments) alternately, A, B, A, B, ..., runs the same suite once per
 * boot into PARENT/LABEL-N/run, then compares the two groups and gates B
 * against A with rules that judge region metrics only.  The boot is the
 * unit: one run per boot.  With nothing different between the sides it is
 * an A/A.  compare, the report and the gate are analyze/'s, called here
 * as the commands call them, so ab judges as the gate by hand does.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "chart.h"
#include "compare-output.h"
#include "data-find.h"
#include "gate.h"
#include "log.h"
#include "output.h"
#include "report.h"
#include "store.h"
#include "vm-ab.h"

/* This program's own path: the command the guests run. */
static char *
vm_ab_self(void)
{
	char exe[PATH_MAX];
	ssize_t n;

	if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) <= 0)
		return (xstrdup("regionbench"));
	exe[n] = '\0';
	return (xstrdup(exe));
}

/* What every step of an A/B comparison needs. */
struct vm_ab_state {
	const struct vm_ab_settings *set;
	const char	*labels[2];
	char		*self;
	char		*parent;	/* holds every LABEL-N */
	char		*rules;		/* the rules found, or NULL */
	char		*suite;		/* made absolute, or NULL */
	char		**runs[2];	/* run directories by side */
};

/* The parent directory: --out, or results/ab-STAMP. */
static char *
vm_ab_parent(const struct vm_ab_settings *set)
{
	char stamp[32];
	struct tm tm;
	time_t now;

	if (set->vm.out != NULL)
		return (xstrdup(set->vm.out));
	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	return (xasprintf("results/ab-%s", stamp));
}

/* The VM settings of side s: B may have its own kernel, modules, append. */
static void
vm_ab_side(const struct vm_ab_settings *set, int s, struct vm_settings *side)
{
	*side = set->vm;
	if (s == 1) {
		if (set->kernel_b != NULL) {
			side->kernel = set->kernel_b;
			side->modules = set->modules_b;
		} else if (set->modules_b != NULL)
			side->modules = set->modules_b;
		side->append = set->append_b;
	}
}

/*
 * Boot side s for the i-th time and run the suite in it, into
 * PARENT/LABEL-N/run; 0, or a negative exit code with a cause.
 */
static int
vm_ab_boot(struct vm_ab_state *st, int s, long i, char **run_args,
    int nargs, char **argv, char **cause)
{
	const struct vm_ab_settings *set = st->set;
	struct vm_settings side;
	char *abs;
	int j, n, rc;

	vm_ab_side(set, s, &side);
	/* run prints its results directory ("run") last: on stdout it
	 * would break up what compare and the gate print there. */
	side.output_to_stderr = 1;
	side.out = xasprintf("%s/%s-%ld", st->parent, st->labels[s], i + 1);
	/* regionbench run SUITE ARGS --out run --label L */
	n = 0;
	argv[n++] = st->self;
	argv[n++] = "run";
	for (j = 0; j < nargs; j++)
		argv[n++] = j == 0 && st->suite != NULL ? st->suite :
		    run_args[j];
	argv[n++] = "--out";
	argv[n++] = "run";
	argv[n++] = "--label";
	argv[n++] = (char *)st->labels[s];
	argv[n++] = "--no-charts";
	argv[n++] = "--quiet";
	argv[n] = NULL;
	log_infox("ab: boot %ld/%ld of %s", i + 1, set->boots, st->labels[s]);
	rc = vm_run(&side, argv, n, cause);
	if (rc > 0) {
		rc = fail_with(cause, RB_EXIT_ENV, "ab: the suite failed in "
		    "%s (exit %d); see its vm-console.log", side.out, rc);
	}
	st->runs[s][i] = xasprintf("%s/run", side.out);
	if (rc == 0 && (abs = realpath(st->runs[s][i], NULL)) != NULL) {
		log_infox("ab: boot %ld/%ld of %s: results in %s", i + 1,
		    set->boots, st->labels[s], abs);
		free(abs);
	}
	free(side.out);
	return (rc);
}

/*
 * Both sides' kernels and modules, checked before the first boot: a wrong
 * --kernel-b should not wait for A's first boot to be found.
 */
static int
vm_ab_check_sides(struct vm_ab_state *st, char **cause)
{
	struct vm_settings side;
	struct vm_kernel k;
	char *modules, *why;
	int s, rc;

	for (s = 0; s < 2; s++) {
		vm_ab_side(st->set, s, &side);
		if ((rc = vm_load_kernel(&side, &k, &modules, &why)) != 0) {
			*cause = xasprintf("ab: side %s (%s): %s", s == 0 ?
			    "A" : "B", st->labels[s], why);
			free(why);
			return (rc);
		}
		vm_kernel_free(&k);
		free(modules);
	}
	return (0);
}

/* Boot A, B, A, B, ... until every boot ran or one failed. */
static int
vm_ab_boots(struct vm_ab_state *st, char **run_args, int nargs,
    char **cause)
{
	char **argv;
	long i;
	int s, rc = 0;

	argv = xcalloc(nargs + 10, sizeof *argv);
	for (i = 0; i < st->set->boots && rc == 0; i++) {
		for (s = 0; s < 2 && rc == 0; s++)
			rc = vm_ab_boot(st, s, i, run_args, nargs, argv,
			    cause);
	}
	free(argv);
	return (rc);
}

/* Every run of both sides, A's then B's: the paths compare and report take. */
static char **
vm_ab_all_runs(struct vm_ab_state *st, int *n)
{
	char **paths;
	long i;
	int s;

	paths = xcalloc(2 * st->set->boots + 1, sizeof *paths);
	*n = 0;
	for (s = 0; s < 2; s++)
		for (i = 0; i < st->set->boots; i++)
			paths[(*n)++] = st->runs[s][i];
	return (paths);
}

/*
 * compare --group-by label on stdout (control characters escaped, as
 * compare prints them), and report into PARENT/report.html: the two sides
 * side by side.  A failure of either only warns: the verdict is the
 * gate's.
 */
static void
vm_ab_compare(struct vm_ab_state *st)
{
	struct compare_request req = {
		.group_by = COMPARE_BY_LABEL,
		.format = COMPARE_FORMAT_TEXT,
		.test = COMPARE_WELCH,
		.alpha = 0.05,
		.unit = COMPARE_UNIT_BOOT,
		.db = STORE_DEFAULT_URL,
	};
	char *out = xasprintf("%s/report.html", st->parent), *cause = NULL;
	FILE *f;

	fflush(stdout);
	req.paths = vm_ab_all_runs(st, &req.npaths);
	if ((f = output_escape_open(stdout)) == NULL)
		log_warnx("ab: compare failed: %s", strerror(errno));
	else if (compare_run(f, &req, &cause) != 0) {
		log_errorx("%s", cause);
		free(cause);
		cause = NULL;
		fclose(f);
		log_warnx("ab: compare failed");
	} else if (fclose(f) != 0 || fflush(stdout) != 0)
		log_warnx("ab: compare failed");
	if (report_write(req.paths, req.npaths, COMPARE_BY_LABEL, out,
	    &cause) != 0) {
		log_errorx("%s", cause);
		free(cause);
		log_warnx("ab: report failed");
	} else
		printf("%s\n", out);
	chart_cleanup();
	free(req.paths);
	free(out);
}

/*
 * The gate with the A/B's rules, --baseline A... --candidate B...: its
 * checks printed and its reports written as the gate command does.  Its
 * verdict (0 or 1), or a negative exit code with a cause.
 */
static int
vm_ab_gate(struct vm_ab_state *st, char **cause)
{
	struct gate_request req = {
		.rules = st->set->rules,
		.correction = st->set->correction,
		.baseline = st->runs[0],
		.nbaseline = st->set->boots,
		.candidate = st->runs[1],
		.ncandidate = st->set->boots,
		.test = COMPARE_WELCH,
		.unit = COMPARE_UNIT_BOOT,
		.db = STORE_DEFAULT_URL,
	};
	struct gate_outcome out;
	char *why = NULL;
	int rc;

	if (req.rules == NULL && (req.rules = st->rules = data_find(
	    "gate-rules-vm.ini", &why)) == NULL) {
		log_errorx("gate: %s (give --rules FILE)", why);
		free(why);
		return (fail_with(cause, RB_EXIT_INPUT, "ab: gate could not "
		    "judge the runs in %s", st->parent));
	}
	if ((rc = gate_run(&req, &out, &why)) == 0 &&
	    (gate_outcome_print(stdout, &out, 0) != 0 ||
	    fflush(stdout) != 0))
		rc = fail_with(&why, RB_EXIT_ENV, "stdout: write failed");
	if (rc == 0 && st->set->junit != NULL)
		rc = gate_outcome_report(&out, st->set->junit,
		    gate_write_junit, &why);
	if (rc == 0 && st->set->markdown != NULL)
		rc = gate_outcome_report(&out, st->set->markdown,
		    gate_write_markdown, &why);
	if (rc == 0) {
		if (out.note != NULL)
			log_warnx("%s", out.note);
		rc = out.exit_code;
	} else {
		log_errorx("%s", why);
		free(why);
		rc = -rc;
	}
	gate_outcome_free(&out);
	if (rc > 1)
		rc = fail_with(cause, rc, "ab: gate could not judge the runs "
		    "in %s", st->parent);
	return (rc);
}

/*
 * Name every boot under PARENT whose guest kernel reported a bug (an oops,
 * a WARNING, a hung task: vm.json's kernel_report), with the report and
 * the log to read.  The verdict is the gate's alone: its guest-kernel check
 * fails a candidate with such a report whatever its figures, and names the
 * baseline's; these warnings point at the boot behind each.  A boot
 * without a readable vm.json holds no report (its run could not have been
 * gated either).
 */
void
vm_ab_name_kernel_reports(const char *parent, const char *const labels[2],
    long boots)
{
	json_t *facts;
	const char *report;
	char *dir;
	long i;
	int s;

	for (s = 0; s < 2; s++) {
		for (i = 0; i < boots; i++) {
			dir = xasprintf("%s/%s-%ld", parent, labels[s], i + 1);
			facts = vm_facts_read_dir(dir);
			report = vm_facts_string(facts, "kernel_report");
			if (report != NULL)
				log_warnx("ab: in boot %s-%ld (%s) the guest "
				    "kernel reported \"%s\" (%s/%s-%ld/%s)",
				    labels[s], i + 1, s == 0 ? "baseline" :
				    "candidate", report, parent, labels[s],
				    i + 1, VM_DMESG_FILE);
			json_decref(facts);
			free(dir);
		}
	}
}

/*
 * Boot both sides in turn, then compare and gate their runs.  Returns the
 * gate's verdict (0 or 1), or a negative exit code with a cause.
 */
int
vm_ab(const struct vm_ab_settings *set, char **run_args, int nargs,
    char **cause)
{
	struct vm_ab_state st = {
		.set = set,
		.labels = { set->label_a, set->label_b },
	};
	long i;
	int s, rc;

	if (strcmp(set->label_a, set->label_b) == 0 ||
	    strchr(set->label_a, '/') != NULL ||
	    strchr(set->label_b, '/') != NULL)
		return (fail_with(cause, RB_EXIT_INPUT, "--label-a and "
		    "--label-b must differ and hold no '/'"));
	st.self = vm_ab_self();
	st.parent = vm_ab_parent(set);
	/* The guest runs in DIR: a suite file named relative to here must
	 * travel as an absolute path. */
	if (nargs > 0 && run_args[0][0] != '/' &&
	    access(run_args[0], F_OK) == 0)
		st.suite = realpath(run_args[0], NULL);
	for (s = 0; s < 2; s++)
		st.runs[s] = xcalloc(set->boots + 1, sizeof *st.runs[s]);
	if ((rc = vm_ab_check_sides(&st, cause)) == 0 &&
	    (rc = vm_ab_boots(&st, run_args, nargs, cause)) == 0) {
		vm_ab_compare(&st);
		vm_ab_name_kernel_reports(st.parent, st.labels,
		    set->boots);
		rc = vm_ab_gate(&st, cause);
	}
	for (s = 0; s < 2; s++) {
		for (i = 0; i < set->boots; i++)
			free(st.runs[s][i]);
		free(st.runs[s]);
	}
	free(st.suite);
	free(st.rules);
	free(st.parent);
	free(st.self);
	return (rc);
}
