/*
 * One boot of `regionbench vm`: the QEMU command line, QEMU started with
 * the descriptors it writes through, the command's output relayed, the
 * timeout enforced, and the boot judged from its status, its console and
 * the guest kernel's log (a panic, an oops or a warning is named).
 * vm.c prepares what a boot needs and cleans up after it.
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
int
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
