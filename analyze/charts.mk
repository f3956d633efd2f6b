# analyze/charts.mk: the cairo charts and the HTML report (issue 7).
analyze_libanalyze_a_SOURCES += \
	analyze/chart.c analyze/chart.h analyze/chart-run.h \
	analyze/chart-draw.c analyze/chart-draw.h \
	analyze/chart-heatmap.c analyze/chart-spread.c \
	analyze/chart-placement.c analyze/chart-seed.c analyze/chart-frag.c \
	analyze/chart-compare.c \
	analyze/report.c analyze/report.h \
	bench/cmd-chart.c bench/cmd-report.c
