/*
 * Booting a kernel in QEMU and running one command inside it
 * (`regionbench vm`).  vm-kernel.c knows kernel images, vm-image.c
 * builds the initramfs (the static guest init and the modules the guest
 * needs) and vm-cache.c keeps what was built; vm-accel.c chooses KVM or
 * TCG; vm.c prepares a boot and vm-boot.c starts QEMU, relays the
 * command's output, enforces the timeout and brings the exit status back.
 * See docs/vm.md.
 */
#ifndef RB_VM_H
#define RB_VM_H

#include <stddef.h>
#include <stdint.h>

#include "vm-facts.h"

/* Where the command's control files live inside the results share. */
#define VM_CONTROL_DIR	".regionbench-vm"
#define VM_CONSOLE_FILE	"vm-console.log"
/* What QEMU itself printed (its errors when it could not run the guest). */
#define VM_QEMU_LOG_FILE	"vm-qemu.log"
/* The image of a kernel build tree given as --kernel DIR. */
#define VM_TREE_IMAGE	"arch/x86/boot/bzImage"
/*
 * The initramfs's /modules puts each module in a group the guest init
 * waits for at a different step (vm/vm-image.c, vm/vm-init.c).
 */
#define VM_MODULE_GROUPS	3

enum vm_accel { VM_ACCEL_AUTO, VM_ACCEL_KVM, VM_ACCEL_TCG };

/* A kernel image as found on disk. */
struct vm_kernel {
	char		*path;		/* absolute */
	char		*release;	/* e.g. 6.1.0-57-amd64 */
	char		 sha256[65];
	int		 elf;		/* vmlinux rather than a bzImage */
};

struct vm_settings {
	char		*kernel;
	char		*modules;	/* NULL: next to the image, or none */
	char		*append;
	uint64_t	 memory;
	long		 cpus;
	long		 nodes;
	uint64_t	 scratch;	/* 0: no scratch disk */
	int		 accel;		/* enum vm_accel */
	uint64_t	 timeout;	/* ns */
	char		*out;
	int		 quiet;
	int		 output_to_stderr; /* the command's stdout: ab keeps
					    its own for compare and gate */
};

/* The accelerator and CPU model a boot uses, and why (vm-accel.c). */
struct vm_accel_choice {
	char		*accel;		/* "kvm" or "tcg" */
	char		*cpu;		/* -cpu, NULL: QEMU's default */
	char		*reason;
	char		*kvm_error;	/* why KVM could not, or NULL */
};

/* vm-accel.c */
int	 vm_accel_choose(const char *qemu, int want,
	     struct vm_accel_choice *c, char **cause);
void	 vm_accel_choice_free(struct vm_accel_choice *c);
char	*vm_describe_wait(int st);
char	*vm_qemu_said(const char *text);
void	 vm_host_boot_id(char *out, size_t size);

/* vm-image.c */
char	*vm_cache_dir(char **cause);
int	 vm_kernel_load(struct vm_kernel *k, const char *path, char **cause);
void	 vm_kernel_free(struct vm_kernel *k);
char	*vm_modules_guess(const struct vm_kernel *k);
char	*vm_kernel_vmlinux(const struct vm_kernel *k);
int	 vm_sha256_file(const char *path, char out[65], char **cause);
int	 vm_system(char *const argv[], const char *logpath);
int	 vm_initramfs(const struct vm_kernel *k, const char *modules,
	     int keep_signatures, const char *init, char **out, char **cause);
int	 vm_signatures_enforced(const struct vm_kernel *k, const char *modules,
	     const char *append);
char	*vm_find_init(char **cause);

/* vm.c */
char	*vm_file_tail(const char *path, size_t size);
int	 vm_load_kernel(const struct vm_settings *set, struct vm_kernel *k,
	     char **modules, char **cause);
int	 vm_run(const struct vm_settings *set, char **argv, int argc,
	     char **cause);

#endif
