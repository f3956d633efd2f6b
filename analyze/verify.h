/*
 * Is a results directory whole?  Every CSV parses with its header, rows
 * are well formed, times never go backwards, keys agree with regions.csv
 * and meta.json is valid.  The verdict is an exit code: RB_EXIT_OK when
 * whole (and a line saying whether the run completed), RB_EXIT_FAIL
 * naming what is damaged, RB_EXIT_NODATA when the run stopped before its
 * first sample (no data, which a signal can cause at any moment, unlike
 * damage).
 */
#ifndef RB_VERIFY_H
#define RB_VERIFY_H

#include <jansson.h>
#include <stdio.h>

#define VERIFY_JSON_VERSION	1	/* docs/json.md */

int	 verify_path(FILE *out, const char *dir, char **cause);
int	 verify_path_json(json_t *runs, const char *dir, char **cause);
int	 verify_worse(int a, int b);

#endif
