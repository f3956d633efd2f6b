# tests for the procfs part (included from Makefile.am)
