# analyze/: metrics, statistics, compare, gate, charts, report.
noinst_LIBRARIES += analyze/libanalyze.a
analyze_libanalyze_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
analyze_libanalyze_a_SOURCES =
