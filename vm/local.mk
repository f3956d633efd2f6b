# vm/: what runs the program's commands in guests and judges them from the
# host: regionbench ab's alternating boots, then compare, report and the
# gate called in-process.  May use lib/ and analyze/.
noinst_LIBRARIES += vm/libvm.a
vm_libvm_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
vm_libvm_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyze \
	-I$(top_srcdir)/vm
vm_libvm_a_SOURCES = \
	vm/vm-ab.c vm/vm-ab.h
