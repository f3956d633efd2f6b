/*
 * Which accelerator and CPU model a guest of `regionbench vm` runs on.
 *
 * A /dev/kvm that opens is no proof that KVM can run a guest: a nested
 * hypervisor may hand out the device without the CPU's virtualisation
 * support, and QEMU then aborts at the first vCPU reset (with -cpu host:
 * "failed to set MSR 0x10a") or hangs once the guest leaves real mode
 * (with a named model).  So `--accel auto` decides by a probe that runs
 * QEMU the way a boot will (the same binary, accelerator, -cpu and
 * machine type) on a guest of its own: 64 KiB of firmware that takes the
 * vCPU from its reset vector through protected mode into 64-bit long mode
 * with paging, as a kernel's entry does, and then writes to an
 * isa-debug-exit port, which ends QEMU with a status no failure gives.
 * -cpu host is tried first, then a named model (QEMU's default, qemu64)
 * for a KVM that runs guests but rejects the host's model.
 *
 * The probe takes about 0.1 s where KVM works and VM_PROBE_TIMEOUT_NS
 * where it hangs, so its answer is kept per boot of the host and QEMU
 * binary in the cache directory (docs/vm.md, Accelerator).
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "atomic-file.h"
#include "log.h"
#include "units.h"
#include "vm.h"

#define VM_PROBE_TIMEOUT_NS	(3ULL * 1000000000ULL)
#define VM_PROBE_EXIT_PORT	0xf4
/* isa-debug-exit ends QEMU with (value << 1) | 1: 0x2a gives 85. */
#define VM_PROBE_EXIT_STATUS	((0x2a << 1) | 1)
#define VM_PROBE_CACHE		"accel.json"
/* Bumped whenever the probe changes, so older answers are not trusted. */
#define VM_PROBE_VERSION	1
#define VM_FIRMWARE_SIZE	0x10000	/* QEMU wants 64 KiB multiples */
#define VM_RESET_VECTOR		0xfff0

/*
 * The probe's code, at the start of the firmware (physical 0xf0000).  The
 * page tables go to 0x1000-0x3fff, in the guest's RAM: one 2 MiB page maps
 * the first 2 MiB, the firmware's low copy included.
 */
static const unsigned char vm_probe_code[] = {
	/* .code16, entered from the reset vector as f000:0000 */
	0xfa,				/* cli */
	0x8c, 0xc8,			/* mov %cs,%ax */
	0x8e, 0xd8,			/* mov %ax,%ds */
	0x66, 0x0f, 0x01, 0x16, 0xb8, 0x00, /* lgdtl gdt_desc */
	0x0f, 0x20, 0xc0,		/* mov %cr0,%eax */
	0x66, 0x83, 0xc8, 0x01,		/* or $1,%eax: protected mode */
	0x0f, 0x22, 0xc0,		/* mov %eax,%cr0 */
	0x66, 0xea, 0x1d, 0x00, 0x0f, 0x00, 0x08, 0x00,
					/* ljmpl $0x08,$0xf001d */
	/* .code32, 0x1d */
	0x66, 0xb8, 0x10, 0x00,		/* mov $0x10,%ax */
	0x8e, 0xd8,			/* mov %ax,%ds */
	0x8e, 0xc0,			/* mov %ax,%es */
	0x8e, 0xd0,			/* mov %ax,%ss */
	0xbf, 0x00, 0x10, 0x00, 0x00,	/* mov $0x1000,%edi */
	0x31, 0xc0,			/* xor %eax,%eax */
	0xb9, 0x00, 0x0c, 0x00, 0x00,	/* mov $3072,%ecx */
	0xf3, 0xab,			/* rep stosl: clear three pages */
	0xc7, 0x05, 0x00, 0x10, 0x00, 0x00, 0x03, 0x20, 0x00, 0x00,
					/* movl $0x2003,0x1000: PML4 */
	0xc7, 0x05, 0x00, 0x20, 0x00, 0x00, 0x03, 0x30, 0x00, 0x00,
					/* movl $0x3003,0x2000: PDPT */
	0xc7, 0x05, 0x00, 0x30, 0x00, 0x00, 0x83, 0x00, 0x00, 0x00,
					/* movl $0x83,0x3000: 2 MiB page */
	0x0f, 0x20, 0xe0,		/* mov %cr4,%eax */
	0x83, 0xc8, 0x20,		/* or $0x20,%eax: PAE */
	0x0f, 0x22, 0xe0,		/* mov %eax,%cr4 */
	0xb8, 0x00, 0x10, 0x00, 0x00,	/* mov $0x1000,%eax */
	0x0f, 0x22, 0xd8,		/* mov %eax,%cr3 */
	0xb9, 0x80, 0x00, 0x00, 0xc0,	/* mov $0xc0000080,%ecx: EFER */
	0x0f, 0x32,			/* rdmsr */
	0x0d, 0x00, 0x01, 0x00, 0x00,	/* or $0x100,%eax: LME */
	0x0f, 0x30,			/* wrmsr */
	0x0f, 0x20, 0xc0,		/* mov %cr0,%eax */
	0x0d, 0x00, 0x00, 0x00, 0x80,	/* or $0x80000000,%eax: paging */
	0x0f, 0x22, 0xc0,		/* mov %eax,%cr0 */
	0xea, 0x84, 0x00, 0x0f, 0x00, 0x18, 0x00,
					/* ljmp $0x18,$0xf0084 */
	/* .code64, 0x84 */
	0x66, 0xba, 0xf8, 0x03,		/* mov $0x3f8,%dx */
	0xb0, 0x4b,			/* mov $'K',%al */
	0xee,				/* out %al,(%dx): a byte to COM1 */
	0xb0, 0x2a,			/* mov $0x2a,%al */
	0xe6, VM_PROBE_EXIT_PORT,	/* out %al,$0xf4: QEMU exits */
	0xf4,				/* 1: hlt */
	0xeb, 0xfd,			/* jmp 1b */
	0x8d, 0xb4, 0x00, 0x00, 0x66, 0x90, /* padding to 0x98 */
	/* gdt, 0x98: null, code32, data, code64 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xff, 0xff, 0x00, 0x00, 0x00, 0x9a, 0xcf, 0x00,
	0xff, 0xff, 0x00, 0x00, 0x00, 0x92, 0xcf, 0x00,
	0xff, 0xff, 0x00, 0x00, 0x00, 0x9a, 0xaf, 0x00,
	/* gdt_desc, 0xb8: limit 31, base 0xf0098 */
	0x1f, 0x00, 0x98, 0x00, 0x0f, 0x00,
};

/* At the reset vector (physical 0xffff0): ljmp $0xf000,$0. */
static const unsigned char vm_probe_reset[] = {
	0xea, 0x00, 0x00, 0x00, 0xf0,
};

/* The firmware image in an anonymous file; its descriptor or -1. */
static int
vm_probe_firmware(void)
{
	unsigned char *img;
	int fd;

	if ((fd = memfd_create("regionbench-probe", MFD_CLOEXEC)) == -1)
		return (-1);
	img = xcalloc(1, VM_FIRMWARE_SIZE);
	memcpy(img, vm_probe_code, sizeof vm_probe_code);
	memcpy(img + VM_RESET_VECTOR, vm_probe_reset, sizeof vm_probe_reset);
	if (atomic_write_all(fd, img, VM_FIRMWARE_SIZE) != 0) {
		close(fd);
		fd = -1;
	}
	free(img);
	return (fd);
}

/*
 * What QEMU said, as one line for a message: its first line naming an
 * error, else its last line, without the "qemu-system-x86_64: " prefix
 * and its warnings about CPU features the host lacks.
 */
char *
vm_qemu_said(const char *text)
{
	const char *line, *end, *pick = NULL, *p;
	size_t len = 0;
	char *out;

	for (line = text; *line != '\0'; line = *end != '\0' ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (end == line)
			continue;
		p = memmem(line, end - line, "error: ", 7);
		if (p != NULL) {
			pick = p + 7;
			len = end - pick;
			break;
		}
		if (memmem(line, end - line, "warning: ", 9) != NULL)
			continue;
		pick = line;
		len = end - line;
	}
	if (pick == NULL)
		return (NULL);
	p = memmem(pick, len, ": ", 2);
	if (p != NULL && strncmp(pick, "qemu-system", 11) == 0) {
		len -= p + 2 - pick;
		pick = p + 2;
	}
	out = xmalloc(len + 1);
	memcpy(out, pick, len);
	out[len] = '\0';
	return (out);
}

/* How a child ended, for a message: "exit status 1", "signal SIGABRT". */
char *
vm_describe_wait(int st)
{
	const char *name;

	if (WIFEXITED(st))
		return (xasprintf("exit status %d", WEXITSTATUS(st)));
	name = sigabbrev_np(WTERMSIG(st));
	if (name != NULL)
		return (xasprintf("signal SIG%s", name));
	return (xasprintf("signal %d", WTERMSIG(st)));
}

/* In the child: run the probe (never returns). */
static void
vm_probe_exec(const char *qemu, const char *cpu, int firmware, int err)
{
	char bios[32];
	const char *av[24];
	int n = 0, fd;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, 0);
		dup2(fd, 1);
	}
	dup2(err, 2);
	fcntl(firmware, F_SETFD, 0);
	snprintf(bios, sizeof bios, "/dev/fd/%d", firmware);
	av[n++] = qemu;
	av[n++] = "-nodefaults";
	av[n++] = "-no-user-config";
	av[n++] = "-display";
	av[n++] = "none";
	av[n++] = "-no-reboot";
	av[n++] = "-accel";
	av[n++] = "kvm";
	av[n++] = "-cpu";
	av[n++] = cpu;
	av[n++] = "-m";
	av[n++] = "16M";
	av[n++] = "-bios";
	av[n++] = bios;
	av[n++] = "-device";
	av[n++] = "isa-debug-exit,iobase=0xf4,iosize=4";
	av[n] = NULL;
	execv(qemu, (char *const *)av);
	_exit(127);
}

/*
 * Run the probe under KVM with -cpu cpu: 0 when the guest reached long
 * mode, else -1 with what went wrong in *why.
 */
static int
vm_probe_kvm(const char *qemu, const char *cpu, char **why)
{
	char buf[4096], *said, *how;
	struct pollfd pfd;
	size_t used = 0;
	uint64_t deadline;
	int pipefd[2], firmware, st = 0, timed_out = 0, left;
	ssize_t n;
	pid_t pid;

	*why = NULL;
	if ((firmware = vm_probe_firmware()) == -1 ||
	    pipe2(pipefd, O_CLOEXEC) == -1) {
		*why = xasprintf("cannot make the probe: %s", strerror(errno));
		if (firmware != -1)
			close(firmware);
		return (-1);
	}
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == 0)
		vm_probe_exec(qemu, cpu, firmware, pipefd[1]);
	close(pipefd[1]);
	close(firmware);
	if (pid == -1) {
		*why = xasprintf("fork: %s", strerror(errno));
		close(pipefd[0]);
		return (-1);
	}
	deadline = units_now_ns() + VM_PROBE_TIMEOUT_NS;
	pfd.fd = pipefd[0];
	pfd.events = POLLIN;
	for (;;) {
		uint64_t now = units_now_ns();

		if (now >= deadline) {
			timed_out = 1;
			break;
		}
		left = (int)((deadline - now) / 1000000) + 1;
		if (poll(&pfd, 1, left) <= 0)
			continue;
		n = read(pipefd[0], buf + used, sizeof buf - 1 - used);
		if (n == 0 || (n == -1 && errno != EINTR))
			break;
		if (n > 0)
			used += n;
		if (used == sizeof buf - 1)	/* enough to quote */
			used = 0;
	}
	buf[used] = '\0';
	close(pipefd[0]);
	if (timed_out || waitpid(pid, &st, WNOHANG) != pid) {
		/* Its stderr closed but it runs on: give it the rest. */
		while (!timed_out && waitpid(pid, &st, WNOHANG) != pid) {
			if (units_now_ns() >= deadline)
				timed_out = 1;
			else
				usleep(10000);
		}
		if (timed_out) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
				;
		}
	}
	if (!timed_out && WIFEXITED(st) &&
	    WEXITSTATUS(st) == VM_PROBE_EXIT_STATUS)
		return (0);
	said = vm_qemu_said(buf);
	if (timed_out)
		*why = xasprintf("the probe guest did not reach long mode in "
		    "%llu s%s%s", VM_PROBE_TIMEOUT_NS / 1000000000ULL,
		    said != NULL ? "; QEMU: " : "", said != NULL ? said : "");
	else {
		how = vm_describe_wait(st);
		*why = said != NULL ? xasprintf("QEMU: %s", said) :
		    xasprintf("QEMU ended with %s", how);
		free(how);
	}
	free(said);
	return (-1);
}

/* The host's boot, as the kernel names it; "" when unknown. */
void
vm_host_boot_id(char *out, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	out[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(out, size, f) == NULL)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

/* What makes a cached answer this host's and this QEMU's. */
static json_t *
vm_probe_key(const char *qemu)
{
	char boot[64];
	struct stat st;

	vm_host_boot_id(boot, sizeof boot);
	if (boot[0] == '\0' || stat(qemu, &st) == -1)
		return (NULL);
	return (json_pack("{s:i, s:s, s:s, s:I, s:I}", "version",
	    VM_PROBE_VERSION, "boot_id", boot, "qemu", qemu,
	    "qemu_size", (json_int_t)st.st_size,
	    "qemu_mtime", (json_int_t)st.st_mtime));
}

/* A cached answer for key, or -1. */
static int
vm_probe_cached(const char *path, json_t *key, struct vm_accel_choice *c)
{
	const char *k, *accel, *cpu, *reason;
	json_t *cached, *v;
	struct stat st;
	int rc = -1;

	if (lstat(path, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_size > 65536)
		return (-1);
	if ((cached = json_load_file(path, 0, NULL)) == NULL)
		return (-1);
	json_object_foreach(key, k, v) {
		if (!json_equal(v, json_object_get(cached, k)))
			goto out;
	}
	accel = json_string_value(json_object_get(cached, "accel"));
	cpu = json_string_value(json_object_get(cached, "cpu"));
	reason = json_string_value(json_object_get(cached, "reason"));
	if (accel == NULL || reason == NULL ||
	    (strcmp(accel, "kvm") != 0 && strcmp(accel, "tcg") != 0) ||
	    (strcmp(accel, "kvm") == 0 && cpu == NULL))
		goto out;
	c->accel = xstrdup(accel);
	c->cpu = cpu != NULL ? xstrdup(cpu) : NULL;
	c->reason = xstrdup(reason);
	c->kvm_error = NULL;
	if (json_string_value(json_object_get(cached, "kvm_error")) != NULL)
		c->kvm_error = xstrdup(json_string_value(
		    json_object_get(cached, "kvm_error")));
	rc = 0;
out:
	json_decref(cached);
	return (rc);
}

/* Keep an answer for the rest of this boot; a failure only costs time. */
static void
vm_probe_save(const char *path, json_t *key, const struct vm_accel_choice *c)
{
	json_t *doc = json_deep_copy(key);
	char *text, *cause = NULL;

	json_object_set_new(doc, "accel", json_string(c->accel));
	json_object_set_new(doc, "cpu", c->cpu != NULL ?
	    json_string(c->cpu) : json_null());
	json_object_set_new(doc, "reason", json_string(c->reason));
	if (c->kvm_error != NULL)
		json_object_set_new(doc, "kvm_error",
		    json_string(c->kvm_error));
	text = json_dumps(doc, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (atomic_file_write(path, text, strlen(text), &cause) != 0)
		free(cause);
	free(text);
	json_decref(doc);
}

/*
 * Probe KVM with -cpu host, then a named model; fill c.  The reason
 * quotes what went wrong with -cpu host (QEMU's own words, where it said
 * any); kvm_error what went wrong with each.
 */
static void
vm_probe(const char *qemu, struct vm_accel_choice *c)
{
	static const char *const cpus[] = { "host", "qemu64", NULL };
	char *why[2] = { NULL, NULL };
	int i;

	for (i = 0; cpus[i] != NULL; i++) {
		if (vm_probe_kvm(qemu, cpus[i], &why[i]) == 0)
			break;
	}
	if (cpus[i] != NULL) {
		c->accel = xstrdup("kvm");
		c->cpu = xstrdup(cpus[i]);
		c->reason = i == 0 ? xstrdup("KVM runs a guest here") :
		    xasprintf("KVM runs a guest here with -cpu %s, not with "
		    "-cpu host (%s)", cpus[i], why[0]);
	} else {
		c->accel = xstrdup("tcg");
		c->kvm_error = xasprintf("-cpu %s: %s; -cpu %s: %s", cpus[0],
		    why[0], cpus[1], why[1]);
		c->reason = xasprintf("/dev/kvm cannot run a guest here (%s)",
		    why[0]);
	}
	free(why[0]);
	free(why[1]);
}

/*
 * Choose the accelerator for want (enum vm_accel) and QEMU binary qemu.
 * 0 with the choice in c; a negative exit code with a cause when KVM was
 * asked for and cannot run a guest.
 */
int
vm_accel_choose(const char *qemu, int want, struct vm_accel_choice *c,
    char **cause)
{
	char *dir, *path = NULL, *ignored = NULL;
	json_t *key = NULL;
	int fd, e;

	memset(c, 0, sizeof *c);
	if (want == VM_ACCEL_TCG) {
		c->accel = xstrdup("tcg");
		c->reason = xstrdup("asked for (--accel tcg)");
		return (0);
	}
	if ((fd = open("/dev/kvm", O_RDWR | O_CLOEXEC)) == -1) {
		e = errno;
		if (want == VM_ACCEL_KVM)
			return (fail_with(cause, RB_EXIT_ENV, "--accel kvm: "
			    "/dev/kvm: %s (use --accel tcg or auto)",
			    strerror(e)));
		c->accel = xstrdup("tcg");
		c->reason = xasprintf("/dev/kvm: %s", strerror(e));
		return (0);
	}
	close(fd);
	if ((dir = vm_cache_dir(&ignored)) != NULL) {
		path = xasprintf("%s/%s", dir, VM_PROBE_CACHE);
		key = vm_probe_key(qemu);
	}
	free(dir);
	free(ignored);
	if (key == NULL || vm_probe_cached(path, key, c) != 0) {
		vm_probe(qemu, c);
		if (key != NULL)
			vm_probe_save(path, key, c);
	}
	json_decref(key);
	free(path);
	if (want == VM_ACCEL_KVM && strcmp(c->accel, "kvm") != 0) {
		fail_with(cause, RB_EXIT_ENV, "--accel kvm: KVM cannot run a "
		    "guest here (%s); use --accel tcg", c->kvm_error);
		vm_accel_choice_free(c);
		return (-RB_EXIT_ENV);
	}
	return (0);
}

void
vm_accel_choice_free(struct vm_accel_choice *c)
{
	free(c->accel);
	free(c->cpu);
	free(c->reason);
	free(c->kvm_error);
	memset(c, 0, sizeof *c);
}
