# tests for the workloads part (included from Makefile.am)
