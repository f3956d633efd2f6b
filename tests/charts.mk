# tests for the charts part (included from Makefile.am)
CHARTS_TEST_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/analyze

check_PROGRAMS += tests/t-chart
tests_t_chart_CFLAGS = $(CHARTS_TEST_CFLAGS)
tests_t_chart_SOURCES = tests/t-chart.c
tests_t_chart_LDADD = $(TEST_LIBS)

# A helper of charts-browser.sh, not a test itself.
check_PROGRAMS += tests/chart-png-count
tests_chart_png_count_CFLAGS = $(CHARTS_TEST_CFLAGS)
tests_chart_png_count_SOURCES = tests/chart-png-count.c
tests_chart_png_count_LDADD = $(CAIRO_LIBS)

TESTS += tests/t-chart tests/charts-cli.sh tests/charts-report.sh \
	tests/charts-browser.sh
EXTRA_DIST += tests/charts-cli.sh tests/charts-report.sh \
	tests/charts-browser.sh

# make perf: charts on a generated one-hour 10 Hz run (needs perf-analyze).
EXTRA_PROGRAMS += tests/perf-chart
PERF_BENCHMARKS += tests/perf-chart
tests_perf_chart_CFLAGS = $(CHARTS_TEST_CFLAGS)
tests_perf_chart_SOURCES = tests/perf-chart.c
tests_perf_chart_LDADD = $(TEST_LIBS)
CLEANFILES += tests/perf-chart
