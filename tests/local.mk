# tests/: everything "make check" runs, through Automake's TAP driver.
# C unit tests print TAP; shell tests (.sh) source tests/cli-lib.sh.

LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(LOG_DRIVER)
# Every test ends within TEST_TIME_LIMIT seconds (its process group is
# killed after that): a test that hangs is reported as an error and the
# rest of the suite still runs.  Override on the command line if a very
# slow build needs more.
TEST_TIME_LIMIT = 1200
LOG_COMPILER = timeout -k 30 $(TEST_TIME_LIMIT)
SH_LOG_COMPILER = timeout -k 30 $(TEST_TIME_LIMIT) $(SHELL)
TEST_EXTENSIONS = .sh
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	REGIONBENCH='$(abs_top_builddir)/bench/regionbench'; \
	FIXTURES='$(abs_top_srcdir)/tests/fixtures/proc'; \
	TESTDATA='$(abs_top_srcdir)/tests/data'; \
	export top_srcdir top_builddir REGIONBENCH FIXTURES TESTDATA;

TEST_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS) -I$(top_srcdir)/tests \
	-I$(top_srcdir)/workloads
TEST_ARCHIVES = bench/libbench.a vm/libvm.a record/librecord.a \
	analyze/libanalyze.a \
	workloads/libworkloads.a lib/librb.a
TEST_LIBS = $(TEST_ARCHIVES) $(RB_LIBS)

EXTRA_DIST += tests/tap.h tests/perf.h tests/fake-runs.h tests/cli-lib.sh \
	tests/fixtures tests/data

# A unit test of module MODULE is tests/t-MODULE.c (TAP through tests/tap.h)
# and one name in UNIT_TESTS, in its module's part below.  One GNU make
# static pattern rule builds them all with every folder's headers (tests
# may use everything) and every library; the compiler writes each one's
# header dependencies beside it.
UNIT_TESTS =
UNIT_TESTS_EXE = $(UNIT_TESTS:=$(EXEEXT))
UNIT_TEST_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/analyze \
	-I$(top_srcdir)/record -I$(top_srcdir)/vm -I$(top_srcdir)/bench
UNIT_TEST_LINK = $(CCLD) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) \
	$(AM_CPPFLAGS) $(CPPFLAGS) $(UNIT_TEST_CFLAGS) $(CFLAGS) \
	$(AM_LDFLAGS) $(LDFLAGS)
TESTS += $(UNIT_TESTS)
check_SCRIPTS = $(UNIT_TESTS_EXE)
CLEANFILES += $(UNIT_TESTS_EXE) $(UNIT_TESTS:=.d)
EXTRA_DIST += $(UNIT_TESTS:=.c)
$(UNIT_TESTS_EXE): tests/t-%$(EXEEXT): tests/t-%.c tests/tap.h config.h \
	$(TEST_ARCHIVES) tests/$(am__dirstamp)
	$(AM_V_CCLD)$(UNIT_TEST_LINK) -MMD -MP -MF $@.d -o $@ $< \
	    $(TEST_LIBS) $(LIBS)
-include $(UNIT_TESTS:=.d)

UNIT_TESTS += tests/t-units tests/t-opt tests/t-vmstat tests/t-term
TESTS += tests/cli-basics.sh tests/cli-errors.sh tests/json-shapes.sh \
	tests/completion.sh tests/help-man.sh \
	tests/store-cli.sh tests/docs-commands.sh tests/registries.sh
EXTRA_DIST += tests/cli-basics.sh tests/help-man.sh tests/registries.sh \
	tests/store-cli.sh tests/docs-commands.sh tests/cli-errors.sh \
	tests/json-shapes.sh tests/json-shape.py tests/completion.sh


# ---- procfs: the /proc parsers
# and the patched, sorted-buddy and zone sources.
UNIT_TESTS += tests/t-procfs tests/t-procfs-bad


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
UNIT_TESTS += tests/t-sink

# The Prometheus sink, and --openmetrics/--listen end to end (promtool and
# a real Prometheus scraping the endpoint, skipped without them).
UNIT_TESTS += tests/t-sink-openmetrics
TESTS += tests/metrics-cli.sh tests/metrics-prometheus.sh
EXTRA_DIST += tests/metrics-cli.sh tests/metrics-http.sh \
	tests/metrics-prometheus.sh

EXTRA_PROGRAMS += tests/perf-sampler
PERF_BENCHMARKS += tests/perf-sampler
tests_perf_sampler_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/record
tests_perf_sampler_SOURCES = tests/perf-sampler.c
tests_perf_sampler_LDADD = $(TEST_LIBS)
CLEANFILES += tests/perf-sampler
TESTS += tests/sampler-cli.sh
EXTRA_DIST += tests/sampler-cli.sh
# Recordings of every source, and the files a source leaves out.
TESTS += tests/recording-cli.sh tests/recording-live.sh
EXTRA_DIST += tests/recording-cli.sh tests/recording-live.sh


# ---- kpageflags, the region map and placement
EXTRA_DIST += tests/kpf-tree.h tests/kpageflags-cli.sh tests/vacate-cli.sh

# Writes the synthetic machine for the shell tests.
check_PROGRAMS += tests/kpf-mktree
tests_kpf_mktree_CFLAGS = $(TEST_CFLAGS)
tests_kpf_mktree_SOURCES = tests/kpf-mktree.c

UNIT_TESTS += tests/t-kpageflags tests/t-kpageflags-live tests/t-region-map \
	tests/t-placement

TESTS += tests/kpageflags-cli.sh tests/vacate-cli.sh

EXTRA_PROGRAMS += tests/perf-kpageflags
PERF_BENCHMARKS += tests/perf-kpageflags
tests_perf_kpageflags_CFLAGS = $(TEST_CFLAGS)
tests_perf_kpageflags_LDADD = $(TEST_LIBS)


# ---- workloads
UNIT_TESTS += tests/t-workload
check_PROGRAMS += tests/t-workload-others
tests_t_workload_others_CFLAGS = $(TEST_CFLAGS) -DT_WORKLOAD_OTHERS
tests_t_workload_others_SOURCES = tests/t-workload.c
tests_t_workload_others_LDADD = $(TEST_LIBS)

TESTS += tests/t-workload-others tests/workloads-cli.sh \
	tests/workloads-signal.sh
EXTRA_DIST += tests/workloads-cli.sh tests/workloads-signal.sh

# make perf: the workloads against bare loops and stress-ng.
EXTRA_PROGRAMS += tests/perf-workloads
PERF_BENCHMARKS += tests/perf-workloads
tests_perf_workloads_CFLAGS = $(TEST_CFLAGS) -DSTRESS_NG='"$(STRESS_NG)"'
tests_perf_workloads_SOURCES = tests/perf-workloads.c
tests_perf_workloads_LDADD = $(TEST_LIBS)
CLEANFILES += tests/perf-workloads

# make perf: what a sampler at 1 Hz costs a CPU-bound load, per source.
EXTRA_PROGRAMS += tests/perf-observer
PERF_BENCHMARKS += tests/perf-observer
tests_perf_observer_CFLAGS = $(TEST_CFLAGS)
tests_perf_observer_SOURCES = tests/perf-observer.c
tests_perf_observer_LDADD = $(TEST_LIBS)
CLEANFILES += tests/perf-observer


# ---- analyze
ANALYZE_TEST_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/analyze

UNIT_TESTS += tests/t-stats tests/t-metrics tests/t-compare tests/t-gate

TESTS += tests/analyze-cli.sh tests/analyze-compare.sh \
	tests/analyze-malformed.sh
EXTRA_DIST += tests/analyze-cli.sh tests/analyze-compare.sh \
	tests/analyze-malformed.sh tests/analyze-lib.sh tests/pandas-means.py

# Power states from DAMON's references.csv.
TESTS += tests/references-cli.sh
EXTRA_DIST += tests/references-cli.sh

# Constant series and rounding-sized changes.
TESTS += tests/analyze-exact.sh tests/analyze-gate.sh tests/compare-readable.sh \
	tests/compare-scipy.sh
EXTRA_DIST += tests/analyze-exact.sh tests/analyze-gate.sh \
	tests/compare-readable.sh tests/compare-scipy.sh

EXTRA_PROGRAMS += tests/perf-analyze
PERF_BENCHMARKS += tests/perf-analyze
tests_perf_analyze_CFLAGS = $(ANALYZE_TEST_CFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_perf_analyze_SOURCES = tests/perf-analyze.c
tests_perf_analyze_LDADD = $(TEST_LIBS)
CLEANFILES += tests/perf-analyze


# ---- charts
CHARTS_TEST_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/analyze

UNIT_TESTS += tests/t-chart

# A helper of charts-browser.sh, not a test itself.
check_PROGRAMS += tests/chart-png-count
tests_chart_png_count_CFLAGS = $(CHARTS_TEST_CFLAGS)
tests_chart_png_count_SOURCES = tests/chart-png-count.c
tests_chart_png_count_LDADD = $(CAIRO_LIBS)

TESTS += tests/charts-cli.sh tests/charts-report.sh tests/charts-browser.sh
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
TESTS += tests/runner-cli.sh tests/term-cli.sh tests/term-fit.sh
EXTRA_DIST += tests/runner-cli.sh tests/term-cli.sh tests/term-fit.sh


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
	-I$(top_srcdir)/record $(RB_CFLAGS)
FUZZ_LIBSRC = $(lib_librb_a_SOURCES) $(analyze_libanalyze_a_SOURCES) \
	$(workloads_libworkloads_a_SOURCES) record/suite.c \
	record/suite-find.c record/suite-check.c
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
	tests/hardening-user.sh tests/hardening-inputs.sh \
	tests/hardening-signals.sh tests/hardening-store.sh \
	tests/hardening-results.sh tests/hardening-metrics.sh
EXTRA_DIST += tests/hardening-killpoints.sh \
	tests/hardening-enospc.sh tests/hardening-proc.sh \
	tests/hardening-oom.sh tests/hardening-sigkill.sh tests/hardening-files.sh \
	tests/hardening-user.sh tests/hardening-inputs.sh \
	tests/hardening-signals.sh tests/hardening-store.sh \
	tests/hardening-results.sh tests/hardening-metrics.sh

# make check replays the inputs kept under tests/data/hardening/NAME through
# the same harness code (tests/fuzz/fuzz-NAME.c and tests/fuzz/replay-main.c),
# built normally as tests/t-hardening-NAME.  A new harness is one more name
# in this list; one GNU make static pattern rule below builds them all (the
# rule's target is a variable, so Automake does not need a stanza each).
HARDENING_REPLAY = \
	tests/t-hardening-zoneinfo \
	tests/t-hardening-buddyinfo \
	tests/t-hardening-pagetypeinfo \
	tests/t-hardening-region-map \
	tests/t-hardening-suite \
	tests/t-hardening-gate \
	tests/t-hardening-results \
	tests/t-hardening-recording \
	tests/t-hardening-selector
HARDENING_REPLAY_EXE = $(HARDENING_REPLAY:=$(EXEEXT))
TESTS += $(HARDENING_REPLAY)
check_SCRIPTS += $(HARDENING_REPLAY_EXE)
CLEANFILES += $(HARDENING_REPLAY_EXE)
EXTRA_DIST += tests/fuzz/replay-main.c tests/fuzz/fuzz-util.h \
	$(HARDENING_REPLAY:tests/t-hardening-%=tests/fuzz/fuzz-%.c)
HARDENING_REPLAY_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests/fuzz \
	-I$(top_srcdir)/analyze -I$(top_srcdir)/record
HARDENING_REPLAY_LINK = $(CCLD) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) \
	$(AM_CPPFLAGS) $(CPPFLAGS) $(HARDENING_REPLAY_CFLAGS) $(CFLAGS) \
	$(AM_LDFLAGS) $(LDFLAGS)
$(HARDENING_REPLAY_EXE): tests/t-hardening-%$(EXEEXT): \
	tests/fuzz/fuzz-%.c tests/fuzz/replay-main.c tests/fuzz/fuzz-util.h \
	tests/tap.h config.h $(TEST_ARCHIVES) tests/$(am__dirstamp)
	$(AM_V_CCLD)$(HARDENING_REPLAY_LINK) -DFUZZ_NAME='"$*"' -o $@ \
	    $< $(srcdir)/tests/fuzz/replay-main.c \
	    $(TEST_LIBS) $(LIBS)


# make perf: benchmarks printing key=value ratios (not part of check).
# A sanitized build would measure the sanitizers, and the benchmarks that
# count allocations replace malloc, which ASan must own: refused there.
if IS_SANITIZED
perf:
	@echo "make perf: this tree is configured with --enable-sanitizers;" \
	    "the benchmarks measure a plain build (./configure without it)" >&2
	@exit 2
else
perf: $(PERF_BENCHMARKS) bench/regionbench
	@for p in $(PERF_BENCHMARKS); do ./$$p || exit 1; done
	@$(AM_TESTS_ENVIRONMENT) $(SHELL) $(top_srcdir)/tests/perf-vm.sh
	@$(AM_TESTS_ENVIRONMENT) $(SHELL) $(top_srcdir)/tests/perf-damon.sh
endif
.PHONY: perf


# ---- analyze: the summary, the power model, the seed table, the
# output formats of compare and verify's checks
UNIT_TESTS += tests/t-summary tests/t-power tests/t-seed-table
UNIT_TESTS += tests/t-compare-output tests/t-verify

# ---- vm: booting a kernel in QEMU.  vm-boot.sh boots the kernel that
# tests/vm-kernel.sh unpacks into tests/vm-kernel (./bootstrap and .ci/run
# fetch it) and skips without one.
TESTS += tests/vm-cli.sh tests/vm-accel.sh tests/vm-hardening.sh \
	tests/vm-boot.sh tests/vm-oom.sh tests/vm-vacate.sh
UNIT_TESTS += tests/t-vm-ab
EXTRA_DIST += tests/vm-cli.sh tests/vm-accel.sh tests/vm-hardening.sh \
	tests/vm-boot.sh tests/vm-oom.sh tests/vm-vacate.sh \
	tests/vm-kernel.sh

# ---- DAMON references (lib/damon.c, record/references.c): the sysfs
# parsing and ownership on a synthetic tree, and guests of the 6.12 kernel
# that tests/vm-kernel.sh unpacks into tests/vm-kernel-6.12 (the test
# skips without it) and of the 6.1 one.
UNIT_TESTS += tests/t-damon
check_PROGRAMS += tests/damon-writer
tests_damon_writer_SOURCES = tests/damon-writer.c
# Never sanitized: its resident pages must be the buffer it keeps hot.  A
# sanitized build holds some 70 MiB more (shadow and allocator memory it
# never touches again), which vm-damon.sh would count as hot pages.
tests_damon_writer_CFLAGS = -Wall -Wextra
tests_damon_writer_LDFLAGS =
TESTS += tests/vm-damon.sh
EXTRA_DIST += tests/vm-damon.sh

# make check-vm: regionbench ab on a boot option, then an A/A (12 boots;
# minutes under TCG).  .ci/run runs it after make check.
EXTRA_DIST += tests/vm-ab.sh tests/perf-vm.sh tests/perf-damon.sh
check-vm: bench/regionbench
	@$(AM_TESTS_ENVIRONMENT) $(SHELL) $(top_srcdir)/tests/vm-ab.sh
.PHONY: check-vm

# ---- cgroup texts (lib/cgroup.c)
UNIT_TESTS += tests/t-cgroup

# ---- the README's main job, whole (under the sanitizers in their build)
TESTS += tests/readme-main-job.sh
EXTRA_DIST += tests/readme-main-job.sh

# ---- docs/ci.md's worked example, as written
TESTS += tests/ci-example.sh
EXTRA_DIST += tests/ci-example.sh
