# lib/: shared code with no dependency on the other folders.
noinst_LIBRARIES += lib/librb.a
lib_librb_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
lib_librb_a_SOURCES = \
	lib/log.c lib/log.h \
	lib/opt.c lib/opt.h \
	lib/procfile.c lib/procfile.h \
	lib/procfs.h \
	lib/snapshot.c lib/snapshot.h \
	lib/source.h \
	lib/units.c lib/units.h
lib_librb_a_SOURCES += \
	lib/meta.c lib/meta.h \
	lib/sink-csv.c lib/sink-csv.h \
	lib/topology.c lib/topology.h
