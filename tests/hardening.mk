# tests for the hardening part (included from Makefile.am)
