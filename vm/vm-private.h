/*
 * What the files of the vm harness share (vm.c preparing a boot,
 * vm-boot.c running QEMU and judging the boot); nothing outside vm/
 * includes it.
 */
#ifndef RB_VM_PRIVATE_H
#define RB_VM_PRIVATE_H

#include <jansson.h>
#include <sys/stat.h>

#include <signal.h>
#include <stdint.h>

#include "vm.h"

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

/* The signals that stop a boot, and the one that came (vm.c). */
extern const int vm_sigs[3];
extern volatile sig_atomic_t vm_signal;

int	 vm_boot(struct vm_boot *b, char **cause);

/*
 * The largest file vm reads whole (a kernel image, a module, the init):
 * an ELF vmlinux with debug information is some hundreds of MiB; anything
 * larger is not something to boot, and reading it would only exhaust the
 * host's memory.  Decompressed payloads (a bzImage's kernel, a module)
 * are bounded the same way.
 */
#define VM_FILE_MAX	(2ULL << 30)
#define VM_INFLATE_MAX	(1ULL << 30)

/* A growing buffer (vm-image.c). */
struct vm_buf {
	char		*data;
	size_t		 len;
	size_t		 cap;
};

void	 vm_buf_add(struct vm_buf *b, const void *data, size_t len);
int	 vm_open_input(const char *path, struct stat *st, char **cause);
char	*vm_read_file(const char *path, size_t *len, char **cause);
char	*vm_inflate(const uint8_t *in, size_t inlen, size_t *outlen);
void	 vm_sha256(const void *data, size_t len, char out[65]);

/* The cache of built images (vm-image.c). */
void	 vm_cache_used(const char *path);
int	 vm_cache_store(const char *path, const void *data, size_t len,
	     char **cause);
int	 vm_cache_valid(const char *path);
void	 vm_cache_prune(const char *dir);

#endif
