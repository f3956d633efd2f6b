# bench/: the regionbench program: one file per subcommand (cmd-*.c, listed
# in command.h), the sampler, the runner and the suites.
noinst_LIBRARIES += bench/libbench.a
bench_libbench_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
# RB_SOURCE_DATADIR: where an uninstalled build finds the suites and rules.
bench_libbench_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyze \
	-DRB_SOURCE_DATADIR='"$(abs_top_srcdir)/bench"'
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
	bench/help-man.c bench/help-man.h \
	bench/completion.c bench/completion.h \
	bench/recording.c bench/recording.h \
	bench/region-cli.c bench/region-cli.h \
	bench/region-table.c bench/region-table.h \
	bench/runner.c bench/runner.h bench/runner-int.h \
	bench/runner-phase.c bench/runner-show.c bench/runner-vacate.c \
	bench/sample-out.c bench/sample-out.h \
	bench/sampler.c bench/sampler-ctl.c bench/sampler.h \
	bench/references.c bench/references.h \
	bench/session.c bench/session.h \
	bench/source-cli.c bench/source-cli.h \
	bench/suite.c bench/suite.h bench/suite-find.c bench/suite-check.c \
	bench/term.c bench/term.h

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
dist_pkgdata_DATA += bench/suites/gate-rules.ini bench/suites/gate-rules-vm.ini

# The init of the guests `regionbench vm` boots (found next to the program
# in an uninstalled build).  Static, since the initramfs holds no libc, and
# built without the sanitizers, which cannot link statically.
pkglibexec_PROGRAMS = bench/regionbench-vm-init
bench_regionbench_vm_init_SOURCES = bench/vm-init.c
bench_regionbench_vm_init_CFLAGS = -Wall -Wextra -Wshadow -Wno-sign-compare \
	-Wmissing-prototypes -Wstrict-prototypes -Wformat=2
bench_regionbench_vm_init_LDFLAGS = -static

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
