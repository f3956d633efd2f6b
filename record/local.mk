# record/: the recording engine, the mirror of analyze/: the runner of a
# suite, the sampler thread, the results-directory session, DAMON's
# references, recordings and replays, the suites and the region-source
# options.  May use lib/, workloads/ and analyze/ (the runner analyses each
# repetition); its functions return their errors.
noinst_LIBRARIES += record/librecord.a
record_librecord_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
record_librecord_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/workloads \
	-I$(top_srcdir)/analyze -I$(top_srcdir)/record
record_librecord_a_SOURCES = \
	record/recording.c record/recording.h \
	record/references.c record/references.h \
	record/runner.c record/runner.h record/runner-int.h \
	record/runner-phase.c record/runner-show.c record/runner-vacate.c \
	record/sampler.c record/sampler-ctl.c record/sampler.h \
	record/session.c record/session.h \
	record/session-signals.c record/session-signals.h \
	record/source-cli.c record/source-cli.h \
	record/suite.c record/suite.h record/suite-find.c record/suite-check.c
