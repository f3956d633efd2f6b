/*
 * Recordings of sample --record: DIR/system.json (the system part of
 * meta.json) and one directory per sample, DIR/0000, DIR/0001, ..., each
 * holding the raw /proc files the source read and the sample's time.
 * sample --replay and run --replay read them back instead of /proc.
 */
#ifndef RB_RECORDING_H
#define RB_RECORDING_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "source.h"

int	 recording_first(const char *dir, char *buf, size_t len,
	     char **cause);
json_t	*recording_system(const char *dir, const char *proc_root,
	     char **cause);
int	 recording_write_system(const char *dir, json_t *system,
	     char **cause);
int	 recording_write_sample(const char *dir, uint64_t i,
	     const struct source *src, double t_s, char **cause);
int	 recording_read_sample(const char *dir, uint64_t i, struct source *src,
	     double *t_s, int *flags, char **cause);

#endif
