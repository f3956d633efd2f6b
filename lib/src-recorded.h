/*
 * Recordings of a source's figures (lib/src-recorded.c): what sample
 * --record keeps besides the /proc text, and the source that replays it.
 */
#ifndef RB_SRC_RECORDED_H
#define RB_SRC_RECORDED_H

#include <jansson.h>

#include "source.h"

/*
 * Version 1: raw /proc text and the time of each sample.  Version 2 adds
 * DIR/recording.json and each sample's snapshot.json.
 */
#define SRC_RECORDED_VERSION	2
#define SRC_RECORDED_FILE	"recording.json"
#define SRC_RECORDED_SNAPSHOT	"snapshot.json"

json_t	*src_recorded_describe_source(struct source *src);
int	 src_recorded_load(const char *dir, json_t **rec, char **cause);
const char *src_recorded_name(json_t *rec);
int	 src_recorded_open(struct source *src,
	     const struct source_config *cfg, json_t *rec, const char *why,
	     char **cause);

#endif
