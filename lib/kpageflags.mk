# lib/: the kpageflags region source, emulated region maps and placement
# (issue 3).  Included from Makefile.am after lib/local.mk.
lib_librb_a_SOURCES += \
	lib/placement.c lib/placement.h \
	lib/region-map.c lib/region-map.h \
	lib/src-kpageflags.c lib/src-kpageflags.h
