# analyze/: metrics, statistics, compare, gate, charts, report.
noinst_LIBRARIES += analyze/libanalyze.a
analyze_libanalyze_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
analyze_libanalyze_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyze
analyze_libanalyze_a_SOURCES = \
	analyze/results.c analyze/results.h \
	analyze/metrics.c analyze/metrics.h \
	analyze/stats.c analyze/stats.h \
	analyze/compare.c analyze/compare.h \
	analyze/gate.c analyze/gate.h \
	analyze/output.c analyze/output.h \
	bench/cmd-analyze.c bench/cmd-compare.c bench/cmd-gate.c
dist_pkgdata_DATA += bench/suites/gate-rules.ini
