# tests for the kpageflags part (included from Makefile.am)

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
