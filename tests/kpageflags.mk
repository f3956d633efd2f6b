# tests for the kpageflags part (included from Makefile.am)

# The placement command lives with its library code (issue 3); it is added
# here because bench/local.mk defines the list before this fragment.
bench_libbench_a_SOURCES += bench/cmd-placement.c
