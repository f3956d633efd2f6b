/*
 * regionbench-vm-init: the init (PID 1) of the guests `regionbench vm`
 * boots, the only program of their initramfs.
 *
 * It loads the modules listed in /modules, mounts the results share (9p
 * tag "out"), the host's root read-only over 9p (tag "root") under a tmpfs
 * overlay, fresh proc/sys/dev/run, the scratch disk (/dev/vda, ext4) on
 * /var/tmp and the results share at the host's own path; then runs the
 * command the host wrote into the share with the host's /bin/sh, chrooted
 * into that root, in that path, writes its exit status next to it and
 * powers off.  What it says goes to the console (ttyS0); the command's
 * stdout goes to ttyS1 and its stderr to ttyS2, which the host relays to
 * its own stdout and stderr.  docs/vm.md describes the
 * guest; docs/architecture.md where this sits.
 *
 * It is C, statically linked, rather than a shell script: under emulation
 * (TCG) every fork and exec costs 10-30 ms, and a script spends forty of
 * them on insmod, mount and mkdir before the command starts.  Here the
 * only process started is the command, and the modules load beside the
 * mounts (see loader).
 */
#include "config.h"

#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "vm.h"

#define CONTROL_DIR	VM_CONTROL_DIR
#define FACTS_ENV	VM_FACTS_ENV
#define NEWROOT		"/newroot"
#define P9_OPTIONS	"trans=virtio,version=9p2000.L,msize=512000"

#define MAX_MODULES	128

/*
 * One line of /modules: "GROUP NAME.ko", in load order: each module after
 * those it needs, and those of a group after those of the groups before
 * it (vm/vm-image.c).
 */
struct module {
	int		 group;
	char		 name[64];
};

static struct module	modules[MAX_MODULES];
static int		nmodules;

/* The guest's clock: seconds since boot, as /proc/uptime counts them. */
static double
uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static void __attribute__((format(printf, 1, 2)))
say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	n = snprintf(line, sizeof line, "regionbench-vm: ");
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - n - 1, fmt, ap);
	va_end(ap);
	strcat(line, "\n");
	if (write(STDOUT_FILENO, line, strlen(line)) == -1)
		return;
}

/*
 * Power off.  PID 1 must never return: the kernel would panic, and the
 * host would report a panic rather than what went wrong.
 */
static void __attribute__((noreturn))
power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

/* Stop here: the host finds no status file and reports the console. */
static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	say("%s", text);
	power_off();
}

static void
do_mount(const char *source, const char *target, const char *type,
    unsigned long flags, const char *options)
{
	if (mount(source, target, type, flags, options) != 0)
		fail("cannot mount %s (%s) on %s: %s", source, type, target,
		    strerror(errno));
}

/* mkdir -p */
static void
make_dirs(const char *path, mode_t mode)
{
	char copy[4096], *p;

	if (strlen(path) >= sizeof copy)
		fail("path too long: %s", path);
	strcpy(copy, path);
	for (p = copy + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(copy, mode) != 0 && errno != EEXIST)
			fail("cannot create %s: %s", copy, strerror(errno));
		*p = c;
		if (c == '\0')
			break;
	}
}

static char *
join(const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, "%s%s", a, b) == -1)
		fail("out of memory");
	return (s);
}

/* Read /modules. */
static void
read_module_list(void)
{
	struct module *m;
	char line[128];
	FILE *f;

	if ((f = fopen("/modules", "r")) == NULL)
		return;		/* everything is built in */
	while (fgets(line, sizeof line, f) != NULL) {
		if (nmodules == MAX_MODULES)
			fail("/modules: more than %d modules", MAX_MODULES);
		m = &modules[nmodules];
		if (sscanf(line, "%d %63s", &m->group, m->name) != 2 ||
		    m->group < 0 || m->group >= VM_MODULE_GROUPS)
			fail("/modules:%d: expected GROUP NAME.ko",
			    nmodules + 1);
		nmodules++;
	}
	fclose(f);
}

/*
 * One thread loads the modules, one at a time, group by group: 0 (what
 * the 9p shares need), 1 (the overlay), then 2 (the scratch disk's driver
 * and ext4, the longest load of all: about half of the modules' time
 * under TCG), and then mounts the scratch disk on /scratch; the main
 * thread mounts the shares and builds the new root meanwhile, and moves
 * the disk into it.  Loading modules side by side (two lanes, or every
 * module of a dependency level at once) saved 0.05 s on a quiet host but
 * cost a second or more on a busy one: modules loading on two guest CPUs
 * wait for each other, and a guest CPU that holds a kernel lock or waits
 * for an IPI loses its host thread to other work (docs/vm.md, Costs).
 * One at a time also keeps the boot, and so the guest's memory layout,
 * the same from boot to boot.  The loader reports an error itself and
 * powers off, like the main thread.
 */
static pthread_mutex_t	 ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 ready_changed = PTHREAD_COND_INITIALIZER;
static int		 groups_loaded;
static int		 scratch_ready;
static int		 scratch_mounted;	/* else there is no disk */

/* Set a counter under ready_lock and wake whoever waits for it. */
static void
set_ready(int *counter, int value)
{
	pthread_mutex_lock(&ready_lock);
	*counter = value;
	pthread_cond_broadcast(&ready_changed);
	pthread_mutex_unlock(&ready_lock);
}

/* Wait until a counter reaches value. */
static void
wait_ready(const int *counter, int value)
{
	pthread_mutex_lock(&ready_lock);
	while (*counter < value)
		pthread_cond_wait(&ready_changed, &ready_lock);
	pthread_mutex_unlock(&ready_lock);
}

static void
load_module(const struct module *m)
{
	char path[128];
	int fd;

	snprintf(path, sizeof path, "/lib/modules/%s", m->name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST)) {
		if (errno == EKEYREJECTED)
			fail("cannot load module %s: %s (the kernel enforces "
			    "module signatures: boot it with "
			    "module.sig_enforce=1 so they are kept)", m->name,
			    strerror(errno));
		fail("cannot load module %s: %s", m->name, strerror(errno));
	}
	close(fd);
}

/* Wait until the loader has loaded a group (or failed, and powers off). */
static void
wait_loaded(int group)
{
	wait_ready(&groups_loaded, group + 1);
}

static void *
loader(void *arg)
{
	struct stat st;
	int group, i;

	(void)arg;
	for (group = 0; group < VM_MODULE_GROUPS; group++) {
		for (i = 0; i < nmodules; i++) {
			if (modules[i].group == group)
				load_module(&modules[i]);
		}
		set_ready(&groups_loaded, group + 1);
	}
	if (stat("/dev/vda", &st) == 0 && S_ISBLK(st.st_mode)) {
		if (mount("/dev/vda", "/scratch", "ext4", 0, NULL) != 0)
			fail("cannot mount the scratch disk: %s",
			    strerror(errno));
		chmod("/scratch", 01777);
		scratch_mounted = 1;
	}
	set_ready(&scratch_ready, 1);
	return (NULL);
}

/*
 * The new root: the host's root read-only over 9p under a tmpfs overlay,
 * with fresh proc, sys, dev and run.
 */
static void
build_root(void)
{
	struct stat st;

	if (mount("root", "/lower", "9p", MS_RDONLY,
	    P9_OPTIONS ",cache=loose") != 0)
		fail("cannot mount the host's root over 9p: %s",
		    strerror(errno));
	do_mount("tmpfs", "/upper", "tmpfs", 0, "mode=0755");
	make_dirs("/upper/upper", 0755);
	make_dirs("/upper/work", 0755);
	wait_loaded(1);
	if (mount("overlay", NEWROOT, "overlay", 0, "lowerdir=/lower,"
	    "upperdir=/upper/upper,workdir=/upper/work") != 0)
		fail("cannot mount the overlay root: %s", strerror(errno));
	do_mount("proc", NEWROOT "/proc", "proc", 0, NULL);
	do_mount("sysfs", NEWROOT "/sys", "sysfs", 0, NULL);
	do_mount("devtmpfs", NEWROOT "/dev", "devtmpfs", 0, NULL);
	make_dirs(NEWROOT "/dev/pts", 0755);
	make_dirs(NEWROOT "/dev/shm", 0755);
	make_dirs(NEWROOT "/run", 0755);
	make_dirs(NEWROOT "/var/tmp", 0755);
	do_mount("devpts", NEWROOT "/dev/pts", "devpts", 0, NULL);
	do_mount("tmpfs", NEWROOT "/dev/shm", "tmpfs", 0, NULL);
	do_mount("tmpfs", NEWROOT "/run", "tmpfs", 0, NULL);
	if (stat(NEWROOT "/sys/fs/cgroup", &st) == 0 && S_ISDIR(st.st_mode))
		do_mount("cgroup2", NEWROOT "/sys/fs/cgroup", "cgroup2", 0,
		    NULL);
}

/*
 * The control directory's env file: NUL-terminated NAME=VALUE entries
 * (vm/vm.c writes it), so a path may hold any byte.
 */
static char *
env_value(const char *env, size_t len, const char *name)
{
	const char *p, *end = env + len;
	size_t n = strlen(name);

	for (p = env; p < end; p += strlen(p) + 1) {
		if (strncmp(p, name, n) == 0 && p[n] == '=')
			return (strdup(p + n + 1));
	}
	return (NULL);
}

static char *
read_file(const char *path, size_t *len)
{
	char *data = NULL;
	size_t cap = 0;
	ssize_t n;
	int fd;

	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (NULL);
	for (;;) {
		if (*len + 1 >= cap) {
			cap = cap == 0 ? 4096 : cap * 2;
			if ((data = realloc(data, cap)) == NULL)
				fail("out of memory");
		}
		n = read(fd, data + *len, cap - *len - 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		*len += n;
	}
	close(fd);
	data[*len] = '\0';
	return (data);
}

static void
write_text(const char *path, const char *text)
{
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) == -1 || write(fd, text, strlen(text)) == -1)
		say("cannot write %s: %s", path, strerror(errno));
	if (fd != -1)
		close(fd);
}

/* syslog(2) actions; glibc's <sys/klog.h> does not name them. */
#define KLOG_READ_ALL		3
#define KLOG_SIZE_BUFFER	10

/*
 * The kernel's log, as dmesg prints it, into the results directory
 * (VM_DMESG_FILE): the console shows only errors (the guest boots
 * "quiet"), and a warning of the kernel under test is what its developer
 * wants to see.
 */
static void
save_kernel_log(const char *dir)
{
	char *buf, *text, *p, *q, *tmp, *path;
	int size, n;

	if ((size = klogctl(KLOG_SIZE_BUFFER, NULL, 0)) <= 0 ||
	    (buf = malloc((size_t)size)) == NULL)
		return;
	if ((text = malloc((size_t)size + 1)) == NULL) {
		free(buf);
		return;
	}
	if ((n = klogctl(KLOG_READ_ALL, buf, size)) < 0)
		n = 0;
	/* Each line starts with its "<level>", which dmesg does not show. */
	for (p = buf, q = text; p < buf + n; ) {
		if (*p == '<' && (p == buf || p[-1] == '\n')) {
			char *end = memchr(p, '>', (size_t)(buf + n - p));

			if (end != NULL && end - p <= 4)
				p = end + 1;
		}
		while (p < buf + n && (*q++ = *p++) != '\n')
			;
	}
	*q = '\0';
	tmp = join(dir, "/" VM_DMESG_FILE ".tmp");
	path = join(dir, "/" VM_DMESG_FILE);
	write_text(tmp, text);
	if (rename(tmp, path) != 0)
		say("cannot write %s: %s", path, strerror(errno));
	free(tmp);
	free(path);
	free(buf);
	free(text);
}

/* The command's output goes to a serial port, raw: the host relays it as is. */
static int
open_output(const char *tty)
{
	struct termios t;
	int fd;

	if ((fd = open(tty, O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1)
		fail("cannot open %s: %s", tty, strerror(errno));
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	return (fd);
}

/*
 * Run the command file with the host's shell, chrooted into the new root,
 * in the results directory; return its exit status as a shell reports it.
 * As PID 1 this also reaps every orphan the command leaves behind.
 */
static int
run_command(const char *out, const char *ctl, const char *path)
{
	char *env[6], *argv[7];
	int output, errors, devnull, status;
	pid_t pid, p;

	output = open_output("/dev/ttyS1");
	errors = open_output("/dev/ttyS2");
	if ((devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1)
		fail("cannot open /dev/null: %s", strerror(errno));
	env[0] = "HOME=/root";
	env[1] = "TERM=dumb";
	env[2] = "LANG=C.UTF-8";
	env[3] = join("PATH=", path);
	env[4] = join(FACTS_ENV "=", out);
	env[4] = join(env[4], "/vm.json");
	env[5] = NULL;
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = "cd \"$1\" && . \"$2\"";
	argv[3] = "sh";
	argv[4] = (char *)out;
	argv[5] = join(ctl, "/command");
	argv[6] = NULL;
	if ((pid = fork()) == -1)
		fail("cannot fork: %s", strerror(errno));
	if (pid == 0) {
		if (dup2(devnull, 0) == -1 || dup2(output, 1) == -1 ||
		    dup2(errors, 2) == -1 || chroot(NEWROOT) != 0 ||
		    chdir("/") != 0)
			_exit(126);
		execve("/bin/sh", argv, env);
		_exit(127);
	}
	close(output);
	close(errors);
	close(devnull);
	for (;;) {
		p = wait(&status);
		if (p == pid)
			break;
		if (p == -1 && errno != EINTR)
			return (127);
	}
	if (WIFSIGNALED(status))
		return (128 + WTERMSIG(status));
	return (WEXITSTATUS(status));
}

int
main(void)
{
	char *env, *out, *path, *ctl, *ctlpath, *target, text[32];
	size_t envlen;
	pthread_t thread;
	int fd, status;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	if ((fd = open("/dev/console", O_RDWR)) != -1) {
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	if ((fd = open("/dev/null", O_RDONLY)) != -1) {
		dup2(fd, 0);
		if (fd > 2)
			close(fd);
	}
	say("init up after %.2f s", uptime());

	read_module_list();
	if (pthread_create(&thread, NULL, loader, NULL) != 0)
		fail("cannot start a thread: %s", strerror(errno));
	wait_loaded(0);
	if (mount("out", "/out", "9p", 0, P9_OPTIONS) != 0)
		fail("cannot mount the results share: %s", strerror(errno));
	if ((env = read_file("/out/" CONTROL_DIR "/env", &envlen)) == NULL)
		fail("no /out/" CONTROL_DIR "/env in the results share");
	if ((out = env_value(env, envlen, "RB_OUT")) == NULL ||
	    out[0] != '/' || (path = env_value(env, envlen, "RB_PATH")) == NULL)
		fail("/out/" CONTROL_DIR "/env: expected RB_OUT and RB_PATH");
	build_root();
	wait_ready(&scratch_ready, 1);
	if (scratch_mounted) {
		if (mount("/scratch", NEWROOT "/var/tmp", NULL, MS_MOVE, NULL)
		    != 0)
			fail("cannot move the scratch disk: %s",
			    strerror(errno));
	} else {
		/*
		 * No scratch disk: say so plainly (tmpfs) rather than let
		 * /var/tmp look like a disk while its overlay writes go to
		 * memory.
		 */
		do_mount("tmpfs", NEWROOT "/var/tmp", "tmpfs", 0, "mode=1777");
	}
	sethostname("regionbench-vm", strlen("regionbench-vm"));
	target = join(NEWROOT, out);
	make_dirs(target, 0755);
	if (mount("/out", target, NULL, MS_MOVE, NULL) != 0)
		fail("cannot move the results share: %s", strerror(errno));
	ctl = join(out, "/" CONTROL_DIR);
	ctlpath = join(NEWROOT, ctl);

	snprintf(text, sizeof text, "%.2f\n", uptime());
	say("command starts after %.2f s", uptime());
	write_text(join(ctlpath, "/started"), text);
	status = run_command(out, ctl, path);
	say("command exited with status %d after %.2f s", status, uptime());
	save_kernel_log(target);
	snprintf(text, sizeof text, "%d\n", status);
	write_text(join(ctlpath, "/status.tmp"), text);
	if (rename(join(ctlpath, "/status.tmp"), join(ctlpath, "/status"))
	    != 0)
		say("cannot write the status: %s", strerror(errno));
	sync();
	umount(target);
	power_off();
}
