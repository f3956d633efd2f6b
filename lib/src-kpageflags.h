/*
 * The kpageflags region source: emulated regions on kernels without the
 * memory-region patches, counted page by page from /proc/kpageflags.
 * Other code reaches it through source.h; this header adds what only this
 * source has (its region map, for "regionbench info").
 */
#ifndef RB_SRC_KPAGEFLAGS_H
#define RB_SRC_KPAGEFLAGS_H

#include "region-map.h"
#include "source.h"

extern const struct source_ops src_kpageflags_ops;

const struct region_map *src_kpageflags_map(const struct source *src);

#endif
