# tests for the workloads part (included from Makefile.am)
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
