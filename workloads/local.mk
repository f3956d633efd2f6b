# workloads/: one file per workload plus the registry.
noinst_LIBRARIES += workloads/libworkloads.a
workloads_libworkloads_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
workloads_libworkloads_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/workloads
workloads_libworkloads_a_SOURCES = \
	workloads/workload.h workloads/workload-private.h \
	workloads/workload.c workloads/workload-settings.c \
	workloads/workload-child.c workloads/workload-metrics.c \
	workloads/registry.c \
	workloads/bind.c workloads/bind.h \
	workloads/workload-cgroup.c workloads/workload-cgroup.h \
	workloads/pagetest.c \
	workloads/fork-heavy.c \
	workloads/page-cache-churn.c \
	workloads/frag-churn.c
