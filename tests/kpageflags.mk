# tests for the kpageflags part (included from Makefile.am)
