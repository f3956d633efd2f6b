# tests for the runner part (included from Makefile.am)
