/*
 * Finding one of regionbench's data files (lib/data-find.c).
 */
#ifndef RB_DATA_FIND_H
#define RB_DATA_FIND_H

char	*data_find(const char *file, char **cause);

#endif
