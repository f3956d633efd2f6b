/*
 * The guest's initramfs for `regionbench vm` (the kernel images are
 * vm-kernel.c, the cache vm-cache.c).
 *
 * The initramfs is a newc cpio (uncompressed: the kernel unpacks it faster
 * than it would decompress it under emulation) holding the guest init
 * (regionbench-vm-init, a static program: vm/vm-init.c) and the modules
 * the guest needs for its root over 9p, its overlay and its ext4 scratch
 * disk, deepest dependency first.  It is built once per kernel and init
 * (a hash of both) and kept in $XDG_CACHE_HOME/regionbench/vm.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <lzma.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "atomic-file.h"
#include "input-file.h"
#include "log.h"
#include "trusted-path.h"
#include "units.h"
#include "vm.h"
#include "vm-private.h"

#define VM_INIT_NAME	"regionbench-vm-init"
#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif
#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC	0x62656572
#endif

/*
 * What the guest init needs, and the kernel option that provides it.  The
 * init loads the groups in order and waits for group 0 before it mounts
 * the shares, for group 1 before the overlay root and for group 2 (the
 * scratch disk's driver and file system: ext4 alone is most of the
 * modules' cost under emulation) before the scratch disk.
 */
static const struct vm_module_need {
	const char	*name;
	const char	*config;
	int		 group;
} vm_needs[] = {
	{ .name = "virtio_pci", .config = "CONFIG_VIRTIO_PCI" },
	{ .name = "9pnet_virtio", .config = "CONFIG_NET_9P_VIRTIO" },
	{ .name = "9p", .config = "CONFIG_9P_FS" },
	{ .name = "overlay", .config = "CONFIG_OVERLAY_FS", .group = 1 },
	{ .name = "crc32c_generic", .config = "CONFIG_CRYPTO_CRC32C",
	  .group = 2 },
	{ .name = "ext4", .config = "CONFIG_EXT4_FS", .group = 2 },
	{ .name = "virtio_blk", .config = "CONFIG_VIRTIO_BLK", .group = 2 },
	{ .name = NULL }
};

/* The trailer of a signed module (scripts/sign-file.c, module_signature.h). */
#define VM_MODSIG_MAGIC		"~Module signature appended~\n"
#define VM_MODSIG_INFO_LEN	12

/* Append to a growing memory buffer. */
void
vm_buf_add(struct vm_buf *b, const void *data, size_t len)
{
	if (b->len + len > b->cap) {
		b->cap = (b->len + len) * 2 + 4096;
		b->data = xreallocarray(b->data, b->cap, 1);
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
}

/*
 * Open a file vm reads: a regular file (a FIFO would hang, a device never
 * end), not in /proc or /sys (their files claim a size of 0 and some,
 * such as /proc/self/pagemap, read on for terabytes), of at most
 * VM_FILE_MAX bytes.  The descriptor, or a negative exit code with a
 * cause.
 */
int
vm_open_input(const char *path, struct stat *st, char **cause)
{
	struct statfs sfs;
	int fd;

	/* INPUT_SYSTEM: kernel files are refused below, in vm's words. */
	if ((fd = input_open(path, INPUT_SYSTEM, cause)) == -1)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: %s", path,
		    strerror(errno)));
	if (fd < 0)
		return (fd);
	if (fstatfs(fd, &sfs) == 0 && (sfs.f_type == PROC_SUPER_MAGIC ||
	    sfs.f_type == SYSFS_MAGIC)) {
		close(fd);
		return (fail_with(cause, RB_EXIT_INPUT, "%s: a file of /proc "
		    "or /sys, not one to boot or load", path));
	}
	if (fstat(fd, st) == -1 || (uint64_t)st->st_size > VM_FILE_MAX) {
		close(fd);
		return (fail_with(cause, RB_EXIT_INPUT, "%s: larger than %llu "
		    "MiB, not a file to boot or load", path,
		    (unsigned long long)(VM_FILE_MAX >> 20)));
	}
	return (fd);
}

/* Read a whole file (vm_open_input's); NULL with a cause on failure. */
char *
vm_read_file(const char *path, size_t *len, char **cause)
{
	struct vm_buf b = { 0 };
	char chunk[65536];
	struct stat st;
	ssize_t n;
	int fd;

	if ((fd = vm_open_input(path, &st, cause)) < 0)
		return (NULL);
	while ((n = read(fd, chunk, sizeof chunk)) > 0 &&
	    b.len <= VM_FILE_MAX)
		vm_buf_add(&b, chunk, n);
	close(fd);
	if (n < 0 || b.len > VM_FILE_MAX) {
		free(b.data);
		fail_with(cause, RB_EXIT_INPUT, "%s: %s", path, n < 0 ?
		    strerror(errno) : "grew past the largest file vm reads");
		return (NULL);
	}
	vm_buf_add(&b, "", 1);
	*len = b.len - 1;
	return (b.data);
}

/*
 * Is this file name a kernel module: NAME.ko, or one compressed as
 * modules_install does (.ko.xz, .ko.zst, .ko.gz)?  A build tree also holds
 * .NAME.ko.cmd, NAME.mod and the like, which are not.
 */
static int
vm_is_module_file(const char *name)
{
	static const char *const ends[] = { ".ko", ".ko.xz", ".ko.zst",
	    ".ko.gz" };
	size_t len = strlen(name), e;
	size_t i;

	if (name[0] == '.')
		return (0);
	for (i = 0; i < sizeof ends / sizeof ends[0]; i++) {
		e = strlen(ends[i]);
		if (len > e && strcmp(name + len - e, ends[i]) == 0)
			return (1);
	}
	return (0);
}

/* A module file's name ("9pnet_virtio.ko") as a module name. */
static char *
vm_module_name(const char *file)
{
	const char *base = strrchr(file, '/');
	char *name, *p;

	name = xstrdup(base != NULL ? base + 1 : file);
	if ((p = strstr(name, ".ko")) != NULL)
		*p = '\0';
	for (p = name; *p != '\0'; p++) {
		if (*p == '-')
			*p = '_';
	}
	return (name);
}


/*
 * A module file's contents, decompressed: distribution kernels since
 * about 6.2 ship NAME.ko.xz (or .ko.zst, .ko.gz), and the initramfs
 * holds them unpacked: decompressing them in the guest would be emulated work.
 */
static char *
vm_read_module(const char *path, size_t *len, char **cause)
{
	size_t plen = strlen(path), outlen;
	char *data, *out;

	if ((data = vm_read_file(path, len, cause)) == NULL)
		return (NULL);
	if (plen > 3 && strcmp(path + plen - 3, ".ko") == 0)
		return (data);
	out = vm_inflate((const uint8_t *)data, *len, &outlen);
	free(data);
	if (out == NULL) {
		fail_with(cause, RB_EXIT_INPUT, "%s: expected an ELF module "
		    "or one compressed with xz, zstd or gzip", path);
		return (NULL);
	}
	*len = outlen;
	return (out);
}

/* Every module file of a tree, and the modules built into the kernel. */
struct vm_modtree {
	char		*dir;
	int		 n;
	char		**names;
	char		**paths;
	int		 nbuiltin;
	char		**builtin;
};

static void
vm_modtree_free(struct vm_modtree *t)
{
	int i;

	for (i = 0; i < t->n; i++) {
		free(t->names[i]);
		free(t->paths[i]);
	}
	for (i = 0; i < t->nbuiltin; i++)
		free(t->builtin[i]);
	free(t->names);
	free(t->paths);
	free(t->builtin);
}

static int
vm_modtree_load(struct vm_modtree *t, const char *dir, char **cause)
{
	char *argv[] = { (char *)dir, NULL }, *text, *line, *save, *path;
	FTSENT *e;
	size_t len;
	FTS *fts;

	memset(t, 0, sizeof *t);
	t->dir = (char *)dir;
	if ((fts = fts_open(argv, FTS_PHYSICAL | FTS_NOCHDIR, NULL)) == NULL)
		return (fail_with(cause, RB_EXIT_INPUT, "--modules %s: %s",
		    dir, strerror(errno)));
	while ((e = fts_read(fts)) != NULL) {
		if (e->fts_info == FTS_DNR || e->fts_info == FTS_ERR) {
			fts_close(fts);
			return (fail_with(cause, RB_EXIT_INPUT,
			    "--modules %s: %s", e->fts_path,
			    strerror(e->fts_errno)));
		}
		if (e->fts_info != FTS_F || !vm_is_module_file(e->fts_name))
			continue;
		t->names = xreallocarray(t->names, t->n + 1,
		    sizeof *t->names);
		t->paths = xreallocarray(t->paths, t->n + 1,
		    sizeof *t->paths);
		t->names[t->n] = vm_module_name(e->fts_name);
		t->paths[t->n++] = xstrdup(e->fts_path);
	}
	fts_close(fts);
	path = xasprintf("%s/modules.builtin", dir);
	if ((text = vm_read_file(path, &len, NULL)) != NULL) {
		for (line = strtok_r(text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			t->builtin = xreallocarray(t->builtin,
			    t->nbuiltin + 1, sizeof *t->builtin);
			t->builtin[t->nbuiltin++] = vm_module_name(line);
		}
		free(text);
	}
	free(path);
	return (0);
}

/* The value of KEY in a module's .modinfo section, or NULL. */
static char *
vm_modinfo(const char *data, size_t len, const char *key)
{
	const Elf64_Ehdr *eh = (const void *)data;
	const Elf64_Shdr *sh, *strsec;
	const char *p, *end, *name;
	size_t klen = strlen(key);
	int i;

	if (len < sizeof *eh || memcmp(data, ELFMAG, SELFMAG) != 0 ||
	    data[EI_CLASS] != ELFCLASS64 || eh->e_shoff == 0 ||
	    eh->e_shoff > len || eh->e_shnum > (len - eh->e_shoff) /
	    sizeof *sh || eh->e_shstrndx >= eh->e_shnum)
		return (NULL);
	sh = (const void *)(data + eh->e_shoff);
	strsec = &sh[eh->e_shstrndx];
	if (strsec->sh_offset > len || strsec->sh_size > len -
	    strsec->sh_offset)
		return (NULL);
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strsec->sh_size)
			continue;
		name = data + strsec->sh_offset + sh[i].sh_name;
		if (strncmp(name, ".modinfo", strsec->sh_size -
		    sh[i].sh_name) != 0 || sh[i].sh_offset > len ||
		    sh[i].sh_size > len - sh[i].sh_offset)
			continue;
		p = data + sh[i].sh_offset;
		end = p + sh[i].sh_size;
		while (p < end) {
			const char *z = memchr(p, '\0', end - p);

			if (z == NULL)
				break;
			if ((size_t)(z - p) > klen && strncmp(p, key, klen) ==
			    0 && p[klen] == '=')
				return (xstrdup(p + klen + 1));
			p = z + 1;
		}
	}
	return (NULL);
}

/* The initramfs being assembled: the load order of its modules. */
struct vm_modset {
	int		 n;
	char		**names;
	char		**paths;
	/*
	 * The group of the needs that brought the module in (see vm_needs):
	 * the first that needed it, so a module's dependencies are in its
	 * group or an earlier one, which the init has loaded before.
	 */
	int		*groups;
	int		 adding_group;	/* the group of the needs being added */
};

static int
vm_modset_has(const struct vm_modset *s, const char *name)
{
	int i;

	for (i = 0; i < s->n; i++) {
		if (strcmp(s->names[i], name) == 0)
			return (1);
	}
	return (0);
}

/*
 * Add a module after its dependencies (depth first).  A module that is
 * built in needs nothing; one that is absent is an error naming the kernel
 * option (exit 3); one built for another kernel is an input error.
 */
static int
vm_modset_add(struct vm_modset *s, const struct vm_modtree *t,
    const struct vm_kernel *k, const char *name, const char *config,
    int depth, char **cause)
{
	char *data, *deps, *magic, *d, *save;
	size_t len;
	int i, rc = 0, group = s->adding_group;

	if (vm_modset_has(s, name))
		return (0);
	for (i = 0; i < t->nbuiltin; i++) {
		if (strcmp(t->builtin[i], name) == 0)
			return (0);
	}
	for (i = 0; i < t->n; i++) {
		if (strcmp(t->names[i], name) == 0)
			break;
	}
	if (i == t->n) {
		if (config != NULL)
			return (fail_with(cause, RB_EXIT_ENV, "kernel %s "
			    "lacks %s: no %s.ko under %s and not built in "
			    "(build it with %s=y or =m)", k->release, name,
			    name, t->dir, config));
		return (fail_with(cause, RB_EXIT_ENV, "kernel %s: module "
		    "%s (a dependency) is not under %s", k->release, name,
		    t->dir));
	}
	if (depth > 32)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: module "
		    "dependencies loop", t->paths[i]));
	if ((data = vm_read_module(t->paths[i], &len, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	magic = vm_modinfo(data, len, "vermagic");
	if (magic == NULL || strncmp(magic, k->release,
	    strlen(k->release)) != 0 || magic[strlen(k->release)] != ' ') {
		rc = fail_with(cause, RB_EXIT_INPUT, "--modules %s: %s is "
		    "built for kernel %.*s, the image is %s", t->dir,
		    t->paths[i], magic != NULL ? (int)strcspn(magic, " ") :
		    9, magic != NULL ? magic : "(unknown)", k->release);
		goto out;
	}
	if ((deps = vm_modinfo(data, len, "depends")) != NULL) {
		for (d = strtok_r(deps, ",", &save); d != NULL && rc == 0;
		    d = strtok_r(NULL, ",", &save)) {
			char *dn = vm_module_name(d);

			rc = vm_modset_add(s, t, k, dn, NULL, depth + 1,
			    cause);
			free(dn);
		}
		free(deps);
	}
	if (rc == 0) {
		s->names = xreallocarray(s->names, s->n + 1,
		    sizeof *s->names);
		s->paths = xreallocarray(s->paths, s->n + 1,
		    sizeof *s->paths);
		s->groups = xreallocarray(s->groups, s->n + 1,
		    sizeof *s->groups);
		s->names[s->n] = xstrdup(name);
		s->groups[s->n] = group;
		s->paths[s->n++] = xstrdup(t->paths[i]);
	}
out:
	free(magic);
	free(data);
	return (rc);
}

static void
vm_modset_free(struct vm_modset *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		free(s->names[i]);
		free(s->paths[i]);
	}
	free(s->names);
	free(s->paths);
	free(s->groups);
}

/* One newc cpio entry. */
static void
vm_cpio_add(struct vm_buf *b, const char *name, unsigned mode,
    unsigned rmajor, unsigned rminor, const void *data, size_t len)
{
	static unsigned ino = 1;
	static const char zeros[4];
	char hdr[160];
	size_t nlen = strlen(name) + 1;

	snprintf(hdr, sizeof hdr, "070701%08X%08X%08X%08X%08X%08X%08zX"
	    "%08X%08X%08X%08X%08zX%08X", ino++, mode, 0, 0,
	    (mode & S_IFMT) == S_IFDIR ? 2 : 1, 0, len, 0, 0, rmajor, rminor,
	    nlen, 0);
	vm_buf_add(b, hdr, 110);
	vm_buf_add(b, name, nlen);
	vm_buf_add(b, zeros, (4 - (110 + nlen) % 4) % 4);
	if (len > 0) {
		vm_buf_add(b, data, len);
		vm_buf_add(b, zeros, (4 - len % 4) % 4);
	}
}

/* Is an ELF file statically linked (no PT_INTERP)? */
static int
vm_elf_static(const char *data, size_t len)
{
	const Elf64_Ehdr *eh = (const void *)data;
	const Elf64_Phdr *ph;
	int i;

	if (len < sizeof *eh || memcmp(data, ELFMAG, SELFMAG) != 0 ||
	    data[EI_CLASS] != ELFCLASS64 || eh->e_phoff > len ||
	    eh->e_phnum > (len - eh->e_phoff) / sizeof *ph)
		return (0);
	ph = (const void *)(data + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_INTERP)
			return (0);
	}
	return (1);
}

/*
 * The guest init: $REGIONBENCH_VM_INIT, next to the program (an
 * uninstalled build: bench/regionbench-vm-init) or the installed
 * $(pkglibexecdir)/regionbench-vm-init.
 */
char *
vm_find_init(char **cause)
{
	char exe[PATH_MAX], *slash, *path;
	ssize_t n;

	if (getenv("REGIONBENCH_VM_INIT") != NULL) {
		/* It becomes the guest's PID 1, with the host's root. */
		if (trusted_file(getenv("REGIONBENCH_VM_INIT"),
		    "REGIONBENCH_VM_INIT", cause) != 0)
			return (NULL);
		return (xstrdup(getenv("REGIONBENCH_VM_INIT")));
	}
	n = readlink("/proc/self/exe", exe, sizeof exe - 16);
	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			strcpy(slash, "/" VM_INIT_NAME);
			if (access(exe, R_OK) == 0)
				return (xstrdup(exe));
		}
	}
	path = xstrdup(PKGLIBEXECDIR "/" VM_INIT_NAME);
	if (access(path, R_OK) == 0)
		return (path);
	fail_with(cause, RB_EXIT_ENV, "%s: %s (the guest init is missing: "
	    "reinstall regionbench or set REGIONBENCH_VM_INIT)", path,
	    strerror(errno));
	free(path);
	return (NULL);
}

/*
 * The cache key of an initramfs: its kernel, its init, whether module
 * signatures are kept, and the modules tree with the time its modules.dep
 * was written (depmod rewrites it at every modules_install), so modules
 * installed again at the same path make a new initramfs.  A build tree
 * has no modules.dep; kbuild rewrites its modules.order whenever a module
 * was rebuilt.
 */
static void
vm_initramfs_key(const struct vm_kernel *k, const char *modules,
    int keep_signatures, const char *init, size_t initlen, char hash[65])
{
	char inithash[65], *key, *dep;
	struct stat st = { 0 };

	vm_sha256(init, initlen, inithash);
	if (modules != NULL) {
		dep = xasprintf("%s/modules.dep", modules);
		if (stat(dep, &st) != 0) {
			free(dep);
			dep = xasprintf("%s/modules.order", modules);
			if (stat(dep, &st) != 0)
				memset(&st, 0, sizeof st);
		}
		free(dep);
	}
	key = xasprintf("%s %s %s %lld.%09ld %lld %d", k->sha256, inithash,
	    modules != NULL ? modules : "-",
	    (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec,
	    (long long)st.st_size, keep_signatures);
	vm_sha256(key, strlen(key), hash);
	free(key);
}

/* The modules the guest needs, with their dependencies, from a tree. */
static int
vm_initramfs_modset(struct vm_modset *set, const struct vm_kernel *k,
    const char *modules, char **cause)
{
	struct vm_modtree tree = { 0 };
	int i, group, rc;

	if (modules == NULL)
		return (0);
	if ((rc = vm_modtree_load(&tree, modules, cause)) != 0)
		goto out;
	/* Group by group, so a module already in the set stays in the
	 * first group that needed it. */
	for (group = 0; group < VM_MODULE_GROUPS && rc == 0; group++) {
		set->adding_group = group;
		for (i = 0; vm_needs[i].name != NULL && rc == 0; i++) {
			if (vm_needs[i].group == group)
				rc = vm_modset_add(set, &tree, k,
				    vm_needs[i].name, vm_needs[i].config, 0,
				    cause);
		}
	}
out:
	vm_modtree_free(&tree);
	return (rc);
}

/*
 * The length of a module without its appended signature.  Checking the
 * signature (a SHA-256 over the whole module, then RSA) is most of the
 * cost of loading a module under emulation; a kernel that does not
 * enforce signatures loads an unsigned module and marks itself tainted
 * (E), which vm.json records.
 */
static size_t
vm_module_unsigned_len(const char *data, size_t len)
{
	const unsigned char *info;
	size_t magic = sizeof VM_MODSIG_MAGIC - 1, siglen;

	if (len < magic + VM_MODSIG_INFO_LEN ||
	    memcmp(data + len - magic, VM_MODSIG_MAGIC, magic) != 0)
		return (len);
	/* struct module_signature: ..., signer_len, key_id_len, pad[3],
	 * sig_len (big-endian). */
	info = (const unsigned char *)data + len - magic - VM_MODSIG_INFO_LEN;
	siglen = (size_t)info[8] << 24 | (size_t)info[9] << 16 |
	    (size_t)info[10] << 8 | info[11];
	siglen += info[3] + info[4];
	if (siglen > len - magic - VM_MODSIG_INFO_LEN)
		return (len);
	return (len - magic - VM_MODSIG_INFO_LEN - siglen);
}

/*
 * Add each module file and the list of them to a cpio: one "GROUP NAME.ko"
 * line each, in load order (each module after those it needs, groups in
 * order).  keep_signatures is set when the kernel enforces them.
 */
static int
vm_cpio_modules(struct vm_buf *b, const struct vm_modset *set,
    int keep_signatures, char **cause)
{
	struct vm_buf order = { 0 };
	char *data, name[PATH_MAX];
	size_t len;
	int i;

	for (i = 0; i < set->n; i++) {
		if ((data = vm_read_module(set->paths[i], &len, cause)) ==
		    NULL) {
			free(order.data);
			return (-RB_EXIT_INPUT);
		}
		snprintf(name, sizeof name, "lib/modules/%s.ko",
		    set->names[i]);
		if (!keep_signatures)
			len = vm_module_unsigned_len(data, len);
		vm_cpio_add(b, name, S_IFREG | 0644, 0, 0, data, len);
		free(data);
		snprintf(name, sizeof name, "%d %s.ko\n", set->groups[i],
		    set->names[i]);
		vm_buf_add(&order, name, strlen(name));
	}
	vm_cpio_add(b, "modules", S_IFREG | 0644, 0, 0, order.data,
	    order.len);
	free(order.data);
	return (0);
}

/* Build an initramfs from the init and the modules into path. */
static int
vm_initramfs_build(const struct vm_kernel *k, const char *modules,
    int keep_signatures, const char *init, size_t initlen, const char *path,
    char **cause)
{
	/* The init's mount points, made here so it starts by mounting. */
	static const char *const dirs[] = { "dev", "proc", "sys", "out",
	    "lower", "upper", "newroot", "scratch", "lib", "lib/modules",
	    NULL };
	struct vm_modset set = { 0 };
	struct vm_buf b = { 0 };
	int i, rc;

	if ((rc = vm_initramfs_modset(&set, k, modules, cause)) != 0)
		goto out;
	vm_cpio_add(&b, ".", S_IFDIR | 0755, 0, 0, NULL, 0);
	for (i = 0; dirs[i] != NULL; i++)
		vm_cpio_add(&b, dirs[i], S_IFDIR | 0755, 0, 0, NULL, 0);
	vm_cpio_add(&b, "dev/console", S_IFCHR | 0600, 5, 1, NULL, 0);
	vm_cpio_add(&b, "init", S_IFREG | 0755, 0, 0, init, initlen);
	if ((rc = vm_cpio_modules(&b, &set, keep_signatures, cause)) != 0)
		goto out;
	vm_cpio_add(&b, "TRAILER!!!", 0, 0, 0, NULL, 0);
	if (vm_cache_store(path, b.data, b.len, cause) != 0)
		rc = -RB_EXIT_ENV;
out:
	vm_modset_free(&set);
	free(b.data);
	return (rc);
}

/* Does a kernel config file say CONFIG_MODULE_SIG_FORCE=y? */
static int
vm_config_forces_signatures(const char *path)
{
	char line[256];
	FILE *f;
	int forced = 0;

	if ((f = fopen(path, "r")) == NULL)
		return (0);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strcmp(line, "CONFIG_MODULE_SIG_FORCE=y\n") == 0) {
			forced = 1;
			break;
		}
	}
	fclose(f);
	return (forced);
}

/*
 * Must the guest's modules keep their signatures?  Yes when the boot
 * arguments enforce them, or when a config found beside the kernel (a
 * package's boot/config-RELEASE, a build tree's .config, the modules'
 * build/.config) says CONFIG_MODULE_SIG_FORCE=y.  A kernel without any of
 * these is taken not to enforce them; if it does, its init says which
 * module it could not load.
 */
int
vm_signatures_enforced(const struct vm_kernel *k, const char *modules,
    const char *append)
{
	char *dir, *slash, *path[3] = { NULL, NULL, NULL };
	const char *p;
	int i, forced = 0;

	for (p = append; p != NULL && (p = strstr(p, "module.sig_enforce"));
	    p++) {
		const char *v = p + strlen("module.sig_enforce");

		if ((p == append || p[-1] == ' ') && (*v == '\0' ||
		    *v == ' ' || strncmp(v, "=1", 2) == 0 ||
		    strncmp(v, "=y", 2) == 0 || strncmp(v, "=Y", 2) == 0))
			return (1);
	}
	dir = xstrdup(k->path);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	path[0] = xasprintf("%s/config-%s", dir, k->release);
	/* arch/x86/boot/bzImage: the build tree is three levels up. */
	path[1] = xasprintf("%s/../../../.config", dir);
	if (modules != NULL)
		path[2] = xasprintf("%s/build/.config", modules);
	for (i = 0; i < 3 && !forced; i++) {
		if (path[i] != NULL)
			forced = vm_config_forces_signatures(path[i]);
	}
	for (i = 0; i < 3; i++)
		free(path[i]);
	free(dir);
	return (forced);
}

/*
 * The initramfs for a kernel: from the cache, or built now.  modules is
 * the kernel's lib/modules/RELEASE tree, or NULL when everything the guest
 * needs is built in; keep_signatures keeps the modules' signatures (for a
 * kernel that enforces them).  Sets *out to the cached file's path and returns 0,
 * or returns -RB_EXIT_INPUT (bad input) or -RB_EXIT_ENV (a missing
 * piece) with a cause.
 */
int
vm_initramfs(const struct vm_kernel *k, const char *modules,
    int keep_signatures, const char *init, char **out, char **cause)
{
	char *data = NULL, *dir = NULL, *path = NULL;
	char hash[65];
	size_t len;
	int rc = -RB_EXIT_INPUT;

	*out = NULL;
	if ((data = vm_read_file(init, &len, cause)) == NULL)
		goto out;
	if (!vm_elf_static(data, len)) {
		rc = fail_with(cause, RB_EXIT_ENV, "%s: not a static "
		    "executable (the guest init; reinstall regionbench)", init);
		goto out;
	}
	vm_initramfs_key(k, modules, keep_signatures, data, len, hash);
	if ((dir = vm_cache_dir(cause)) == NULL) {
		rc = -RB_EXIT_ENV;
		goto out;
	}
	path = xasprintf("%s/initramfs-%.32s.cpio", dir, hash);
	if (vm_cache_valid(path)) {
		vm_cache_used(path);
		rc = 0;
	} else if ((rc = vm_initramfs_build(k, modules, keep_signatures,
	    data, len, path, cause)) != 0) {
		free(path);
		path = NULL;
	} else
		vm_cache_prune(dir);
out:
	*out = path;
	free(data);
	free(dir);
	return (rc);
}

