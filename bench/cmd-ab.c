/*
 * regionbench ab --kernel IMAGE [--kernel-b IMAGE | --append-b ARGS]
 * [options] [SUITE [RUN OPTIONS]]: A/B of two kernels, or of two boot
 * argument strings, in QEMU guests.  The work is in vm/vm-ab.c.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>

#include "command.h"
#include "gate.h"
#include "log.h"
#include "vm-ab.h"

static const char *const accel_choices[] = { "auto", "kvm", "tcg", NULL };

#define AB_VM(f)	offsetof(struct vm_ab_settings, vm.f)
#define AB(f)		offsetof(struct vm_ab_settings, f)

static const struct opt_def ab_options[] = {
	{ .name = "kernel", .type = OPT_STRING, .offset = AB_VM(kernel),
	  .arg = "IMAGE", .required = 1,
	  .help = "kernel A (and B unless --kernel-b) "
	  "(required)" },
	{ .name = "kernel-b", .type = OPT_STRING, .offset = AB(kernel_b),
	  .arg = "IMAGE", .help = "kernel B" },
	{ .name = "modules", .type = OPT_STRING, .offset = AB_VM(modules),
	  .arg = "DIR", .help = "modules of kernel A (see vm --help)" },
	{ .name = "modules-b", .type = OPT_STRING, .offset = AB(modules_b),
	  .arg = "DIR", .help = "modules of kernel B" },
	{ .name = "append", .type = OPT_STRING, .offset = AB_VM(append),
	  .arg = "ARGS", .help = "boot arguments of A" },
	{ .name = "append-b", .type = OPT_STRING, .offset = AB(append_b),
	  .arg = "ARGS", .help = "boot arguments of B" },
	{ .name = "label-a", .type = OPT_STRING, .offset = AB(label_a),
	  .arg = "L", .def = "a", .help = "label of A's runs" },
	{ .name = "label-b", .type = OPT_STRING, .offset = AB(label_b),
	  .arg = "L", .def = "b", .help = "label of B's runs" },
	{ .name = "boots", .type = OPT_LONG, .offset = AB(boots),
	  .arg = "N", .def = "5", .min = 2, .max = 100,
	  .help = "boots of each side, alternated, one run each" },
	{ .name = "rules", .type = OPT_STRING, .offset = AB(rules),
	  .arg = "FILE", .help = "gate rules (default: gate-rules-vm.ini, "
	  "region metrics only)" },
	{ .name = "correction", .type = OPT_STRING, .offset = AB(correction),
	  .arg = "none|holm", .help = "the gate's correction of its p-values "
	  "(see gate --help; default: the rules')" },
	{ .name = "junit", .type = OPT_STRING, .offset = AB(junit),
	  .arg = "FILE", .help = "write the gate's JUnit XML (see gate "
	  "--help)" },
	{ .name = "markdown", .type = OPT_STRING, .offset = AB(markdown),
	  .arg = "FILE", .help = "write the gate's markdown summary (- for "
	  "stdout)" },
	{ .name = "memory", .type = OPT_SIZE, .offset = AB_VM(memory),
	  .arg = "SIZE", .def = "2G", .min = 128 << 20,
	  .max = INT64_C(1) << 42, .help = "guest memory" },
	{ .name = "cpus", .type = OPT_LONG, .offset = AB_VM(cpus),
	  .arg = "N", .def = "2", .min = 1, .max = 64, .help = "guest CPUs" },
	{ .name = "nodes", .type = OPT_LONG, .offset = AB_VM(nodes),
	  .arg = "N", .def = "1", .min = 1, .max = 16, .help = "NUMA nodes" },
	{ .name = "scratch", .type = OPT_SIZE, .offset = AB_VM(scratch),
	  .arg = "SIZE", .def = "4G", .max = INT64_C(1) << 42,
	  .help = "ext4 scratch disk on /var/tmp (0: none)" },
	{ .name = "accel", .type = OPT_ENUM, .offset = AB_VM(accel),
	  .arg = "ACCEL", .def = "auto", .choices = accel_choices,
	  .help = "kvm where a probe guest runs under it (auto), or tcg" },
	{ .name = "timeout", .type = OPT_DURATION, .offset = AB_VM(timeout),
	  .arg = "D", .def = "30m", .min = 1000000000,
	  .max = INT64_C(7) * 86400 * 1000000000,
	  .help = "kill a boot still running after D" },
	{ .name = "out", .type = OPT_STRING, .offset = AB_VM(out),
	  .arg = "DIR", .help = "parent of every boot's directory "
	  "(default: results/ab-TIME)" },
	{ .name = NULL }
};

/* regionbench ab. */
static int
cmd_ab_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_ab_entry;
	struct vm_ab_settings set = { 0 };
	char *quick[] = { "quick" }, *cause = NULL;
	enum gate_correction correction;
	int first_arg, rc;

	command_parse(&cmd_ab_entry, &set, argc, argv, &first_arg);
	if (set.vm.kernel == NULL)
		die(RB_EXIT_INPUT, "ab: --kernel IMAGE is required");
	/* Checked before the first boot, not after the last. */
	if (set.correction != NULL &&
	    gate_correction_parse(set.correction, &correction, &cause) != 0)
		die(RB_EXIT_INPUT, "ab: --%s", cause);
	if (first_arg < argc)
		rc = vm_ab(&set, argv + first_arg, argc - first_arg, &cause);
	else
		rc = vm_ab(&set, quick, 1, &cause);
	opt_free(ab_options, &set);
	if (rc < 0)
		die(-rc, "%s", cause);
	return (rc);
}

const struct command_entry cmd_ab_entry = {
	.name = "ab",
	.usage = "[-- SUITE [RUN OPTIONS]]",
	.operands_last = 1,
	.summary = "A/B two kernels or two boot arguments in QEMU guests",
	.description =
	    "Boots A and B alternately (--boots each, like regionbench vm),\n"
	    "runs SUITE (default quick) once per boot into DIR/LABEL-N/run,\n"
	    "then compares the two groups (and writes DIR/report.html of\n"
	    "them) and gates B against A with rules\n"
	    "that judge region metrics only (throughput under emulation is\n"
	    "too noisy).  A bug reported by B's kernel in any boot (an oops,\n"
	    "a WARNING) fails B whatever its figures.  Exit: the gate's (0\n"
	    "pass, 1 B regressed or reported a bug), 2 bad input, 3 a boot\n"
	    "or the suite failed.  Stdout holds the comparison and the\n"
	    "verdict; the guests' output goes to stderr.",
	.options = ab_options,
	.exec = cmd_ab_exec,
};
