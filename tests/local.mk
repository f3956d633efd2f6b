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

# make perf: benchmarks printing key=value ratios (not part of check).
perf: $(PERF_BENCHMARKS) bench/regionbench
	@for p in $(PERF_BENCHMARKS); do ./$$p || exit 1; done
.PHONY: perf
