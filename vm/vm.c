/*
 * Running one command in a kernel booted under QEMU (`regionbench vm`).
 *
 * The results directory is shared with the guest read-write over 9p and
 * mounted there at its host path; the command, its environment and, at
 * the end, its exit status travel through a control directory inside it
 * (VM_CONTROL_DIR), never the kernel command line.  The guest init
 * (vm/vm-init.c) does the mounting.  The command's output comes back
 * on the guest's second serial port, through a pipe this process relays to
 * its stdout; the console goes to DIR/vm-console.log.  A guest that does
 * not finish in time is killed; an interrupt kills QEMU; either way the
 * control directory and the scratch image are removed.
 */
#include "config.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic-file.h"
#include "log.h"
#include "meta.h"
#include "trusted-path.h"
#include "units.h"
#include "vm.h"
#include "vm-private.h"

#define VM_QEMU		"qemu-system-x86_64"
#define VM_MKFS		"mkfs.ext4"
#define VM_MIN_NODE_MEMORY (128ULL << 20)

volatile sig_atomic_t vm_signal;
const int vm_sigs[3] = { SIGINT, SIGTERM, SIGHUP };

static void
vm_on_signal(int sig)
{
	vm_signal = sig;
}

/* A program in $PATH, or NULL. */
static char *
vm_which(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save, *full;

	copy = xstrdup(path != NULL && *path != '\0' ? path :
	    "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
	for (dir = strtok_r(copy, ":", &save); dir != NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		full = xasprintf("%s/%s", dir, name);
		if (access(full, X_OK) == 0) {
			free(copy);
			return (full);
		}
		free(full);
	}
	/* mkfs.ext4 lives in /sbin, often not in a user's PATH. */
	free(copy);
	full = xasprintf("/usr/sbin/%s", name);
	if (access(full, X_OK) == 0)
		return (full);
	free(full);
	return (NULL);
}

/* A string as one single-quoted shell word. */
static void
vm_shell_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* Write a small text file or fail with a cause. */
static int
vm_write_text(const char *path, const char *text, char **cause)
{
	if (atomic_file_write(path, text, strlen(text), cause) != 0)
		return (-RB_EXIT_ENV);
	return (0);
}

/*
 * Run a program to completion, its output to logpath (NULL: ours, flushed
 * first); its exit status, 128 + the signal that killed it, or -1.
 */
int
vm_system(char *const argv[], const char *logpath)
{
	pid_t pid, parent = getpid();
	int st, fd;

	fflush(stdout);
	if ((pid = fork()) == -1)
		return (-1);
	if (pid == 0) {
		/* It dies with us (a SIGKILLed vm leaves no mkfs behind). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		for (fd = 0; fd < 3; fd++)
			signal(vm_sigs[fd], SIG_DFL);
		fd = logpath == NULL ? -1 : open(logpath, O_WRONLY | O_CREAT |
		    O_TRUNC | O_CLOEXEC, 0644);
		if (fd != -1) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) == -1) {
		if (errno != EINTR)
			return (-1);
	}
	return (WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}


/* Remove the control directory and everything in it. */
static void
vm_cleanup(struct vm_boot *b)
{
	static const char *const names[] = {
		"env", "command", "started", "status", "status.tmp",
		"scratch.img", "mkfs.log", "bin/regionbench", "owner", NULL
	};
	char *p;
	int i;

	if (b->ctl == NULL)
		return;
	for (i = 0; names[i] != NULL; i++) {
		p = xasprintf("%s/%s", b->ctl, names[i]);
		unlink(p);
		free(p);
	}
	p = xasprintf("%s/bin", b->ctl);
	rmdir(p);
	free(p);
	if (rmdir(b->ctl) == -1 && errno != ENOENT)
		log_warnx("vm: could not remove %s: %s", b->ctl,
		    strerror(errno));
}

/* Write vm.json (the facts and the outcome so far). */
static int
vm_write_facts(struct vm_boot *b, char **cause)
{
	char *path, *text;
	int rc;

	path = xasprintf("%s/%s", b->out, VM_FACTS_FILE);
	text = json_dumps(b->facts, JSON_INDENT(2) | JSON_SORT_KEYS);
	rc = atomic_file_write(path, text, strlen(text), cause);
	free(text);
	free(path);
	return (rc != 0 ? -RB_EXIT_ENV : 0);
}

/* Check the settings against each other and against the host. */
static int
vm_check(struct vm_boot *b, char **cause)
{
	const struct vm_settings *set = b->set;
	uint64_t avail, per;
	char want[32], have[32];

	if (set->memory < VM_MIN_NODE_MEMORY * set->nodes)
		return (fail_with(cause, RB_EXIT_INPUT, "--memory: at least "
		    "128M per node (%ld node%s)", set->nodes,
		    set->nodes == 1 ? "" : "s"));
	per = set->memory / set->nodes;
	if (per % (1 << 20) != 0 || per * set->nodes != set->memory)
		return (fail_with(cause, RB_EXIT_INPUT, "--memory: %llu bytes "
		    "do not split into %ld nodes of whole MiB",
		    (unsigned long long)set->memory, set->nodes));
	avail = units_mem_available();
	if (avail > 0 && set->memory > avail) {
		units_format_size(want, sizeof want, set->memory);
		units_format_size(have, sizeof have, avail);
		return (fail_with(cause, RB_EXIT_ENV, "--memory %s: more "
		    "than the host can spare (%s available)", want, have));
	}
	return (0);
}

/*
 * QEMU ($REGIONBENCH_QEMU, else qemu-system-x86_64 in $PATH) and the
 * accelerator (vm/vm-accel.c).  A /dev/kvm that cannot run a guest is
 * said once per process: `ab` boots many times.
 */
static int
vm_check_tools(struct vm_boot *b, char **cause)
{
	static int said_fallback;
	const char *env = getenv("REGIONBENCH_QEMU");
	int rc;

	if (env != NULL && *env != '\0') {
		if (access(env, X_OK) == -1)
			return (fail_with(cause, RB_EXIT_ENV, "REGIONBENCH_QEMU="
			    "%s: %s", env, strerror(errno)));
		b->qemu = xstrdup(env);
	} else if ((b->qemu = vm_which(VM_QEMU)) == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s not found: "
		    "apt-get install qemu-system-x86", VM_QEMU));
	if ((rc = vm_accel_choose(b->qemu, b->set->accel, &b->accel,
	    cause)) != 0)
		return (rc);
	if (b->accel.kvm_error != NULL && !said_fallback && !b->set->quiet) {
		log_infox("vm: %s: using TCG", b->accel.reason);
		said_fallback = 1;
	}
	return (0);
}

/*
 * The kernel image of SET and its modules directory (given, checked to be
 * the image's, or guessed; NULL: none), or a negative exit code with a
 * cause.  What regionbench ab checks of both sides before the first boot.
 */
int
vm_load_kernel(const struct vm_settings *set, struct vm_kernel *k,
    char **modules, char **cause)
{
	char real[PATH_MAX], *base, *probe;
	struct stat st;
	int rc;

	*modules = NULL;
	if ((rc = vm_kernel_load(k, set->kernel, cause)) != 0)
		return (rc);
	if (set->modules == NULL) {
		*modules = vm_modules_guess(k);
		return (0);
	}
	errno = 0;
	if (realpath(set->modules, real) == NULL ||
	    stat(real, &st) == -1 || !S_ISDIR(st.st_mode)) {
		rc = fail_with(cause, RB_EXIT_INPUT, "--modules %s: %s",
		    set->modules, errno != 0 ? strerror(errno) :
		    "not a directory");
		vm_kernel_free(k);
		return (rc);
	}
	base = strrchr(real, '/') + 1;
	probe = xasprintf("%s/modules.order", real);
	if (strcmp(base, k->release) != 0 && access(probe, F_OK) == 0) {
		rc = fail_with(cause, RB_EXIT_INPUT, "--modules %s: the "
		    "modules of kernel %s, the image is %s", set->modules,
		    base, k->release);
		free(probe);
		vm_kernel_free(k);
		return (rc);
	}
	free(probe);
	*modules = xstrdup(real);
	return (0);
}

/* Find the kernel, its modules, QEMU and the initramfs. */
static int
vm_prepare_kernel(struct vm_boot *b, char **cause)
{
	const struct vm_settings *set = b->set;
	char *init;
	int rc;

	if ((rc = vm_load_kernel(set, &b->kernel, &b->modules, cause)) != 0)
		return (rc);
	if ((rc = vm_check_tools(b, cause)) != 0)
		return (rc);
	if ((b->boot = vm_kernel_vmlinux(&b->kernel)) == NULL)
		b->boot = xstrdup(b->kernel.path);
	if ((init = vm_find_init(cause)) == NULL)
		return (-RB_EXIT_ENV);
	b->keep_signatures = vm_signatures_enforced(&b->kernel, b->modules,
	    set->append);
	rc = vm_initramfs(&b->kernel, b->modules, b->keep_signatures, init,
	    &b->initramfs, cause);
	free(init);
	return (rc);
}

/*
 * The control directory names its owner ("PID BOOT_ID"): one whose owner
 * is gone (a `vm` killed with SIGKILL, or a host rebooted since) is stale;
 * one whose owner runs is another boot's.
 */
static int
vm_control_stale(struct vm_boot *b)
{
	char *path, line[128], boot[64] = "", now[64];
	long pid = 0;
	FILE *f;
	int named;

	path = xasprintf("%s/owner", b->ctl);
	f = fopen(path, "re");
	free(path);
	if (f == NULL)
		return (0);	/* being created, or an older version's */
	named = fgets(line, sizeof line, f) != NULL &&
	    sscanf(line, "%ld %63s", &pid, boot) == 2 && pid > 0;
	fclose(f);
	if (!named)
		return (0);
	vm_host_boot_id(now, sizeof now);
	return (strcmp(boot, now) != 0 ||
	    (kill((pid_t)pid, 0) == -1 && errno == ESRCH));
}

/* Create the control directory, taking over a stale one, and sign it. */
static int
vm_claim_control(struct vm_boot *b, char **cause)
{
	char *path, *text, boot[64];
	int e = 0, rc;

	if (mkdir(b->ctl, 0755) == -1)
		e = errno;
	if (e == EEXIST && vm_control_stale(b)) {
		log_warnx("vm: %s was left by a boot whose regionbench is "
		    "gone; removing it", b->ctl);
		vm_cleanup(b);
		e = mkdir(b->ctl, 0755) == -1 ? errno : 0;
	}
	if (e != 0) {
		free(b->ctl);
		b->ctl = NULL;
		if (e == EEXIST)
			return (fail_with(cause, RB_EXIT_INPUT, "--out %s: "
			    "another regionbench vm is using it (remove "
			    "%s/%s if none is)", b->out, b->out,
			    VM_CONTROL_DIR));
		return (fail_with(cause, RB_EXIT_ENV, "%s/%s: %s", b->out,
		    VM_CONTROL_DIR, strerror(e)));
	}
	vm_host_boot_id(boot, sizeof boot);
	path = xasprintf("%s/owner", b->ctl);
	text = xasprintf("%ld %s\n", (long)getpid(), boot[0] != '\0' ? boot :
	    "-");
	rc = vm_write_text(path, text, cause);
	free(path);
	free(text);
	return (rc);
}

/* The results directory, created; refuse one another boot is using. */
static int
vm_prepare_out(struct vm_boot *b, char **cause)
{
	const struct vm_settings *set = b->set;
	char real[PATH_MAX], stamp[32], *out;
	struct tm tm;
	time_t now;
	int rc;

	if (set->out != NULL)
		out = xstrdup(set->out);
	else {
		now = time(NULL);
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
		out = xasprintf("results/vm-%s", stamp);
	}
	if ((rc = make_parent_dirs(out, cause)) != 0) {
		free(out);
		return (rc);
	}
	if (mkdir(out, 0755) == -1 && errno != EEXIST) {
		fail_with(cause, RB_EXIT_ENV, "--out %s: %s", out,
		    strerror(errno));
		free(out);
		return (-RB_EXIT_ENV);
	}
	/*
	 * QEMU and the guest write here by path, as root: not a link, and
	 * nobody else may own it or a directory above it
	 * (lib/trusted-path.c).
	 */
	if ((rc = trusted_dir(out, "--out", cause)) != 0) {
		free(out);
		return (rc);
	}
	if (realpath(out, real) == NULL) {
		fail_with(cause, RB_EXIT_ENV, "--out %s: %s", out,
		    strerror(errno));
		free(out);
		return (-RB_EXIT_ENV);
	}
	free(out);
	b->out = xstrdup(real);
	b->ctl = xasprintf("%s/%s", b->out, VM_CONTROL_DIR);
	if ((rc = vm_claim_control(b, cause)) != 0)
		return (rc);
	b->console = xasprintf("%s/%s", b->out, VM_CONSOLE_FILE);
	b->qemu_log = xasprintf("%s/%s", b->out, VM_QEMU_LOG_FILE);
	b->dmesg = xasprintf("%s/%s", b->out, VM_DMESG_FILE);
	/* An earlier boot's log must not be taken for this one's. */
	if (unlink(b->dmesg) == -1 && errno != ENOENT)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", b->dmesg,
		    strerror(errno)));
	return (0);
}

/* Put this program in the control directory's bin, which the guest runs. */
static void
vm_guest_bin(struct vm_boot *b)
{
	char exe[PATH_MAX], *path;
	ssize_t n;

	path = xasprintf("%s/bin", b->ctl);
	mkdir(path, 0755);
	free(path);
	if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) > 0) {
		exe[n] = '\0';
		path = xasprintf("%s/bin/regionbench", b->ctl);
		if (symlink(exe, path) == -1)
			log_warnx("vm: %s: %s", path, strerror(errno));
		free(path);
	}
}

/*
 * Write the guest's environment (RB_OUT, RB_PATH) to the control directory:
 * NUL-terminated NAME=VALUE entries, as the guest init reads them.
 */
static int
vm_guest_env(struct vm_boot *b, char **cause)
{
	char *path, *text;
	size_t len;
	FILE *f;
	int rc;

	f = open_memstream(&text, &len);
	fprintf(f, "RB_OUT=%s%c", b->out, '\0');
	fprintf(f, "RB_PATH=%s/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
	    "/usr/bin:/sbin:/bin%c", b->ctl, '\0');
	fclose(f);
	path = xasprintf("%s/env", b->ctl);
	rc = atomic_file_write(path, text, len, cause) != 0 ? -RB_EXIT_ENV : 0;
	free(path);
	free(text);
	return (rc);
}

/* Write the command, shell-quoted, to the control directory. */
static int
vm_guest_command(struct vm_boot *b, char **argv, int argc, char **cause)
{
	char *path, *text;
	size_t len;
	FILE *f;
	int i, rc;

	f = open_memstream(&text, &len);
	for (i = 0; i < argc; i++) {
		if (i > 0)
			fputc(' ', f);
		vm_shell_quote(f, argv[i]);
	}
	fputc('\n', f);
	fclose(f);
	path = xasprintf("%s/command", b->ctl);
	rc = vm_write_text(path, text, cause);
	free(path);
	free(text);
	return (rc);
}

/* Create the scratch image and make an ext4 file system on it. */
static int
vm_guest_scratch(struct vm_boot *b, char **cause)
{
	char *mkfs_argv[8], *log, sz[32];
	int rc, fd;

	b->scratch = xasprintf("%s/scratch.img", b->ctl);
	fd = open(b->scratch, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd == -1 || ftruncate(fd, b->set->scratch) == -1) {
		rc = fail_with(cause, RB_EXIT_ENV, "%s: %s", b->scratch,
		    strerror(errno));
		if (fd != -1)
			close(fd);
		return (rc);
	}
	close(fd);
	if ((mkfs_argv[0] = vm_which(VM_MKFS)) == NULL)
		return (fail_with(cause, RB_EXIT_ENV, "%s not found: apt-get "
		    "install e2fsprogs (or --scratch 0)", VM_MKFS));
	mkfs_argv[1] = "-q";
	mkfs_argv[2] = "-F";
	mkfs_argv[3] = "-E";
	mkfs_argv[4] = "lazy_itable_init=0,lazy_journal_init=0";
	mkfs_argv[5] = b->scratch;
	mkfs_argv[6] = NULL;
	log = xasprintf("%s/mkfs.log", b->ctl);
	rc = vm_system(mkfs_argv, log);
	free(mkfs_argv[0]);
	free(log);
	if (rc != 0) {
		units_format_size(sz, sizeof sz, b->set->scratch);
		return (fail_with(cause, RB_EXIT_ENV, "%s failed on a %s "
		    "scratch image in %s (exit %d)", VM_MKFS, sz, b->ctl,
		    rc));
	}
	return (0);
}

/* The command, its environment and the scratch disk, for the guest. */
static int
vm_prepare_guest(struct vm_boot *b, char **argv, int argc, char **cause)
{
	int rc;

	vm_guest_bin(b);
	if ((rc = vm_guest_env(b, cause)) != 0)
		return (rc);
	if ((rc = vm_guest_command(b, argv, argc, cause)) != 0)
		return (rc);
	if (b->set->scratch == 0)
		return (0);
	return (vm_guest_scratch(b, cause));
}

/* The facts of this boot, as vm.json and the guest's meta.json keep them. */
static void
vm_make_facts(struct vm_boot *b, char **argv, int argc)
{
	const struct vm_settings *set = b->set;
	json_t *cmd = json_array(), *guest;
	char *now = meta_utc_now();
	int i;

	for (i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	guest = json_pack("{s:{s:s, s:s, s:s, s:s, s:s}, s:o, s:s, s:I, "
	    "s:i, s:i, s:I, s:s, s:s, s:o, s:s}",
	    "kernel", "path", b->kernel.path, "release", b->kernel.release,
	    "sha256", b->kernel.sha256, "format", b->kernel.elf ? "vmlinux" :
	    "bzImage", "entry", strcmp(b->boot, b->kernel.path) != 0 ||
	    b->kernel.elf ? "pvh" : "bzImage",
	    "modules", b->modules != NULL ? json_string(b->modules) :
	    json_null(),
	    "append", set->append != NULL ? set->append : "",
	    "memory_bytes", (json_int_t)set->memory,
	    "nodes", (int)set->nodes,
	    "cpus", (int)set->cpus,
	    "scratch_bytes", (json_int_t)set->scratch,
	    "accel", b->accel.accel,
	    "accel_reason", b->accel.reason,
	    "cpu", b->accel.cpu != NULL ? json_string(b->accel.cpu) :
	    json_null(),
	    "qemu", b->qemu);
	/* Signatures are removed to load faster; the guest is tainted E. */
	if (b->modules != NULL)
		json_object_set_new(guest, "module_signatures",
		    json_string(b->keep_signatures ? "kept" : "removed"));
	b->facts = json_pack("{s:s, s:o, s:s, s:n, s:s, s:s, s:n, s:n, "
	    "s:n, s:o}",
	    "status", "running",
	    "command", cmd,
	    "start_time", now,
	    "end_time",
	    "console", VM_CONSOLE_FILE,
	    "qemu_log", VM_QEMU_LOG_FILE,
	    "exit_status",
	    "boot_to_command_s",
	    "elapsed_s",
	    "guest", guest);
	free(now);
}

/*
 * Boot the kernel of set and run argv in it.  Returns the command's exit
 * status (0-255) or a negative exit code with a cause.
 */
/*
 * "vm: results in DIR" with the host's absolute path: the command ran
 * there, so what it printed (run's "run") is relative to it.
 */
static void
vm_say_results(const char *out)
{
	char *abs = realpath(out, NULL);

	log_infox("vm: results in %s", abs != NULL ? abs : out);
	free(abs);
}

int
vm_run(const struct vm_settings *set, char **argv, int argc, char **cause)
{
	struct sigaction sa = { .sa_handler = vm_on_signal }, old[3];
	struct vm_boot b = { .set = set };
	char *now, *err = NULL;
	int rc, i;

	/* An interrupt from here on stops QEMU and cleans up. */
	vm_signal = 0;
	for (i = 0; i < 3; i++)
		sigaction(vm_sigs[i], &sa, &old[i]);
	if ((rc = vm_check(&b, cause)) != 0 ||
	    (rc = vm_prepare_kernel(&b, cause)) != 0 ||
	    (rc = vm_prepare_out(&b, cause)) != 0)
		goto out;
	vm_make_facts(&b, argv, argc);
	if ((rc = vm_write_facts(&b, cause)) != 0)
		goto out;
	rc = vm_prepare_guest(&b, argv, argc, cause);
	/* A Ctrl-C also kills mkfs: that is an interrupt, not a failure. */
	if (vm_signal != 0) {
		if (rc != 0) {
			free(*cause);
			*cause = NULL;
		}
		rc = fail_with(cause, RB_EXIT_INTR, "interrupted before the "
		    "boot");
		json_object_set_new(b.facts, "status",
		    json_string("interrupted"));
		goto facts;
	}
	if (rc != 0) {
		json_object_set_new(b.facts, "status", json_string("failed"));
		json_object_set_new(b.facts, "reason", json_string(*cause));
		goto facts;
	}
	if (!set->quiet)
		log_infox("vm: booting %s (%s, %s, %ld CPU%s, %ld node%s); "
		    "results in %s", b.kernel.release, b.accel.accel,
		    json_string_value(json_object_get(json_object_get(
		    json_object_get(b.facts, "guest"), "kernel"), "entry")),
		    set->cpus, set->cpus == 1 ? "" : "s", set->nodes,
		    set->nodes == 1 ? "" : "s", b.out);
	rc = vm_boot(&b, cause);
	/* The command printed guest paths; end with where they are here. */
	if (rc >= 0 && !set->quiet && !set->output_to_stderr)
		vm_say_results(b.out);
facts:
	now = meta_utc_now();
	json_object_set_new(b.facts, "end_time", json_string(now));
	free(now);
	if (vm_write_facts(&b, &err) != 0) {
		log_warnx("vm: %s", err);
		free(err);
	}
out:
	vm_cleanup(&b);
	for (i = 0; i < 3; i++)
		sigaction(vm_sigs[i], &old[i], NULL);
	json_decref(b.facts);
	vm_kernel_free(&b.kernel);
	free(b.modules);
	free(b.initramfs);
	free(b.boot);
	free(b.qemu);
	vm_accel_choice_free(&b.accel);
	free(b.out);
	free(b.ctl);
	free(b.scratch);
	free(b.console);
	free(b.qemu_log);
	free(b.dmesg);
	return (rc);
}
