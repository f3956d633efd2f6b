# tests for the procfs part (included from Makefile.am): the /proc parsers
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
