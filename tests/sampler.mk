# tests for the sampler part (included from Makefile.am)
