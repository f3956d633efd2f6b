/*
 * Recordings of sample --record (docs/csv-schema.md): DIR/system.json
 * (the system part of meta.json), DIR/recording.json (version, source,
 * region map) and one directory per sample, DIR/0000, DIR/0001, ...,
 * each holding the raw /proc files the source read, the figures it
 * computed (snapshot.json) and the sample's time.  sample --replay and
 * run --replay read them back instead of /proc.
 */
#ifndef RB_RECORDING_H
#define RB_RECORDING_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "source-cli.h"
#include "source.h"

int	 recording_first(const char *dir, char *buf, size_t len,
	     char **cause);
json_t	*recording_system(const char *dir, const char *proc_root,
	     char **cause);
int	 recording_write_system(const char *dir, json_t *system,
	     char **cause);
int	 recording_write_source(const char *dir, struct source *src,
	     uint64_t samples, double end_t_s, char **cause);
uint64_t recording_end(const char *dir, double *end_t_s);
int	 recording_write_sample(const char *dir, uint64_t i,
	     const struct source *src, const struct snapshot *snap,
	     double t_s, char **cause);
int	 recording_read_sample(const char *dir, uint64_t i, struct source *src,
	     double *t_s, int *flags, char **cause);
int	 recording_open_source(const char *dir, const struct source_cli *cli,
	     struct source *src, const char *command, char **cause);

#endif
