# analyze/: reading results directories, metrics, statistics, compare, gate,
# the cairo charts and the HTML report.  Never reads /proc.
noinst_LIBRARIES += analyze/libanalyze.a
analyze_libanalyze_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
analyze_libanalyze_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/analyze
analyze_libanalyze_a_SOURCES = \
	analyze/results.c analyze/results.h \
	analyze/results-csv.c analyze/results-csv.h analyze/results-meta.c \
	analyze/results-rows.c \
	analyze/metrics.c analyze/metrics.h analyze/metrics-summary.c \
	analyze/metric-list.c analyze/metric-list.h \
	analyze/summary.c analyze/summary.h analyze/summary-int.h \
	analyze/summary-table.c analyze/summary-fit.c analyze/summary-style.c \
	analyze/quality.c analyze/quality.h \
	analyze/power.c analyze/power.h \
	analyze/seed-table.c analyze/seed-table.h \
	analyze/stats.c analyze/stats.h \
	analyze/compare.c analyze/compare.h analyze/compare-cell.c \
	analyze/compare-run.c analyze/compare-run.h \
	analyze/compare-output.c analyze/compare-output.h \
	analyze/compare-output-int.h analyze/compare-output-data.c \
	analyze/gate.c analyze/gate.h analyze/gate-rules.c \
	analyze/gate-output.c analyze/gate-run.c \
	analyze/store.c analyze/store.h analyze/store-int.h \
	analyze/store-sqlite.c analyze/store-pg.c analyze/store-dirs.c \
	analyze/store-select.c \
	analyze/verify.c analyze/verify.h \
	analyze/output.c analyze/output.h \
	analyze/chart.c analyze/chart.h analyze/chart-run.h \
	analyze/chart-marks.c analyze/chart-regions.c \
	analyze/chart-draw.c analyze/chart-draw.h \
	analyze/chart-heatmap.c analyze/chart-power-states.c \
	analyze/chart-spread.c \
	analyze/chart-placement.c analyze/chart-seed.c analyze/chart-frag.c \
	analyze/chart-compare.c analyze/chart-headline.c \
	analyze/report.c analyze/report.h analyze/report-int.h \
	analyze/report-compare.c
