# tests for the sampler part: the CSV sink, sample and info commands,
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
