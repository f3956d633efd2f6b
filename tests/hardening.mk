# tests for the hardening part (included from Makefile.am)

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
TESTS += tests/hardening-enospc.sh tests/hardening-proc.sh \
	tests/hardening-oom.sh tests/hardening-sigkill.sh tests/hardening-files.sh \
	tests/hardening-user.sh
EXTRA_DIST += tests/hardening-enospc.sh tests/hardening-proc.sh \
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
