# workloads/: one file per workload plus the registry.
noinst_LIBRARIES += workloads/libworkloads.a
workloads_libworkloads_a_CFLAGS = $(AM_CFLAGS) $(RB_CFLAGS)
workloads_libworkloads_a_SOURCES =
