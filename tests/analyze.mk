# tests for the analyze part (included from Makefile.am)
