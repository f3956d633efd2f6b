/*
 * regionbench ab: boots two kernels (or one kernel with two sets of boot
 * arguments) alternately, A, B, A, B, ..., runs the same suite once per
 * boot into PARENT/LABEL-N/run, then compares the two groups and gates B
 * against A with rules that judge region metrics only.  The boot is the
 * unit: one run per boot.  With nothing different between the sides it is
 * an A/A.  compare and gate are this program run again.
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

#include "log.h"
#include "vm.h"

/* This program's own path. */
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

/*
 * The VM rules: next to the program (an uninstalled build:
 * bench/suites/gate-rules-vm.ini), in $REGIONBENCH_DATADIR, or installed.
 */
static char *
vm_ab_rules(void)
{
	char *self = vm_ab_self(), *slash, *path;
	const char *env = getenv("REGIONBENCH_DATADIR");

	if ((slash = strrchr(self, '/')) != NULL) {
		*slash = '\0';
		path = xasprintf("%s/suites/gate-rules-vm.ini", self);
		if (access(path, R_OK) == 0) {
			free(self);
			return (path);
		}
		free(path);
	}
	free(self);
	if (env != NULL && *env != '\0') {
		path = xasprintf("%s/gate-rules-vm.ini", env);
		if (access(path, R_OK) == 0)
			return (path);
		free(path);
	}
	return (xstrdup(PKGDATADIR "/gate-rules-vm.ini"));
}

/* What every step of an A/B comparison needs. */
struct vm_ab_state {
	const struct vm_ab_settings *set;
	const char	*labels[2];
	char		*self;
	char		*parent;	/* holds every LABEL-N */
	char		*rules;
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

/*
 * Run regionbench CMD ARGS... A... B... (every run of both sides, grouped
 * by label); its failure only warns: the verdict is the gate's.
 */
static void
vm_ab_over_runs(struct vm_ab_state *st, const char *const *args)
{
	char **argv;
	long i;
	int s, n = 0;

	argv = xcalloc(2 * st->set->boots + 12, sizeof *argv);
	argv[n++] = st->self;
	for (; *args != NULL; args++)
		argv[n++] = (char *)*args;
	for (s = 0; s < 2; s++)
		for (i = 0; i < st->set->boots; i++)
			argv[n++] = st->runs[s][i];
	argv[n] = NULL;
	if (vm_system(argv, NULL) != 0)
		log_warnx("ab: %s failed", argv[1]);
	free(argv);
}

/* compare, and report into PARENT/report.html: the two sides side by side. */
static void
vm_ab_compare(struct vm_ab_state *st)
{
	char *out = xasprintf("%s/report.html", st->parent);
	const char *compare[] = { "compare", "--group-by", "label", NULL };
	const char *report[] = { "report", "--group-by", "label", "--out",
	    out, NULL };

	vm_ab_over_runs(st, compare);
	vm_ab_over_runs(st, report);
	free(out);
}

/*
 * Run regionbench gate --rules R --baseline A... --candidate B...; its
 * verdict (0 or 1), or a negative exit code with a cause.
 */
static int
vm_ab_gate(struct vm_ab_state *st, char **cause)
{
	char **argv;
	long i;
	int s, rc, n = 0;

	argv = xcalloc(4 * st->set->boots + 16, sizeof *argv);
	argv[n++] = st->self;
	argv[n++] = "gate";
	argv[n++] = "--rules";
	argv[n++] = st->rules;
	if (st->set->correction != NULL) {
		argv[n++] = "--correction";
		argv[n++] = st->set->correction;
	}
	if (st->set->junit != NULL) {
		argv[n++] = "--junit";
		argv[n++] = st->set->junit;
	}
	if (st->set->markdown != NULL) {
		argv[n++] = "--markdown";
		argv[n++] = st->set->markdown;
	}
	for (s = 0; s < 2; s++) {
		for (i = 0; i < st->set->boots; i++) {
			argv[n++] = s == 0 ? "--baseline" : "--candidate";
			argv[n++] = st->runs[s][i];
		}
	}
	argv[n] = NULL;
	rc = vm_system(argv, NULL);
	if (rc < 0 || rc > 1)
		rc = fail_with(cause, rc < 0 ? RB_EXIT_ENV : rc, "ab: gate "
		    "could not judge the runs in %s", st->parent);
	free(argv);
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
	char *path;
	long i;
	int s;

	for (s = 0; s < 2; s++) {
		for (i = 0; i < boots; i++) {
			path = xasprintf("%s/%s-%ld/%s", parent, labels[s],
			    i + 1, VM_FACTS_FILE);
			facts = json_load_file(path, 0, NULL);
			report = json_string_value(json_object_get(facts,
			    "kernel_report"));
			if (report != NULL)
				log_warnx("ab: in boot %s-%ld (%s) the guest "
				    "kernel reported \"%s\" (%s/%s-%ld/%s)",
				    labels[s], i + 1, s == 0 ? "baseline" :
				    "candidate", report, parent, labels[s],
				    i + 1, VM_DMESG_FILE);
			json_decref(facts);
			free(path);
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
	st.rules = set->rules != NULL ? xstrdup(set->rules) : vm_ab_rules();
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
