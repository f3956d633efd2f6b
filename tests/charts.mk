# tests for the charts part (included from Makefile.am)
