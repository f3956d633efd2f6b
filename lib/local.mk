# lib/: shared code with no dependency on the other folders: the /proc
# parsers, the region sources, snapshots, the sinks, options and units.
# See docs/architecture.md for where each kind of extension goes.
noinst_LIBRARIES += lib/librb.a
lib_librb_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
# RB_SOURCE_DATADIR: where an uninstalled build finds the suites and rules.
lib_librb_a_CPPFLAGS = $(AM_CPPFLAGS) \
	-DRB_SOURCE_DATADIR='"$(abs_top_srcdir)/bench"'
lib_librb_a_SOURCES = \
	lib/log.c lib/log.h \
	lib/opt.c lib/opt-help.c lib/opt.h \
	lib/suggest.c lib/suggest.h \
	lib/units.c lib/units.h \
	lib/procfile.c lib/procfile.h \
	lib/cgroup.c lib/cgroup.h \
	lib/damon.c lib/damon-map.c lib/damon.h \
	lib/procfs.h \
	lib/procfs-lex.c lib/procfs-lex.h \
	lib/procfs-zoneinfo.c \
	lib/procfs-buddyinfo.c \
	lib/procfs-pagetypeinfo.c \
	lib/vmstat.c lib/vmstat.h \
	lib/vacate.c lib/vacate.h lib/vacate-print.c \
	lib/topology.c lib/topology.h \
	lib/snapshot.c lib/snapshot.h \
	lib/snapshot-json.c lib/snapshot-json.h \
	lib/source.c lib/source.h \
	lib/src-procfs.c lib/src-procfs.h \
	lib/src-patched.c \
	lib/src-sorted-buddy.c \
	lib/src-zone.c \
	lib/src-recorded.c lib/src-recorded.h \
	lib/region-map.c lib/region-map.h lib/region-map-private.h \
	lib/region-map-sysfs.c lib/region-map-file.c \
	lib/region-map-json.c \
	lib/src-kpageflags.c lib/src-kpageflags.h \
	lib/src-kpageflags-private.h lib/src-kpageflags-scan.c \
	lib/src-kpageflags-check.c lib/src-kpageflags-plan.c \
	lib/src-kpageflags-describe.c \
	lib/placement.c lib/placement.h lib/placement-print.c \
	lib/atomic-file.c lib/atomic-file.h \
	lib/input-file.c lib/input-file.h \
	lib/term.c lib/term.h \
	lib/data-find.c lib/data-find.h \
	lib/killpoint.c lib/killpoint.h \
	lib/csv-schema.c lib/csv-schema.h \
	lib/meta.c lib/meta.h \
	lib/region-metrics.c lib/region-metrics.h \
	lib/sink-csv.c lib/sink-csv.h \
	lib/sink-openmetrics.c lib/sink-openmetrics.h \
	lib/http-metrics.c lib/http-metrics.h \
	lib/vm-facts.c lib/vm-facts.h \
	lib/trusted-path.c lib/trusted-path.h
