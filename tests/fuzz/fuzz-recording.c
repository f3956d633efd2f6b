/*
 * libFuzzer harness: what a replay reads of a recording besides /proc text
 * (lib/snapshot-json.c, lib/region-map-json.c).  The input is one JSON
 * text, read as a sample's snapshot.json and, through its region_map key
 * (or whole), as recording.json's region map; what parses is written as
 * samples.csv rows and printed as a map, as a replay would use it.
 */
#include "config.h"

#include <jansson.h>

#include "fuzz-util.h"
#include "region-map.h"
#include "sink-csv.h"
#include "snapshot-json.h"

/* One input: a JSON text. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct region_map map;
	struct snapshot snap;
	json_error_t err;
	json_t *o, *m;
	char *cause = NULL;
	FILE *f;
	int fd;

	if ((o = json_loadb((const char *)data, size, 0, &err)) == NULL)
		return (0);
	snapshot_init(&snap);
	if (snapshot_from_json(&snap, o, "snapshot.json", &cause) == 0 &&
	    (fd = open("/dev/null", O_WRONLY | O_CLOEXEC)) != -1) {
		snapshot_sort(&snap);
		sink_csv_write_samples(fd, &snap, 1.0, "fuzz", 1, NULL);
		close(fd);
	}
	free(cause);
	cause = NULL;
	snapshot_free(&snap);
	if ((m = json_object_get(o, "region_map")) == NULL)
		m = o;
	if (region_map_from_json(&map, m, "recording.json", &cause) == 0) {
		region_map_seg(&map, 0);
		region_map_seg(&map, 1ULL << 20);
		if ((f = fopen("/dev/null", "w")) != NULL) {
			region_map_print(f, &map);
			fclose(f);
		}
		region_map_free(&map);
	}
	free(cause);
	json_decref(o);
	return (0);
}
