/*
 * Running one command in a kernel booted under QEMU (`regionbench vm`).
 *
 * The results directory is shared with the guest read-write over 9p and
 * mounted there at its host path; the command, its environment and, at
 * the end, its exit status travel through a control directory inside it
 * (VM_CONTROL_DIR), never the kernel command line.  The guest init
 * (bench/vm-init.c) does the mounting.  The command's output comes back
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

#define VM_QEMU		"qemu-system-x86_64"
#define VM_MKFS		"mkfs.ext4"
#define VM_MIN_NODE_MEMORY (128ULL << 20)

static volatile sig_atomic_t vm_signal;
static const int vm_sigs[3] = { SIGINT, SIGTERM, SIGHUP };

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

/* A path for a QEMU option value: commas doubled. */
static char *
vm_qemu_escape(const char *s)
{
	char *out = xmalloc(2 * strlen(s) + 1), *p = out;

	for (; *s != '\0'; s++) {
		*p++ = *s;
		if (*s == ',')
			*p++ = ',';
	}
	*p = '\0';
	return (out);
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

/* Everything one boot needs, and what it leaves behind. */
struct vm_boot {
	const struct vm_settings *set;
	struct vm_kernel kernel;
	char		*modules;
	char		*initramfs;
	char		*boot;		/* the image QEMU loads */
	char		*qemu;
	char		*out;		/* absolute results directory */
	char		*ctl;		/* out/VM_CONTROL_DIR */
	char		*scratch;	/* ctl/scratch.img or NULL */
	struct vm_accel_choice accel;
	json_t		*facts;
	char		*console;
	char		*qemu_log;	/* QEMU's own stdout and stderr */
	char		*dmesg;		/* the guest kernel's log */
	int		 keep_signatures; /* the kernel enforces them */
};

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
 * accelerator (lib/vm-accel.c).  A /dev/kvm that cannot run a guest is
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

/* Append the NUMA nodes' memory and CPUs to av at n; the new n. */
static int
vm_qemu_numa(const struct vm_settings *set, char **av, int n)
{
	uint64_t per = set->memory / set->nodes;
	long i, first, last;

	for (i = 0; set->nodes > 1 && i < set->nodes; i++) {
		av[n++] = xstrdup("-object");
		av[n++] = xasprintf("memory-backend-ram,id=m%ld,size=%lluM",
		    i, (unsigned long long)(per >> 20));
		av[n++] = xstrdup("-numa");
		/* CPUs in equal blocks; nodes beyond the CPUs get none. */
		first = i * set->cpus / set->nodes;
		last = (i + 1) * set->cpus / set->nodes - 1;
		if (set->cpus < set->nodes) {
			first = i;
			last = i < set->cpus ? i : -1;
		}
		if (last >= first)
			av[n++] = xasprintf("node,nodeid=%ld,cpus=%ld-%ld,"
			    "memdev=m%ld", i, first, last, i);
		else
			av[n++] = xasprintf("node,nodeid=%ld,memdev=m%ld", i,
			    i);
	}
	return (n);
}

/*
 * The descriptors QEMU writes through: the console file and the guest
 * command's stdout and stderr (pipes this process relays).  QEMU is handed
 * descriptors, never paths, so that it creates and follows nothing in the
 * results directory.
 */
struct vm_boot_fds {
	int		 console;
	int		 out[2];
	int		 err[2];
	int		 log;		/* QEMU's own stdout and stderr */
};

/* The QEMU command line. */
static char **
vm_qemu_argv(struct vm_boot *b, const struct vm_boot_fds *fds)
{
	const struct vm_settings *set = b->set;
	char **av = xcalloc(64 + 4 * set->nodes, sizeof *av);
	char *e;
	int n = 0;

	av[n++] = xstrdup(b->qemu);
	av[n++] = xstrdup("-nodefaults");
	av[n++] = xstrdup("-no-user-config");
	av[n++] = xstrdup("-display");
	av[n++] = xstrdup("none");
	av[n++] = xstrdup("-no-reboot");
	av[n++] = xstrdup("-accel");
	av[n++] = xstrdup(b->accel.accel);
	if (b->accel.cpu != NULL) {
		av[n++] = xstrdup("-cpu");
		av[n++] = xstrdup(b->accel.cpu);
	}
	av[n++] = xstrdup("-m");
	av[n++] = xasprintf("%lluM",
	    (unsigned long long)(set->memory >> 20));
	av[n++] = xstrdup("-smp");
	if (set->nodes > 1)
		/*
		 * A node's CPUs are a socket of their own (every CPU one when
		 * they do not split evenly): CPUs of one socket share a cache,
		 * and the kernel warns when such CPUs are on different nodes
		 * ("topology_sane"), as they would be in QEMU's default
		 * topology of one socket.
		 */
		av[n++] = set->cpus % set->nodes == 0 ?
		    xasprintf("%ld,sockets=%ld,cores=%ld,threads=1",
		    set->cpus, set->nodes, set->cpus / set->nodes) :
		    xasprintf("%ld,sockets=%ld,cores=1,threads=1", set->cpus,
		    set->cpus);
	else
		av[n++] = xasprintf("%ld", set->cpus);
	n = vm_qemu_numa(set, av, n);
	av[n++] = xstrdup("-kernel");
	av[n++] = xstrdup(b->boot);
	av[n++] = xstrdup("-initrd");
	av[n++] = xstrdup(b->initramfs);
	av[n++] = xstrdup("-append");
	/*
	 * pci=noacpi: PCI interrupts are routed from the BIOS's table, not
	 * by interpreting ACPI's interrupt-link methods, which cost about
	 * 0.1 s per virtio device under TCG (docs/vm.md, Costs).
	 * no_timer_check: the kernel's early check that the timer interrupt
	 * arrives through the IO-APIC within a few ticks fails when the
	 * host is too busy to run the emulated CPU meanwhile, and the boot
	 * then panics ("IO-APIC + timer doesn't work!"); QEMU's timer works.
	 */
	av[n++] = xasprintf("console=ttyS0 panic=-1 quiet pci=noacpi "
	    "no_timer_check%s%s",
	    set->append != NULL ? " " : "",
	    set->append != NULL ? set->append : "");
	/* ttyS0 the console, ttyS1 the command's stdout, ttyS2 its stderr. */
	av[n++] = xstrdup("-chardev");
	av[n++] = xasprintf("file,id=console,path=/dev/fd/%d,append=on",
	    fds->console);
	av[n++] = xstrdup("-serial");
	av[n++] = xstrdup("chardev:console");
	av[n++] = xstrdup("-chardev");
	av[n++] = xasprintf("file,id=output,path=/dev/fd/%d,append=on",
	    fds->out[1]);
	av[n++] = xstrdup("-serial");
	av[n++] = xstrdup("chardev:output");
	av[n++] = xstrdup("-chardev");
	av[n++] = xasprintf("file,id=errors,path=/dev/fd/%d,append=on",
	    fds->err[1]);
	av[n++] = xstrdup("-serial");
	av[n++] = xstrdup("chardev:errors");
	av[n++] = xstrdup("-virtfs");
	av[n++] = xstrdup("local,path=/,mount_tag=root,security_model=none,"
	    "readonly=on,multidevs=remap");
	av[n++] = xstrdup("-virtfs");
	e = vm_qemu_escape(b->out);
	av[n++] = xasprintf("local,path=%s,mount_tag=out,"
	    "security_model=none,multidevs=remap", e);
	free(e);
	if (b->scratch != NULL) {
		av[n++] = xstrdup("-drive");
		e = vm_qemu_escape(b->scratch);
		av[n++] = xasprintf("file=%s,format=raw,if=virtio,"
		    "cache=unsafe", e);
		free(e);
	}
	av[n] = NULL;
	return (av);
}

/* The last size bytes of a file (fewer when it is smaller), or NULL. */
char *
vm_file_tail(const char *path, size_t size)
{
	char *buf;
	ssize_t n;
	off_t end;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return (NULL);
	end = lseek(fd, 0, SEEK_END);
	if (end < 0 || lseek(fd, end > (off_t)size ? end - (off_t)size : 0,
	    SEEK_SET) < 0) {
		close(fd);
		return (NULL);
	}
	buf = xmalloc(size + 1);
	n = read(fd, buf, size);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return (buf);
}

/* Print the last lines of a file to stderr, indented. */
static void
vm_print_tail(const char *path, int lines)
{
	char buf[8192], *p, *start;
	ssize_t n;
	off_t size;
	int fd, seen = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	size = lseek(fd, 0, SEEK_END);
	lseek(fd, size > (off_t)sizeof buf - 1 ? size - (off_t)sizeof buf +
	    1 : 0, SEEK_SET);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (p = buf + n - 1, start = buf; p > buf; p--) {
		if (*p == '\n' && p < buf + n - 1 && ++seen >= lines) {
			start = p + 1;
			break;
		}
	}
	for (p = strtok(start, "\n"); p != NULL; p = strtok(NULL, "\n"))
		fprintf(stderr, "  | %s\n", p);
}

/*
 * The first console line holding one of tags, from the tag on, without
 * the timestamp before it; NULL when there is none.  The console is the
 * only witness of a guest kernel that panicked (panic=-1 reboots it, which
 * -no-reboot turns into QEMU exiting as after a power off) or that hung
 * after an oops.
 */
static char *
vm_console_find(const char *path, const char *const *tags)
{
	char *line = NULL, *found = NULL, *p, *nl;
	size_t cap = 0;
	FILE *f;
	int i;

	if ((f = fopen(path, "re")) == NULL)
		return (NULL);
	while (found == NULL && getline(&line, &cap, f) != -1) {
		for (i = 0, p = NULL; tags[i] != NULL && p == NULL; i++)
			p = strstr(line, tags[i]);
		if (p == NULL)
			continue;
		/* The serial console ends its lines with "\r\n". */
		if ((nl = strpbrk(p, "\r\n")) != NULL)
			*nl = '\0';
		found = xstrdup(p);
	}
	free(line);
	fclose(f);
	return (found);
}

static const char *const vm_panic_tags[] = {
	"Kernel panic - not syncing:", NULL
};
/*
 * What the kernel prints when it hits a bug (at error level or above: what
 * the console of a "quiet" guest shows) or warns of one (in its log).
 */
static const char *const vm_trouble_tags[] = {
	"Kernel panic - not syncing:", "BUG:", "Oops:", "general protection",
	"INFO: task", "WARNING:", NULL
};

/*
 * In the child: send QEMU's output to its log, then run it (never
 * returns).  QEMU dies with this process: a guest nobody waits for would
 * hold its memory and the results directory past any --timeout.
 */
static void
vm_boot_exec(char **av, const struct vm_boot_fds *fds, pid_t parent)
{
	int fd, i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	dup2(fds->log, 2);
	dup2(fds->log, 1);
	fd = open("/dev/null", O_RDONLY);
	if (fd != -1)
		dup2(fd, 0);
	/* The ends QEMU writes, left open across exec. */
	fcntl(fds->console, F_SETFD, 0);
	fcntl(fds->out[1], F_SETFD, 0);
	fcntl(fds->err[1], F_SETFD, 0);
	for (i = 0; i < 3; i++)
		signal(vm_sigs[i], SIG_DFL);
	execv(av[0], av);
	_exit(127);
}

/* Copy what is ready on a relayed descriptor; stop relaying it at its end. */
static void
vm_relay_one(struct pollfd *pfd, int to)
{
	char buf[4096];
	ssize_t n;

	if (pfd->fd == -1 || pfd->revents == 0)
		return;
	n = read(pfd->fd, buf, sizeof buf);
	if (n > 0)
		atomic_write_all(to, buf, n);
	else if (n == 0 || errno != EINTR)
		pfd->fd = -1;
}

/*
 * Relay the command's stdout and stderr from the guest's serial ports
 * (fds) to ours until QEMU exits, killing it at the deadline or on a
 * signal; 1 when the deadline killed it.  ab's guests send both to stderr:
 * its stdout is for its own report.
 */
static int
vm_boot_relay(struct vm_boot *b, pid_t pid, const int fds[2], uint64_t start,
    int *st_wait)
{
	struct pollfd pfd[3];
	uint64_t deadline;
	int exited = 0, timed_out = 0, to[2], i;

	deadline = start + b->set->timeout;
	to[0] = b->set->output_to_stderr ? 2 : 1;
	to[1] = 2;
	for (i = 0; i < 2; i++) {
		pfd[i].fd = fds[i];
		pfd[i].events = POLLIN;
	}
	/*
	 * A pidfd wakes the loop the moment QEMU exits; without one (before
	 * Linux 5.3) the exit is noticed at the next 100 ms tick.
	 */
#ifdef SYS_pidfd_open
	pfd[2].fd = syscall(SYS_pidfd_open, pid, 0);
#else
	pfd[2].fd = -1;
#endif
	pfd[2].events = POLLIN;
	while (!exited) {
		for (i = 0; i < 3; i++)
			pfd[i].revents = 0;
		if (poll(pfd, 3, 100) > 0)
			for (i = 0; i < 2; i++)
				vm_relay_one(&pfd[i], to[i]);
		if (waitpid(pid, st_wait, WNOHANG) == pid)
			exited = 1;
		else if (vm_signal != 0 || units_now_ns() >= deadline) {
			timed_out = vm_signal == 0;
			kill(pid, SIGKILL);
			while (waitpid(pid, st_wait, 0) == -1 &&
			    errno == EINTR)
				;
			exited = 1;
		}
	}
	/* Whatever the guest wrote last. */
	for (i = 0; i < 2; i++) {
		pfd[i].revents = POLLIN;
		while (pfd[i].fd != -1)
			vm_relay_one(&pfd[i], to[i]);
	}
	if (pfd[2].fd != -1)
		close(pfd[2].fd);
	return (timed_out);
}

/* Record the elapsed time and how long the guest took to start the command. */
static void
vm_boot_times(struct vm_boot *b, uint64_t start, uint64_t start_real)
{
	struct stat st;
	uint64_t now;
	char *path;

	now = units_now_ns();
	json_object_set_new(b->facts, "elapsed_s",
	    json_real((now - start) / 1e9));
	path = xasprintf("%s/started", b->ctl);
	if (stat(path, &st) == 0) {
		uint64_t t = (uint64_t)st.st_mtim.tv_sec * 1000000000ULL +
		    st.st_mtim.tv_nsec;

		json_object_set_new(b->facts, "boot_to_command_s",
		    json_real(t > start_real ? (t - start_real) / 1e9 : 0));
	}
	free(path);
}

/* Read the command's exit status the guest left; -1 when there is none. */
static int
vm_boot_status(struct vm_boot *b, int *code)
{
	char *path, status[32];
	ssize_t n;
	int fd;

	path = xasprintf("%s/status", b->ctl);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd == -1)
		return (-1);
	n = read(fd, status, sizeof status - 1);
	close(fd);
	if (n <= 0)
		return (-1);
	status[n] = '\0';
	*code = atoi(status);
	return (0);
}

/*
 * Judge how the boot ended and record it in the facts: the command's exit
 * status, or a negative exit code with a cause.  The first bug the guest
 * kernel reported (in its log, else on its console) is named in every
 * case: results of a kernel that oopsed are not to be trusted even when
 * the command succeeded.
 */
/*
 * The cause for a guest that ended without the command's exit status:
 * a panic, QEMU failing (how it ended and what it said last: under a KVM
 * that cannot run guests it aborts before the guest's first instruction,
 * leaving an empty console), or a guest that powered off.
 */
static int
vm_boot_no_status(struct vm_boot *b, int st_wait, const char *report,
    const char *panic, char **cause)
{
	char *text, *said, *how;
	int rc;

	if (panic != NULL) {
		json_object_set_new(b->facts, "reason",
		    json_string("kernel panic"));
		return (fail_with(cause, RB_EXIT_ENV, "the guest kernel "
		    "panicked before the command ended (\"%s\"); the "
		    "console is in %s", report, b->console));
	}
	if (WIFEXITED(st_wait) && WEXITSTATUS(st_wait) == 0) {
		json_object_set_new(b->facts, "reason",
		    json_string("powered off"));
		return (fail_with(cause, RB_EXIT_ENV, "the guest powered off "
		    "before the command ended; the console is in %s",
		    b->console));
	}
	how = vm_describe_wait(st_wait);
	text = vm_file_tail(b->qemu_log, 4096);
	said = text != NULL ? vm_qemu_said(text) : NULL;
	json_object_set_new(b->facts, "reason", json_string("qemu failed"));
	json_object_set_new(b->facts, "qemu_ended", json_string(how));
	rc = fail_with(cause, RB_EXIT_ENV, "QEMU ended before the command "
	    "did (%s)%s%s%s; its output is in %s, the console in %s", how,
	    said != NULL ? ": \"" : "", said != NULL ? said : "",
	    said != NULL ? "\"" : "", b->qemu_log, b->console);
	if (text != NULL && text[0] != '\0') {
		log_errorx("vm: %s:", b->qemu_log);
		vm_print_tail(b->qemu_log, 15);
	}
	free(how);
	free(text);
	free(said);
	return (rc);
}

static int
vm_boot_outcome(struct vm_boot *b, int st_wait, int timed_out, char **cause)
{
	char dur[64], *report, *panic;
	const char *seen = b->dmesg;
	int rc;

	/* The guest's whole log when it got to save it, else the console. */
	if ((report = vm_console_find(b->dmesg, vm_trouble_tags)) == NULL) {
		report = vm_console_find(b->console, vm_trouble_tags);
		seen = b->console;
	}
	panic = vm_console_find(b->console, vm_panic_tags);
	if (report != NULL)
		json_object_set_new(b->facts, "kernel_report",
		    json_string(report));
	if (vm_signal != 0) {
		rc = fail_with(cause, RB_EXIT_INTR, "interrupted: QEMU "
		    "stopped");
		json_object_set_new(b->facts, "status",
		    json_string("interrupted"));
	} else if (timed_out) {
		char *said = report != NULL ? xasprintf("; the guest kernel "
		    "reported \"%s\"", report) : xstrdup("");

		units_format_duration(dur, sizeof dur, b->set->timeout);
		rc = fail_with(cause, RB_EXIT_ENV, "the guest did not finish "
		    "within %s (--timeout): QEMU killed; console kept in "
		    "%s%s", dur, b->console, said);
		free(said);
		json_object_set_new(b->facts, "status", json_string("failed"));
		json_object_set_new(b->facts, "reason",
		    json_string("timeout"));
		vm_print_tail(b->console, 15);
	} else if (vm_boot_status(b, &rc) != 0) {
		rc = vm_boot_no_status(b, st_wait, report, panic, cause);
		json_object_set_new(b->facts, "status", json_string("failed"));
		vm_print_tail(b->console, 15);
	} else {
		json_object_set_new(b->facts, "status",
		    json_string("complete"));
		json_object_set_new(b->facts, "exit_status", json_integer(rc));
		if (report != NULL)
			log_warnx("vm: the guest kernel reported \"%s\" (see "
			    "%s)", report, seen);
	}
	free(report);
	free(panic);
	return (rc);
}

/*
 * A file in the results directory for QEMU to write through, made anew by
 * this process: a link or file planted there is replaced, never followed.
 */
static int
vm_boot_file(const char *path, char **cause)
{
	int fd;

	if (unlink(path) == -1 && errno != ENOENT)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", path,
		    strerror(errno)));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0644);
	if (fd == -1)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", path,
		    strerror(errno)));
	return (fd);
}

static void
vm_boot_fds_close(struct vm_boot_fds *fds)
{
	int *all[] = { &fds->console, &fds->log, &fds->out[0], &fds->out[1],
	    &fds->err[0], &fds->err[1] };
	size_t i;

	for (i = 0; i < sizeof all / sizeof all[0]; i++) {
		if (*all[i] != -1)
			close(*all[i]);
		*all[i] = -1;
	}
}

/* The console, QEMU's log and the pipes of the command's output. */
static int
vm_boot_fds_open(struct vm_boot *b, struct vm_boot_fds *fds, char **cause)
{
	int rc;

	if ((rc = vm_boot_file(b->console, cause)) < 0)
		return (rc);
	fds->console = rc;
	if ((rc = vm_boot_file(b->qemu_log, cause)) < 0)
		return (rc);
	fds->log = rc;
	if (pipe2(fds->out, O_CLOEXEC) == -1 ||
	    pipe2(fds->err, O_CLOEXEC) == -1)
		return (fail_with(cause, RB_EXIT_ENV, "pipe: %s",
		    strerror(errno)));
	return (0);
}

/* Boot, relay the command's output, wait for the end or the deadline. */
static int
vm_boot(struct vm_boot *b, char **cause)
{
	struct vm_boot_fds fds = { -1, { -1, -1 }, { -1, -1 }, -1 };
	char **av = NULL;
	uint64_t start, start_real;
	int st_wait, rc, i, timed_out, relay[2];
	pid_t pid, self = getpid();

	if ((rc = vm_boot_fds_open(b, &fds, cause)) != 0)
		goto out;
	av = vm_qemu_argv(b, &fds);
	start = units_now_ns();
	start_real = units_realtime_ns();
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1) {
		rc = fail_with(cause, RB_EXIT_ENV, "fork: %s",
		    strerror(errno));
		goto out;
	}
	if (pid == 0)
		vm_boot_exec(av, &fds, self);
	/* Only QEMU holds the write ends now: their end is its end. */
	close(fds.out[1]);
	close(fds.err[1]);
	fds.out[1] = fds.err[1] = -1;
	relay[0] = fds.out[0];
	relay[1] = fds.err[0];
	timed_out = vm_boot_relay(b, pid, relay, start, &st_wait);
	vm_boot_times(b, start, start_real);
	rc = vm_boot_outcome(b, st_wait, timed_out, cause);
out:
	vm_boot_fds_close(&fds);
	for (i = 0; av != NULL && av[i] != NULL; i++)
		free(av[i]);
	free(av);
	return (rc);
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
