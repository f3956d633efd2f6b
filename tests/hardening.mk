# tests for the hardening part (included from Makefile.am)

# make fuzz FUZZ_SECONDS=N: every libFuzzer harness of tests/fuzz, built
# with clang (-fsanitize=fuzzer,address,undefined) into build-fuzz/, each
# run for N seconds on its corpus.  Not part of make check.
FUZZ_SECONDS = 60
FUZZ_TARGETS =
FUZZ_FLAGS =
EXTRA_DIST += tests/fuzz tests/hardening-valgrind.sh
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
