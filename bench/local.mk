# bench/: the regionbench program, its subcommands, runner and sampler.
noinst_LIBRARIES += bench/libbench.a
bench_libbench_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
bench_libbench_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyze
bench_libbench_a_SOURCES = \
	bench/command.h \
	bench/cmd-info.c \
	bench/cmd-placement.c \
	bench/cmd-sample.c \
	bench/cmd-run.c \
	bench/cmd-verify.c \
	bench/region-table.c bench/region-table.h \
	bench/runner.c bench/runner.h \
	bench/sampler.c bench/sampler.h \
	bench/source-cli.c bench/source-cli.h \
	bench/suite.c bench/suite.h
bench_libbench_a_SOURCES += bench/cmd-list.c bench/cmd-workload.c

bin_PROGRAMS += bench/regionbench
bench_regionbench_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
bench_regionbench_SOURCES = bench/regionbench.c
bench_regionbench_LDADD = bench/libbench.a analyze/libanalyze.a \
	workloads/libworkloads.a lib/librb.a $(RB_LIBS)

suitesdir = $(pkgdatadir)/suites
dist_suites_DATA = \
	bench/suites/quick.ini \
	bench/suites/seed.ini \
	bench/suites/standard.ini \
	bench/suites/soak.ini
