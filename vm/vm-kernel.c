/*
 * Kernel images for `regionbench vm`: checking that a file is a kernel
 * (a bzImage or a 64-bit ELF vmlinux), its release from its banner, its
 * checksum, the modules that go with it, whether an ELF image can be
 * booted directly (PVH) and the vmlinux inside a bzImage, decompressed.
 * vm-image.c builds the initramfs.
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
void
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
char *
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
