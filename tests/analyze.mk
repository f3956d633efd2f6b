# tests for the analyze part (included from Makefile.am)
ANALYZE_TEST_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/analyze

check_PROGRAMS += tests/t-stats tests/t-analyze
tests_t_stats_CFLAGS = $(ANALYZE_TEST_CFLAGS)
tests_t_stats_SOURCES = tests/t-stats.c
tests_t_stats_LDADD = $(TEST_LIBS)
tests_t_analyze_CFLAGS = $(ANALYZE_TEST_CFLAGS)
tests_t_analyze_SOURCES = tests/t-analyze.c
tests_t_analyze_LDADD = $(TEST_LIBS)

TESTS += tests/t-stats tests/t-analyze tests/analyze-cli.sh \
	tests/analyze-compare.sh tests/analyze-malformed.sh
EXTRA_DIST += tests/analyze-cli.sh tests/analyze-compare.sh \
	tests/analyze-malformed.sh tests/analyze-lib.sh tests/pandas-means.py

EXTRA_PROGRAMS += tests/perf-analyze
PERF_BENCHMARKS += tests/perf-analyze
tests_perf_analyze_CFLAGS = $(ANALYZE_TEST_CFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_perf_analyze_SOURCES = tests/perf-analyze.c
tests_perf_analyze_LDADD = $(TEST_LIBS)
CLEANFILES += tests/perf-analyze
