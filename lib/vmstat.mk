# lib/vmstat: /proc/vmstat and /proc/meminfo by key (owned by the workloads).
lib_librb_a_SOURCES += lib/vmstat.c lib/vmstat.h
