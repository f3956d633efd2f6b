# bench/: the regionbench program: one file per subcommand (cmd-*.c, listed
# in command.h) and the helpers of its command line.  The recording engine
# is record/, the guests vm/.
noinst_LIBRARIES += bench/libbench.a
bench_libbench_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
# RB_SOURCE_DATADIR: the suites an uninstalled build completes (as lib/).
bench_libbench_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/workloads \
	-I$(top_srcdir)/analyze -I$(top_srcdir)/record -I$(top_srcdir)/vm \
	-I$(top_srcdir)/bench -DRB_SOURCE_DATADIR='"$(abs_top_srcdir)/bench"'
bench_libbench_a_SOURCES = \
	bench/command.h \
	bench/cmd-info.c \
	bench/cmd-sample.c \
	bench/cmd-run.c \
	bench/cmd-verify.c \
	bench/cmd-placement.c \
	bench/cmd-list.c \
	bench/cmd-workload.c \
	bench/cmd-analyze.c \
	bench/cmd-compare.c \
	bench/cmd-gate.c \
	bench/cmd-store.c \
	bench/cmd-chart.c \
	bench/cmd-report.c \
	bench/cmd-vm.c \
	bench/cmd-vacate.c \
	bench/cmd-ab.c \
	bench/analysis-cli.c bench/analysis-cli.h \
	bench/help-man.c bench/help-man.h \
	bench/completion.c bench/completion.h \
	bench/region-cli.c bench/region-cli.h \
	bench/region-table.c bench/region-table.h \
	bench/sample-out.c bench/sample-out.h

bin_PROGRAMS += bench/regionbench
bench_regionbench_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
bench_regionbench_CPPFLAGS = $(bench_libbench_a_CPPFLAGS)
bench_regionbench_SOURCES = bench/regionbench.c
bench_regionbench_LDADD = bench/libbench.a vm/libvm.a record/librecord.a \
	analyze/libanalyze.a \
	workloads/libworkloads.a lib/librb.a $(RB_LIBS)

suitesdir = $(pkgdatadir)/suites
dist_suites_DATA = \
	bench/suites/quick.ini \
	bench/suites/seed.ini \
	bench/suites/standard.ini \
	bench/suites/soak.ini
dist_pkgdata_DATA += bench/suites/gate-rules.ini bench/suites/gate-rules-vm.ini

# The manual page: the prose of docs/regionbench.1.in with every command
# heading and option list filled in from the option tables by the program
# just built, so the page and --help cannot drift apart.
man_MANS = docs/regionbench.1

# The documents the manual page cites, under the doc directory.
doc_DATA = README.md docs/architecture.md docs/charts.md docs/ci.md \
	docs/csv-schema.md docs/damon.md docs/database.md docs/fleet.md \
	docs/json.md docs/kpageflags.md docs/metrics.md docs/performance.md \
	docs/reliability.md docs/suites.md docs/vacate.md docs/vm.md \
	docs/workloads.md docs/heatmap-example.png

# Shell completion, written from the option tables by the program just
# built (regionbench help --completion bash|zsh).
bashcompletiondir = $(datadir)/bash-completion/completions
bashcompletion_DATA = bench/completion/regionbench
zshcompletiondir = $(datadir)/zsh/site-functions
zshcompletion_DATA = bench/completion/_regionbench
CLEANFILES += $(bashcompletion_DATA) $(zshcompletion_DATA)
bench/completion/regionbench: bench/regionbench$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) bench/completion && \
	bench/regionbench help --completion bash >$@.tmp && mv $@.tmp $@
bench/completion/_regionbench: bench/regionbench$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) bench/completion && \
	bench/regionbench help --completion zsh >$@.tmp && mv $@.tmp $@
CLEANFILES += docs/regionbench.1
docs/regionbench.1: $(srcdir)/docs/regionbench.1.in bench/regionbench$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) docs && \
	bench/regionbench help --man $(srcdir)/docs/regionbench.1.in >$@.tmp && \
	mv $@.tmp $@
