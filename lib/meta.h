/*
 * meta.json: everything needed to interpret a results directory later on
 * another machine (docs/csv-schema.md).  Written atomically each time it
 * changes, so a killed run still has a valid one that says "running".
 */
#ifndef RB_META_H
#define RB_META_H

#include <jansson.h>

#define META_SCHEMA_VERSION 1

json_t	*meta_system(const char *proc_root);
json_t	*meta_new(const char *command, const char *label, json_t *system);
struct source;
void	 meta_set_source(json_t *meta, struct source *src);
void	 meta_set_status(json_t *meta, const char *status);
int	 meta_write(json_t *meta, const char *dir, char **cause);
int	 meta_writeat(json_t *meta, int dirfd, const char *dir,
	     char **cause);
char	*meta_utc_now(void);
json_t	*meta_read_object(const char *path, char **cause);
json_t	*meta_read(const char *dir, char **cause);
json_t	*meta_get(json_t *meta, const char *path);
const char *meta_get_string(json_t *meta, const char *path);

#endif
