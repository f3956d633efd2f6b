# lib/: the /proc parsers and the text region sources (included from
# Makefile.am after lib/local.mk).
lib_librb_a_SOURCES += \
	lib/procfs-lex.c lib/procfs-lex.h \
	lib/procfs-zoneinfo.c \
	lib/procfs-buddyinfo.c \
	lib/procfs-pagetypeinfo.c \
	lib/source.c \
	lib/src-procfs.c lib/src-procfs.h \
	lib/src-patched.c \
	lib/src-sorted-buddy.c \
	lib/src-zone.c
