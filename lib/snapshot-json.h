/*
 * Snapshots as JSON, for recordings: what a source computed, kept so that
 * a replay gives the same figures (docs/csv-schema.md, "Recordings").
 */
#ifndef RB_SNAPSHOT_JSON_H
#define RB_SNAPSHOT_JSON_H

#include <jansson.h>

#include "snapshot.h"

json_t	*snapshot_to_json(const struct snapshot *snap);
int	 snapshot_from_json(struct snapshot *snap, json_t *obj,
	     const char *path, char **cause);

#endif
