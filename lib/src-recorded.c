/*
 * Recorded figures: the source a replay uses when the recording kept what
 * the run's source computed (recording version 2, docs/csv-schema.md).
 * DIR/recording.json names the source, its description and its region
 * map; each DIR/NNNN/snapshot.json holds one sample's figures.  A replay
 * of any source then gives the regions and figures the run gave, even
 * when they cannot be computed again from the recorded /proc text (the
 * kpageflags source scans a binary file of the machine that ran).
 *
 * The source takes the recorded source's name, so meta.json of a replay
 * says "kpageflags" where the run said so; it is not in source_table and
 * never chosen by auto, only by the replay code.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input-file.h"
#include "log.h"
#include "meta.h"
#include "region-map.h"
#include "snapshot-json.h"
#include "source.h"
#include "src-recorded.h"

struct src_recorded {
	struct source_ops	 ops;	/* named after the run's source */
	char			 name[64];
	char			*no_migratetypes;
	json_t			*described;	/* the run's source */
	struct region_map	 map;
	int			 has_map;
};

/* Keys of meta.json's source object that describe the replay itself. */
static int
src_recorded_own_key(const char *key)
{
	return (strcmp(key, "name") == 0 || strcmp(key, "why") == 0 ||
	    strcmp(key, "proc_root") == 0 || strcmp(key, "sys_root") == 0);
}

/*
 * What a recording keeps of an open source besides its samples: the
 * version, the source as meta.json describes it, its region map and why
 * it gives no migratetype figures.
 */
json_t *
src_recorded_describe_source(struct source *src)
{
	const struct region_map *map = source_region_map(src);
	json_t *meta, *rec;

	meta = json_object();
	meta_set_source(meta, src);
	rec = json_pack("{s:i, s:O, s:o, s:o}",
	    "version", SRC_RECORDED_VERSION,
	    "source", json_object_get(meta, "source"),
	    "region_map", map != NULL ? region_map_to_json(map) : json_null(),
	    "no_migratetypes", src->ops->no_migratetypes != NULL ?
	    json_string(src->ops->no_migratetypes) : json_null());
	json_decref(meta);
	return (rec);
}

/*
 * Read DIR/recording.json: *rec is NULL for a recording of version 1 (raw
 * /proc text only, before figures were kept).  A malformed file, or one
 * of a newer version, is an input error naming it.
 */
int
src_recorded_load(const char *dir, json_t **rec, char **cause)
{
	char path[PATH_MAX + 32];
	json_int_t version;
	json_t *o, *v;

	*rec = NULL;
	snprintf(path, sizeof path, "%s/%s", dir, SRC_RECORDED_FILE);
	if (access(path, F_OK) == -1)
		return (0);
	if ((o = input_json_object(path, 0, INPUT_JSON_MAX, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	v = json_object_get(o, "version");
	if (!json_is_integer(v) ||
	    !json_is_object(json_object_get(o, "source")) ||
	    !json_is_string(json_object_get(json_object_get(o, "source"),
	    "name"))) {
		json_decref(o);
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected an "
		    "object with version and source.name", path));
	}
	version = json_integer_value(v);
	if (version > SRC_RECORDED_VERSION || version < 2) {
		json_decref(o);
		return (fail_with(cause, RB_EXIT_INPUT, "%s: recording version "
		    "%lld; this regionbench reads versions 1 to %d", path,
		    (long long)version, SRC_RECORDED_VERSION));
	}
	*rec = o;
	return (0);
}

/* The name of the source a recording's figures came from. */
const char *
src_recorded_name(json_t *rec)
{
	return (json_string_value(json_object_get(json_object_get(rec,
	    "source"), "name")));
}

/* One recorded sample: the figures in cfg.proc_root/snapshot.json. */
static int
src_recorded_read(struct source *src, struct snapshot *snap, int flags,
    char **cause)
{
	char path[PATH_MAX + 32];
	json_t *o;
	int rc;

	(void)flags;
	snprintf(path, sizeof path, "%s/%s", src->cfg.proc_root,
	    SRC_RECORDED_SNAPSHOT);
	if (access(path, F_OK) == -1 && errno == ENOENT)
		return (fail_with(cause, RB_EXIT_ENV, "%s: %s", path,
		    strerror(ENOENT)));
	if ((o = input_json_object(path, 0, INPUT_JSON_MAX, cause)) == NULL)
		return (-RB_EXIT_INPUT);
	rc = snapshot_from_json(snap, o, path, cause);
	json_decref(o);
	return (rc);
}

/* The run's description, then what this replay adds to it. */
static void
src_recorded_describe(struct source *src, json_t *obj)
{
	struct src_recorded *rs = src->priv;
	const char *key;
	json_t *v;

	json_object_foreach(rs->described, key, v) {
		if (!src_recorded_own_key(key))
			json_object_set(obj, key, v);
	}
	v = json_object_get(rs->described, "why");
	json_object_set_new(obj, "recorded_why", json_is_string(v) ?
	    json_copy(v) : json_null());
	json_object_set_new(obj, "replayed", json_string("figures"));
}

/* The region map the run used. */
static const struct region_map *
src_recorded_region_map(const struct source *src)
{
	const struct src_recorded *rs = src->priv;

	return (rs != NULL && rs->has_map ? &rs->map : NULL);
}

/* Release the recorded description and map. */
static void
src_recorded_close(struct source *src)
{
	struct src_recorded *rs = src->priv;

	if (rs == NULL)
		return;
	json_decref(rs->described);
	if (rs->has_map)
		region_map_free(&rs->map);
	free(rs->no_migratetypes);
	free(rs);
	src->priv = NULL;
}

static const struct source_ops src_recorded_ops = {
	.name = "recorded",
	.summary = "the figures a recording kept",
	.read = src_recorded_read,
	.describe = src_recorded_describe,
	.close = src_recorded_close,
	.region_map = src_recorded_region_map,
};

/*
 * Open the figures of the recording cfg->replay described by rec (from
 * src_recorded_load); cfg->proc_root is its first sample.  why says why
 * they were chosen.
 */
int
src_recorded_open(struct source *src, const struct source_config *cfg,
    json_t *rec, const char *why, char **cause)
{
	struct src_recorded *rs;
	json_t *map, *nm;
	char where[PATH_MAX + 64];
	int rc;

	memset(src, 0, sizeof *src);
	src->cfg = *cfg;
	procfile_init(&src->zoneinfo);
	procfile_init(&src->buddyinfo);
	procfile_init(&src->pagetypeinfo);
	rs = xcalloc(1, sizeof *rs);
	rs->ops = src_recorded_ops;
	snprintf(rs->name, sizeof rs->name, "%s", src_recorded_name(rec));
	rs->ops.name = rs->name;
	rs->described = json_incref(json_object_get(rec, "source"));
	nm = json_object_get(rec, "no_migratetypes");
	if (json_is_string(nm)) {
		rs->no_migratetypes = xstrdup(json_string_value(nm));
		rs->ops.no_migratetypes = rs->no_migratetypes;
	}
	src->ops = &rs->ops;
	src->priv = rs;
	map = json_object_get(rec, "region_map");
	if (map != NULL && !json_is_null(map)) {
		snprintf(where, sizeof where, "%s/%s: region_map",
		    cfg->replay != NULL ? cfg->replay : "", SRC_RECORDED_FILE);
		if ((rc = region_map_from_json(&rs->map, map, where,
		    cause)) != 0) {
			source_close(src);
			return (rc);
		}
		rs->has_map = 1;
	}
	src->why = xstrdup(why);
	return (0);
}
