# vm/: kernels booted in QEMU (regionbench vm, ab): the harness that
# boots a guest and runs one command in it, the choice of accelerator, the
# kernel images and the initramfs, the guest's own init, and ab's
# alternating boots judged in-process by compare, report and the gate.
# May use lib/ and analyze/.
noinst_LIBRARIES += vm/libvm.a
vm_libvm_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
vm_libvm_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyze \
	-I$(top_srcdir)/vm
vm_libvm_a_SOURCES = \
	vm/vm.c vm/vm.h vm/vm-private.h vm/vm-boot.c \
	vm/vm-accel.c \
	vm/vm-image.c vm/vm-kernel.c vm/vm-cache.c \
	vm/vm-ab.c vm/vm-ab.h

# The init of the guests `regionbench vm` boots, found next to the program
# in an uninstalled build (so built as bench/regionbench-vm-init).  Static,
# since the initramfs holds no libc, and built without the sanitizers,
# which cannot link statically.
pkglibexec_PROGRAMS = bench/regionbench-vm-init
bench_regionbench_vm_init_SOURCES = vm/vm-init.c
bench_regionbench_vm_init_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/vm
bench_regionbench_vm_init_CFLAGS = -Wall -Wextra -Wshadow -Wno-sign-compare \
	-Wmissing-prototypes -Wstrict-prototypes -Wformat=2
bench_regionbench_vm_init_LDFLAGS = -static
