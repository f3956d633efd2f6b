# tests/: everything "make check" runs, through Automake's TAP driver.
# C unit tests print TAP; shell tests (.sh) source tests/cli-lib.sh.

LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(LOG_DRIVER)
SH_LOG_COMPILER = $(SHELL)
TEST_EXTENSIONS = .sh
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	REGIONBENCH='$(abs_top_builddir)/bench/regionbench'; \
	FIXTURES='$(abs_top_srcdir)/tests/fixtures/proc'; \
	TESTDATA='$(abs_top_srcdir)/tests/data'; \
	export top_srcdir top_builddir REGIONBENCH FIXTURES TESTDATA;

TEST_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS) -I$(top_srcdir)/tests
TEST_LIBS = bench/libbench.a analyze/libanalyze.a workloads/libworkloads.a \
	lib/librb.a $(RB_LIBS)

EXTRA_DIST += tests/tap.h tests/cli-lib.sh tests/fixtures tests/data

check_PROGRAMS += tests/t-units
tests_t_units_CFLAGS = $(TEST_CFLAGS)
tests_t_units_SOURCES = tests/t-units.c
tests_t_units_LDADD = $(TEST_LIBS)

TESTS += tests/t-units tests/cli-basics.sh
EXTRA_DIST += tests/cli-basics.sh


# ---- procfs: the /proc parsers
# and the patched, sorted-buddy and zone sources.
check_PROGRAMS += tests/t-procfs tests/t-procfs-bad
tests_t_procfs_CFLAGS = $(TEST_CFLAGS)
tests_t_procfs_SOURCES = tests/t-procfs.c
tests_t_procfs_LDADD = $(TEST_LIBS)
tests_t_procfs_bad_CFLAGS = $(TEST_CFLAGS)
tests_t_procfs_bad_SOURCES = tests/t-procfs-bad.c
tests_t_procfs_bad_LDADD = $(TEST_LIBS)

TESTS += tests/t-procfs tests/t-procfs-bad

# make perf: parse cost against the cost of reading the files.
EXTRA_PROGRAMS += tests/perf-procfs
PERF_BENCHMARKS += tests/perf-procfs
tests_perf_procfs_CFLAGS = $(TEST_CFLAGS)
tests_perf_procfs_SOURCES = tests/perf-procfs.c
tests_perf_procfs_LDADD = $(TEST_LIBS)
CLEANFILES += tests/perf-procfs

TESTS += tests/procfs-cli.sh
EXTRA_DIST += tests/procfs-cli.sh


# ---- sampler: the CSV sink, sample and info commands,
# record/replay and the live machine.
check_PROGRAMS += tests/t-sink
tests_t_sink_CFLAGS = $(TEST_CFLAGS)
tests_t_sink_SOURCES = tests/t-sink.c
tests_t_sink_LDADD = $(TEST_LIBS)
TESTS += tests/t-sink

EXTRA_PROGRAMS += tests/perf-sampler
PERF_BENCHMARKS += tests/perf-sampler
tests_perf_sampler_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/bench
tests_perf_sampler_SOURCES = tests/perf-sampler.c
tests_perf_sampler_LDADD = $(TEST_LIBS)
CLEANFILES += tests/perf-sampler
TESTS += tests/sampler-cli.sh
EXTRA_DIST += tests/sampler-cli.sh


# ---- kpageflags
EXTRA_DIST += tests/kpf-tree.h tests/kpageflags-cli.sh

# Writes the synthetic machine for the shell tests.
check_PROGRAMS += tests/kpf-mktree
tests_kpf_mktree_CFLAGS = $(TEST_CFLAGS)
tests_kpf_mktree_SOURCES = tests/kpf-mktree.c

check_PROGRAMS += tests/t-kpageflags tests/t-kpageflags-live
tests_t_kpageflags_CFLAGS = $(TEST_CFLAGS)
tests_t_kpageflags_LDADD = $(TEST_LIBS)
tests_t_kpageflags_live_CFLAGS = $(TEST_CFLAGS)
tests_t_kpageflags_live_LDADD = $(TEST_LIBS)

TESTS += tests/t-kpageflags tests/t-kpageflags-live tests/kpageflags-cli.sh

EXTRA_PROGRAMS += tests/perf-kpageflags
PERF_BENCHMARKS += tests/perf-kpageflags
tests_perf_kpageflags_CFLAGS = $(TEST_CFLAGS)
tests_perf_kpageflags_LDADD = $(TEST_LIBS)


# ---- workloads
check_PROGRAMS += tests/t-workload tests/t-workload-others
tests_t_workload_CFLAGS = $(TEST_CFLAGS)
tests_t_workload_SOURCES = tests/t-workload.c
tests_t_workload_LDADD = $(TEST_LIBS)
tests_t_workload_others_CFLAGS = $(TEST_CFLAGS) -DT_WORKLOAD_OTHERS
tests_t_workload_others_SOURCES = tests/t-workload.c
tests_t_workload_others_LDADD = $(TEST_LIBS)

TESTS += tests/t-workload tests/t-workload-others \
	tests/workloads-cli.sh tests/workloads-signal.sh
EXTRA_DIST += tests/workloads-cli.sh tests/workloads-signal.sh

# make perf: the workloads against bare loops and stress-ng.
EXTRA_PROGRAMS += tests/perf-workloads
PERF_BENCHMARKS += tests/perf-workloads
tests_perf_workloads_CFLAGS = $(TEST_CFLAGS) -DSTRESS_NG='"$(STRESS_NG)"'
tests_perf_workloads_SOURCES = tests/perf-workloads.c
tests_perf_workloads_LDADD = $(TEST_LIBS)
CLEANFILES += tests/perf-workloads


# ---- analyze
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


# ---- charts
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


# ---- runner: run, suites, signals, verify.
TESTS += tests/runner-cli.sh
EXTRA_DIST += tests/runner-cli.sh


# ---- hardening
# make fuzz FUZZ_SECONDS=N: every libFuzzer harness of tests/fuzz, built
# with clang (-fsanitize=fuzzer,address,undefined) into build-fuzz/, each
# run for N seconds on its corpus.  Not part of make check.
FUZZ_SECONDS = 60
FUZZ_TARGETS =
FUZZ_FLAGS =
EXTRA_DIST += tests/fuzz/fuzz.sh tests/fuzz/make-corpus.sh \
	tests/hardening-valgrind.sh
FUZZ_CPPFLAGS = $(DEFS) -I$(top_builddir) -I$(top_srcdir)/lib \
	-I$(top_srcdir)/workloads -I$(top_srcdir)/analyze \
	-I$(top_srcdir)/bench $(RB_CFLAGS)
FUZZ_LIBSRC = $(lib_librb_a_SOURCES) $(analyze_libanalyze_a_SOURCES) \
	$(workloads_libworkloads_a_SOURCES) bench/suite.c
fuzz: config.h
	FUZZ_CC='$(FUZZ_CC)' FUZZ_SECONDS='$(FUZZ_SECONDS)' \
	FUZZ_TARGETS='$(FUZZ_TARGETS)' FUZZ_FLAGS='$(FUZZ_FLAGS)' \
	FUZZ_OUT='$(abs_top_builddir)/build-fuzz' \
	FUZZ_CPPFLAGS='$(FUZZ_CPPFLAGS)' FUZZ_LIBS='$(RB_LIBS) $(LIBS)' \
	FUZZ_SOURCES='$(FUZZ_LIBSRC)' top_srcdir='$(top_srcdir)' \
	$(SHELL) $(top_srcdir)/tests/fuzz/fuzz.sh
.PHONY: fuzz
clean-local: clean-fuzz
clean-fuzz:
	rm -rf build-fuzz
.PHONY: clean-fuzz

# Fault injection, safe files, least privilege (TAP; skip when not root).
TESTS += tests/hardening-killpoints.sh \
	tests/hardening-enospc.sh tests/hardening-proc.sh \
	tests/hardening-oom.sh tests/hardening-sigkill.sh tests/hardening-files.sh \
	tests/hardening-user.sh
EXTRA_DIST += tests/hardening-killpoints.sh \
	tests/hardening-enospc.sh tests/hardening-proc.sh \
	tests/hardening-oom.sh tests/hardening-sigkill.sh tests/hardening-files.sh \
	tests/hardening-user.sh

# make check replays the inputs kept under tests/data/hardening/NAME through
# the same harness code (tests/fuzz/replay-main.c), built normally.
HARDENING_REPLAY_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests/fuzz \
	-I$(top_srcdir)/analyze -I$(top_srcdir)/bench
check_PROGRAMS += tests/t-hardening-zoneinfo
tests_t_hardening_zoneinfo_SOURCES = tests/fuzz/fuzz-zoneinfo.c tests/fuzz/replay-main.c \
	tests/fuzz/fuzz-util.h
tests_t_hardening_zoneinfo_CFLAGS = $(HARDENING_REPLAY_CFLAGS) -DFUZZ_NAME='"zoneinfo"'
tests_t_hardening_zoneinfo_LDADD = $(TEST_LIBS)
TESTS += tests/t-hardening-zoneinfo
check_PROGRAMS += tests/t-hardening-buddyinfo
tests_t_hardening_buddyinfo_SOURCES = tests/fuzz/fuzz-buddyinfo.c tests/fuzz/replay-main.c \
	tests/fuzz/fuzz-util.h
tests_t_hardening_buddyinfo_CFLAGS = $(HARDENING_REPLAY_CFLAGS) -DFUZZ_NAME='"buddyinfo"'
tests_t_hardening_buddyinfo_LDADD = $(TEST_LIBS)
TESTS += tests/t-hardening-buddyinfo
check_PROGRAMS += tests/t-hardening-pagetypeinfo
tests_t_hardening_pagetypeinfo_SOURCES = tests/fuzz/fuzz-pagetypeinfo.c tests/fuzz/replay-main.c \
	tests/fuzz/fuzz-util.h
tests_t_hardening_pagetypeinfo_CFLAGS = $(HARDENING_REPLAY_CFLAGS) -DFUZZ_NAME='"pagetypeinfo"'
tests_t_hardening_pagetypeinfo_LDADD = $(TEST_LIBS)
TESTS += tests/t-hardening-pagetypeinfo
check_PROGRAMS += tests/t-hardening-region-map
tests_t_hardening_region_map_SOURCES = tests/fuzz/fuzz-region-map.c tests/fuzz/replay-main.c \
	tests/fuzz/fuzz-util.h
tests_t_hardening_region_map_CFLAGS = $(HARDENING_REPLAY_CFLAGS) -DFUZZ_NAME='"region-map"'
tests_t_hardening_region_map_LDADD = $(TEST_LIBS)
TESTS += tests/t-hardening-region-map
check_PROGRAMS += tests/t-hardening-suite
tests_t_hardening_suite_SOURCES = tests/fuzz/fuzz-suite.c tests/fuzz/replay-main.c \
	tests/fuzz/fuzz-util.h
tests_t_hardening_suite_CFLAGS = $(HARDENING_REPLAY_CFLAGS) -DFUZZ_NAME='"suite"'
tests_t_hardening_suite_LDADD = $(TEST_LIBS)
TESTS += tests/t-hardening-suite
check_PROGRAMS += tests/t-hardening-gate
tests_t_hardening_gate_SOURCES = tests/fuzz/fuzz-gate.c tests/fuzz/replay-main.c \
	tests/fuzz/fuzz-util.h
tests_t_hardening_gate_CFLAGS = $(HARDENING_REPLAY_CFLAGS) -DFUZZ_NAME='"gate"'
tests_t_hardening_gate_LDADD = $(TEST_LIBS)
TESTS += tests/t-hardening-gate
check_PROGRAMS += tests/t-hardening-results
tests_t_hardening_results_SOURCES = tests/fuzz/fuzz-results.c tests/fuzz/replay-main.c \
	tests/fuzz/fuzz-util.h
tests_t_hardening_results_CFLAGS = $(HARDENING_REPLAY_CFLAGS) -DFUZZ_NAME='"results"'
tests_t_hardening_results_LDADD = $(TEST_LIBS)
TESTS += tests/t-hardening-results


# make perf: benchmarks printing key=value ratios (not part of check).
perf: $(PERF_BENCHMARKS) bench/regionbench
	@for p in $(PERF_BENCHMARKS); do ./$$p || exit 1; done
.PHONY: perf
