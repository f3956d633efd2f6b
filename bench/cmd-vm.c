/*
 * regionbench vm --kernel IMAGE [options] -- COMMAND...: boot IMAGE in
 * QEMU with the host's root read-only, run COMMAND in the results
 * directory and return its exit status.  The work is in vm/vm.c.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>

#include "command.h"
#include "log.h"
#include "vm.h"

static const char *const accel_choices[] = { "auto", "kvm", "tcg", NULL };

static const struct opt_def vm_options[] = {
	{ .name = "kernel", .type = OPT_STRING,
	  .offset = offsetof(struct vm_settings, kernel), .arg = "IMAGE",
	  .required = 1,
	  .help = "kernel to boot: a bzImage (vmlinuz), an ELF vmlinux or "
	  "a kernel build tree (its arch/x86/boot/bzImage) (required)" },
	{ .name = "modules", .type = OPT_STRING,
	  .offset = offsetof(struct vm_settings, modules), .arg = "DIR",
	  .help = "the kernel's lib/modules/RELEASE tree (default: "
	  "../lib/modules/RELEASE next to IMAGE's boot/, the build tree of "
	  "an IMAGE in arch/ARCH/boot/, else none)" },
	{ .name = "append", .type = OPT_STRING,
	  .offset = offsetof(struct vm_settings, append), .arg = "ARGS",
	  .help = "more kernel boot arguments" },
	{ .name = "memory", .type = OPT_SIZE,
	  .offset = offsetof(struct vm_settings, memory), .arg = "SIZE",
	  .def = "2G", .min = 128 << 20, .max = INT64_C(1) << 42,
	  .help = "guest memory, split equally between the nodes" },
	{ .name = "cpus", .type = OPT_LONG,
	  .offset = offsetof(struct vm_settings, cpus), .arg = "N",
	  .def = "2", .min = 1, .max = 64, .help = "guest CPUs" },
	{ .name = "nodes", .type = OPT_LONG,
	  .offset = offsetof(struct vm_settings, nodes), .arg = "N",
	  .def = "1", .min = 1, .max = 16, .help = "NUMA nodes" },
	{ .name = "scratch", .type = OPT_SIZE,
	  .offset = offsetof(struct vm_settings, scratch), .arg = "SIZE",
	  .def = "4G", .max = INT64_C(1) << 42,
	  .help = "ext4 scratch disk on the guest's /var/tmp (0: none)" },
	{ .name = "accel", .type = OPT_ENUM,
	  .offset = offsetof(struct vm_settings, accel), .arg = "ACCEL",
	  .def = "auto", .choices = accel_choices,
	  .help = "kvm where a probe guest runs under it (auto), or tcg" },
	{ .name = "timeout", .type = OPT_DURATION,
	  .offset = offsetof(struct vm_settings, timeout), .arg = "D",
	  .def = "30m", .min = 1000000000, .max = INT64_C(7) * 86400 *
	  1000000000,
	  .help = "kill a guest still running after D (exit 3)" },
	{ .name = "out", .type = OPT_STRING,
	  .offset = offsetof(struct vm_settings, out), .arg = "DIR",
	  .help = "results directory, the command's working directory "
	  "(default: results/vm-TIME)" },
	{ .name = "quiet", .type = OPT_FLAG,
	  .offset = offsetof(struct vm_settings, quiet),
	  .help = "no progress line" },
	{ .name = NULL }
};

/* regionbench vm. */
static int
cmd_vm_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_vm_entry;
	struct vm_settings set = { 0 };
	char *cause = NULL;
	int first_arg, rc;

	command_parse(&cmd_vm_entry, &set, argc, argv, &first_arg);
	if (set.kernel == NULL)
		die(RB_EXIT_INPUT, "vm: --kernel IMAGE is required");
	if (first_arg >= argc)
		die(RB_EXIT_INPUT, "vm: no command to run (regionbench vm "
		    "--kernel IMAGE -- COMMAND...)");
	if (set.quiet)
		log_set_quiet(1);
	rc = vm_run(&set, argv + first_arg, argc - first_arg, &cause);
	opt_free(vm_options, &set);
	if (rc < 0)
		die(-rc, "vm: %s", cause);
	return (rc);
}

const struct command_entry cmd_vm_entry = {
	.name = "vm",
	.usage = "-- COMMAND...",
	.operands_last = 1,
	.summary = "boot a kernel in QEMU and run a command in it",
	.description =
	    "Boots IMAGE in QEMU with the host's root read-only over 9p\n"
	    "under a tmpfs overlay, the results directory read-write at its\n"
	    "host path, an ext4 scratch disk on /var/tmp and N NUMA nodes of\n"
	    "equal size; runs COMMAND there (this regionbench first on PATH)\n"
	    "and exits with its status.  COMMAND's stdout arrives on stdout,\n"
	    "its stderr on stderr.  --accel auto uses KVM only when a probe\n"
	    "guest runs under it (with -cpu host, else a named model; the\n"
	    "answer is kept per boot of the host) and says why when it falls\n"
	    "back to TCG.  The console goes to DIR/vm-console.log, QEMU's own\n"
	    "messages to DIR/vm-qemu.log, the guest kernel's log to\n"
	    "DIR/vm-dmesg.log, the boot's facts (accelerator and why\n"
	    "included) to DIR/vm.json and to the meta.json of every run\n"
	    "inside.  A bug the guest kernel reports is named.  Exit 3: a\n"
	    "missing piece, an accelerator that cannot run the guest, a guest\n"
	    "that failed, panicked or hung, QEMU ending early (its words\n"
	    "quoted).",
	.options = vm_options,
	.exec = cmd_vm_exec,
};
