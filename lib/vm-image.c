/*
 * Kernel images and the guest's initramfs for `regionbench vm`.
 *
 * The initramfs is a newc cpio (uncompressed: the kernel unpacks it faster
 * than it would decompress it under emulation) holding the guest init
 * (regionbench-vm-init, a static program: bench/vm-init.c) and the modules
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

#define VM_INIT_NAME	"regionbench-vm-init"
/*
 * The largest file vm reads whole (a kernel image, a module, the init):
 * an ELF vmlinux with debug information is some hundreds of MiB; anything
 * larger is not something to boot, and reading it would only exhaust the
 * host's memory.  Decompressed payloads (a bzImage's kernel, a module)
 * are bounded the same way.
 */
#define VM_FILE_MAX	(2ULL << 30)
#define VM_INFLATE_MAX	(1ULL << 30)
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

/* A growing memory buffer. */
struct vm_buf {
	char		*data;
	size_t		 len;
	size_t		 cap;
};

static void
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
static int
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
static char *
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
 * Is path a kernel image at all (a bzImage's "HdrS" or a 64-bit ELF)?
 * Checked on the first page before the whole file is read.
 */
static int
vm_looks_like_kernel(const char *path, char **cause)
{
	unsigned char head[0x210];
	struct stat st;
	ssize_t n;
	int fd;

	if ((fd = vm_open_input(path, &st, cause)) < 0)
		return (fd);
	n = pread(fd, head, sizeof head, 0);
	close(fd);
	if ((n == (ssize_t)sizeof head && memcmp(head + 0x202, "HdrS", 4) ==
	    0) || (n > EI_CLASS && memcmp(head, ELFMAG, SELFMAG) == 0 &&
	    head[EI_CLASS] == ELFCLASS64))
		return (0);
	return (fail_with(cause, RB_EXIT_INPUT, "--kernel %s: not a "
	    "kernel image (neither a bzImage nor an ELF vmlinux)", path));
}

/* SHA-256 of a memory block as 64 hex digits. */
static void
vm_sha256(const void *data, size_t len, char out[65])
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	int i;

	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof digest, digest);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

/* SHA-256 of a file. */
int
vm_sha256_file(const char *path, char out[65], char **cause)
{
	char *data;
	size_t len;

	if ((data = vm_read_file(path, &len, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	vm_sha256(data, len, out);
	free(data);
	return (0);
}

/* The release in a "Linux version R ..." banner, or NULL. */
static char *
vm_banner_release(const char *data, size_t len)
{
	static const char banner[] = "Linux version ";
	const char *p = data, *end = data + len, *r;

	while ((p = memmem(p, end - p, banner, sizeof banner - 1)) != NULL) {
		r = p + sizeof banner - 1;
		p = r;
		/* The banner is followed by the release and " (". */
		while (p < end && *p > ' ' && *p < 127)
			p++;
		if (p > r && p + 1 < end && p[0] == ' ' && p[1] == '(')
			return (xstrndup(r, p - r));
	}
	return (NULL);
}

/*
 * Identify a kernel image: a bzImage (the boot protocol's "HdrS" header,
 * whose kernel_version field points at the release) or an ELF vmlinux
 * (booted through its PVH note; the release is in its banner).  A
 * directory is a kernel build tree, whose image is arch/x86/boot/bzImage.
 */
int
vm_kernel_load(struct vm_kernel *k, const char *path, char **cause)
{
	char real[PATH_MAX], *data, *v, *image;
	struct stat st;
	size_t len, off;
	int rc;

	memset(k, 0, sizeof *k);
	if (realpath(path, real) == NULL)
		return (fail_with(cause, RB_EXIT_INPUT, "--kernel %s: %s",
		    path, strerror(errno)));
	if (stat(real, &st) == 0 && S_ISDIR(st.st_mode)) {
		image = xasprintf("%s/" VM_TREE_IMAGE, path);
		if (realpath(image, real) == NULL) {
			free(image);
			return (fail_with(cause, RB_EXIT_INPUT, "--kernel %s: "
			    "a directory without " VM_TREE_IMAGE " (give the "
			    "image, or build it: make bzImage)", path));
		}
		rc = vm_kernel_load(k, image, cause);
		free(image);
		return (rc);
	}
	if ((rc = vm_looks_like_kernel(real, cause)) != 0)
		return (rc);
	if ((data = vm_read_file(real, &len, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	if (len > 0x210 && memcmp(data + 0x202, "HdrS", 4) == 0) {
		off = 0x200 + ((uint8_t)data[0x20e] |
		    (uint8_t)data[0x20f] << 8);
		if (data[0x20e] != 0 || data[0x20f] != 0) {
			if (off < len && (v = memchr(data + off, '\0',
			    len - off)) != NULL && v > data + off)
				k->release = xstrndup(data + off,
				    strcspn(data + off, " "));
		}
	} else if (len > SELFMAG && memcmp(data, ELFMAG, SELFMAG) == 0 &&
	    data[EI_CLASS] == ELFCLASS64) {
		k->elf = 1;
		k->release = vm_banner_release(data, len);
	} else {
		free(data);
		return (fail_with(cause, RB_EXIT_INPUT, "--kernel %s: not a "
		    "kernel image (neither a bzImage nor an ELF vmlinux)",
		    path));
	}
	if (k->release == NULL) {
		free(data);
		return (fail_with(cause, RB_EXIT_INPUT, "--kernel %s: no "
		    "kernel release found in the image", path));
	}
	vm_sha256(data, len, k->sha256);
	free(data);
	k->path = xstrdup(real);
	return (0);
}

void
vm_kernel_free(struct vm_kernel *k)
{
	free(k->path);
	free(k->release);
	memset(k, 0, sizeof *k);
}

/*
 * The modules of an image, found where they usually are: an image unpacked
 * or installed the usual way, PREFIX/boot/vmlinuz-R, goes with
 * PREFIX/lib/modules/R; an image left in its kernel build tree,
 * TREE/arch/ARCH/boot/bzImage, with the modules built in TREE (its
 * modules.order says `make modules` ran there).  NULL when neither is
 * found.
 */
char *
vm_modules_guess(const struct vm_kernel *k)
{
	char *dir, *slash, *path;
	struct stat st;
	int i;

	dir = xstrdup(k->path);
	for (i = 0; i < 2 && (slash = strrchr(dir, '/')) != NULL; i++)
		*slash = '\0';
	if (i < 2) {
		free(dir);
		return (NULL);
	}
	path = xasprintf("%s/lib/modules/%s", dir, k->release);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		free(dir);
		return (path);
	}
	free(path);
	/* dir is TREE/arch/ARCH when the image is TREE/arch/ARCH/boot/X. */
	if ((slash = strrchr(dir, '/')) != NULL &&
	    slash - dir >= 5 && strncmp(slash - 5, "/arch", 5) == 0) {
		slash[-5] = '\0';
		path = xasprintf("%s/modules.order", dir);
		if (access(path, R_OK) == 0) {
			free(path);
			return (dir);
		}
		free(path);
	}
	free(dir);
	return (NULL);
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

static char	*vm_inflate(const uint8_t *, size_t, size_t *);

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

/* The cache directory, created; NULL with a cause. */
char *
vm_cache_dir(char **cause)
{
	const char *base = getenv("XDG_CACHE_HOME");
	char *dir, *p;

	if (base != NULL && base[0] == '/')
		dir = xasprintf("%s/regionbench/vm", base);
	else if (getenv("HOME") != NULL)
		dir = xasprintf("%s/.cache/regionbench/vm", getenv("HOME"));
	else {
		fail_with(cause, RB_EXIT_ENV, "no cache directory: set "
		    "XDG_CACHE_HOME or HOME");
		return (NULL);
	}
	for (p = dir + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(dir, 0755) == -1 && errno != EEXIST) {
			fail_with(cause, RB_EXIT_ENV, "%s: %s", dir,
			    strerror(errno));
			free(dir);
			return (NULL);
		}
		*p = c;
		if (c == '\0')
			break;
	}
	/*
	 * The guest boots what it finds here, as root, with the host's
	 * files in reach: nobody else may be able to put anything here.
	 */
	if (trusted_dir(dir, "the vm cache ($XDG_CACHE_HOME or $HOME/.cache)",
	    cause) != 0) {
		free(dir);
		return (NULL);
	}
	return (dir);
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
 * The cache holds an unpacked vmlinux (tens of MiB) for every kernel image
 * booted and an initramfs for every kernel, init and modules tree, so a
 * kernel developer rebuilding all day would fill the disk.  Every use of an
 * entry refreshes its modification time; after one is added, the least
 * recently used go while the cache is over VM_CACHE_MAX
 * (REGIONBENCH_VM_CACHE_MAX overrides), sparing those used in the last
 * VM_CACHE_MIN_AGE seconds, which a boot starting now may be about to open.
 */
#define VM_CACHE_MAX		(1ULL << 30)
#define VM_CACHE_MIN_AGE	3600

struct vm_cache_entry {
	char	*path;
	time_t	 used;
	off_t	 size;
};

/* Mark a cache entry as used now. */
static void
vm_cache_used(const char *path)
{
	utimensat(AT_FDCWD, path, NULL, 0);
}

static int
vm_cache_entry_cmp(const void *a, const void *b)
{
	const struct vm_cache_entry *x = a, *y = b;

	return (x->used < y->used ? -1 : x->used > y->used);
}

/* Is this file of the cache's own: a vmlinux or an initramfs? */
static int
vm_cache_is_entry(const char *name)
{
	size_t len = strlen(name);

	if (len > 7 && strcmp(name + len - 7, ".sha256") == 0)
		return (0);
	return (strncmp(name, "vmlinux-", 8) == 0 ||
	    strncmp(name, "initramfs-", 10) == 0);
}

/*
 * Store a cache entry and, beside it (PATH.sha256), the hash of what was
 * written; 0 or a negative exit code with a cause.
 */
static int
vm_cache_store(const char *path, const void *data, size_t len, char **cause)
{
	char hash[65], *side;
	int rc;

	vm_sha256(data, len, hash);
	side = xasprintf("%s.sha256", path);
	hash[64] = '\n';
	rc = atomic_file_write(path, data, len, cause) != 0 ||
	    atomic_file_write(side, hash, 65, cause) != 0 ? -RB_EXIT_ENV : 0;
	free(side);
	return (rc);
}

/*
 * Is the cached file at path usable: this user's or root's, writable by
 * nobody else, and still what was stored (its hash)?  Anything else is
 * removed, with a warning when it is not merely absent, and rebuilt.
 */
static int
vm_cache_valid(const char *path)
{
	char want[66] = "", have[65], *side, *why = NULL;
	FILE *f;
	int ok;

	if (access(path, F_OK) == -1)
		return (0);
	side = xasprintf("%s.sha256", path);
	if ((f = fopen(side, "re")) != NULL) {
		if (fgets(want, sizeof want, f) == NULL)
			want[0] = '\0';
		fclose(f);
	}
	want[strcspn(want, "\n")] = '\0';
	ok = trusted_file(path, "vm cache", &why) == 0 &&
	    trusted_file(side, "vm cache", &why) == 0 &&
	    vm_sha256_file(path, have, NULL) == 0 && strcmp(want, have) == 0;
	if (!ok) {
		log_warnx("vm: %s: %s; built again", path, why != NULL ? why :
		    "not what was stored (its hash differs)");
		unlink(path);
		unlink(side);
	}
	free(why);
	free(side);
	return (ok);
}

/* Remove the least recently used entries while the cache is too big. */
static void
vm_cache_prune(const char *dir)
{
	const char *env = getenv("REGIONBENCH_VM_CACHE_MAX");
	struct vm_cache_entry *e = NULL;
	uint64_t max = VM_CACHE_MAX, total = 0;
	struct dirent *d;
	struct stat st;
	time_t now = time(NULL);
	size_t n = 0, i;
	DIR *dp;

	if (env != NULL && units_parse_size(env, &max, NULL) != 0) {
		log_warnx("vm: REGIONBENCH_VM_CACHE_MAX=%s is not a size; "
		    "the cache is kept to 1G", env);
		max = VM_CACHE_MAX;
	}
	if ((dp = opendir(dir)) == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if (!vm_cache_is_entry(d->d_name) ||
		    fstatat(dirfd(dp), d->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		e = xreallocarray(e, n + 1, sizeof *e);
		e[n].path = xasprintf("%s/%s", dir, d->d_name);
		e[n].used = st.st_mtime;
		e[n++].size = st.st_size;
		total += (uint64_t)st.st_size;
	}
	closedir(dp);
	qsort(e, n, sizeof *e, vm_cache_entry_cmp);
	for (i = 0; i < n && total > max; i++) {
		if (now - e[i].used < VM_CACHE_MIN_AGE)
			break;
		if (unlink(e[i].path) == 0) {
			char *side = xasprintf("%s.sha256", e[i].path);

			unlink(side);
			free(side);
			total -= (uint64_t)e[i].size;
		}
	}
	for (i = 0; i < n; i++)
		free(e[i].path);
	free(e);
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

/* Does an ELF vmlinux carry the PVH entry note (XEN_ELFNOTE_PHYS32_ENTRY)? */
static int
vm_elf_has_pvh(const char *data, size_t len)
{
	const Elf64_Ehdr *eh = (const void *)data;
	const Elf64_Phdr *ph;
	const Elf64_Nhdr *nh;
	size_t off, end;
	int i;

	if (len < sizeof *eh || memcmp(data, ELFMAG, SELFMAG) != 0 ||
	    data[EI_CLASS] != ELFCLASS64 || eh->e_phoff > len ||
	    eh->e_phnum > (len - eh->e_phoff) / sizeof *ph)
		return (0);
	ph = (const void *)(data + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_NOTE || ph[i].p_offset > len ||
		    ph[i].p_filesz > len - ph[i].p_offset)
			continue;
		off = ph[i].p_offset;
		end = off + ph[i].p_filesz;
		while (off + sizeof *nh <= end) {
			nh = (const void *)(data + off);
			if (nh->n_namesz == 4 && off + sizeof *nh + 4 <= end &&
			    memcmp(data + off + sizeof *nh, "Xen", 4) == 0 &&
			    nh->n_type == 18)
				return (1);
			off += sizeof *nh + ((nh->n_namesz + 3) & ~3U) +
			    ((nh->n_descsz + 3) & ~3U);
		}
	}
	return (0);
}

/* Decompress an xz, zstd or gzip payload; NULL when it is none or bad. */
static char *
vm_inflate(const uint8_t *in, size_t inlen, size_t *outlen)
{
	struct vm_buf b = { 0 };
	uint8_t chunk[1 << 16];
	int done = 0;

	/* Each loop below stops adding once the output is past the bound. */
#define VM_INFLATE_ROOM	(b.len <= VM_INFLATE_MAX)

	if (inlen > 6 && memcmp(in, "\3757zXZ\0", 6) == 0) {
		lzma_stream xs = LZMA_STREAM_INIT;
		lzma_ret r;

		if (lzma_stream_decoder(&xs, UINT64_MAX, 0) != LZMA_OK)
			return (NULL);
		xs.next_in = in;
		xs.avail_in = inlen;
		do {
			xs.next_out = chunk;
			xs.avail_out = sizeof chunk;
			r = lzma_code(&xs, LZMA_FINISH);
			vm_buf_add(&b, chunk, sizeof chunk - xs.avail_out);
		} while (r == LZMA_OK && VM_INFLATE_ROOM);
		lzma_end(&xs);
		done = r == LZMA_STREAM_END;
	} else if (inlen > 4 && memcmp(in, "\x28\xb5\x2f\xfd", 4) == 0) {
		/* zstd: bzImages since 5.9 may carry it, modules since 6.2. */
		ZSTD_DCtx *zs = ZSTD_createDCtx();
		ZSTD_inBuffer ib = { in, inlen, 0 };
		size_t r = 1;

		if (zs == NULL)
			return (NULL);
		/* The kernel's -22 --ultra needs more than the default window. */
		ZSTD_DCtx_setParameter(zs, ZSTD_d_windowLogMax, 31);
		/*
		 * One frame: what follows it in a bzImage (the unpacked size)
		 * is not another frame.  r is 0 once the frame is whole.
		 */
		while (r != 0 && VM_INFLATE_ROOM) {
			ZSTD_outBuffer ob = { chunk, sizeof chunk, 0 };

			r = ZSTD_decompressStream(zs, &ob, &ib);
			if (ZSTD_isError(r))
				break;
			vm_buf_add(&b, chunk, ob.pos);
			if (r != 0 && ib.pos == ib.size && ob.pos < ob.size)
				break;	/* cut short */
		}
		ZSTD_freeDCtx(zs);
		done = r == 0;
	} else if (inlen > 2 && in[0] == 0x1f && in[1] == 0x8b) {
		z_stream zs = { 0 };
		int r;

		if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
			return (NULL);
		zs.next_in = (uint8_t *)in;
		zs.avail_in = inlen;
		do {
			zs.next_out = chunk;
			zs.avail_out = sizeof chunk;
			r = inflate(&zs, Z_NO_FLUSH);
			vm_buf_add(&b, chunk, sizeof chunk - zs.avail_out);
		} while (r == Z_OK && VM_INFLATE_ROOM);
		inflateEnd(&zs);
		done = r == Z_STREAM_END;
	}
#undef VM_INFLATE_ROOM
	if (!done || b.len > VM_INFLATE_MAX) {
		free(b.data);
		return (NULL);
	}
	*outlen = b.len;
	return (b.data);
}

/*
 * The kernel as an ELF vmlinux QEMU can boot through its PVH entry, which
 * skips the firmware and the decompressor (the slowest part of a boot
 * under emulation): the image itself when it is one, else the xz, zstd or gzip
 * payload of the bzImage, unpacked once into the cache.  NULL when
 * neither works; the caller then boots the bzImage.
 */
char *
vm_kernel_vmlinux(const struct vm_kernel *k)
{
	char *data = NULL, *elf = NULL, *dir = NULL, *path = NULL;
	size_t len, elflen, off, plen;
	const uint8_t *h;

	if (k->elf)
		return (xstrdup(k->path));
	if ((dir = vm_cache_dir(NULL)) == NULL)
		return (NULL);
	path = xasprintf("%s/vmlinux-%.32s", dir, k->sha256);
	if (vm_cache_valid(path)) {
		vm_cache_used(path);
		goto out;
	}
	if ((data = vm_read_file(k->path, &len, NULL)) == NULL ||
	    len < 0x250)
		goto fail;
	h = (const uint8_t *)data;
	off = ((h[0x1f1] != 0 ? h[0x1f1] : 4) + 1) * 512 +
	    (h[0x248] | h[0x249] << 8 | h[0x24a] << 16 |
	    (uint32_t)h[0x24b] << 24);
	plen = h[0x24c] | h[0x24d] << 8 | h[0x24e] << 16 |
	    (uint32_t)h[0x24f] << 24;
	if (off >= len || plen > len - off)
		goto fail;
	if ((elf = vm_inflate(h + off, plen, &elflen)) == NULL ||
	    !vm_elf_has_pvh(elf, elflen))
		goto fail;
	if (vm_cache_store(path, elf, elflen, NULL) != 0)
		goto fail;
	vm_cache_prune(dir);
	goto out;
fail:
	free(path);
	path = NULL;
out:
	free(elf);
	free(data);
	free(dir);
	return (path);
}
