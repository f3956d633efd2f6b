/*
 * regionbench info: what this machine (or a /proc tree) offers — kernel,
 * page size, which region source applies and why, the region keys, access
 * to the root-only files, and the NUMA topology.
 */
#include "config.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "command.h"
#include "log.h"
#include "procfile.h"
#include "region-map.h"
#include "region-table.h"
#include "source-cli.h"
#include "topology.h"
#include "units.h"

#define INFO_JSON_VERSION	1	/* docs/json.md */

struct info_settings {
	int	 format;	/* 0 text, 1 json */
};

static const char *const info_formats[] = { "text", "json", NULL };

static const struct opt_def info_options[] = {
	{ .name = "format", .type = OPT_ENUM,
	  .offset = offsetof(struct info_settings, format),
	  .arg = "FORMAT", .def = "text", .choices = info_formats,
	  .help = "lines for a person, or one JSON object (docs/json.md)" },
	{ .name = NULL }
};

/* A pfn or page count, null when unknown. */
static json_t *
info_json_count(uint64_t v)
{
	return (v == SNAP_UNKNOWN ? json_null() : json_integer((json_int_t)v));
}

/* A string, null when absent. */
static json_t *
info_json_text(const char *s)
{
	return (s != NULL ? json_string(s) : json_null());
}

/* What info says, as one JSON object (docs/json.md). */
static json_t *
info_json(const struct source_cli *cli, const struct source *src,
    const struct snapshot *snap)
{
	static const char *const files[] = {
		"zoneinfo", "buddyinfo", "pagetypeinfo", "kpageflags", NULL
	};
	const struct snap_entry *e;
	struct topology topo;
	struct utsname u;
	json_t *root, *jfiles, *jsrc, *over, *regions;
	char *basis, *advice, *lines, *line, *next, *cause = NULL;
	double est;
	int i;

	uname(&u);
	jfiles = json_object();
	for (i = 0; files[i] != NULL; i++)
		json_object_set_new(jfiles, files[i], json_string(
		    procfile_readable(cli->proc, files[i]) ? "readable" :
		    procfile_exists(cli->proc, files[i]) ? "not readable" :
		    "absent"));
	over = json_array();
	if (src->passed_over != NULL) {
		lines = xstrdup(src->passed_over);
		for (line = lines; line != NULL; line = next) {
			if ((next = strchr(line, '\n')) != NULL)
				*next++ = '\0';
			json_array_append_new(over, json_string(line));
		}
		free(lines);
	}
	est = source_estimate(src, 0, &basis, &advice);
	jsrc = json_pack("{s:s, s:o, s:o, s:o, s:o}", "name", src->ops->name,
	    "why", info_json_text(src->why), "passed_over", over,
	    "scan_estimate_s", est >= 0 ? json_real(est) : json_null(),
	    "scan_estimate_basis", info_json_text(basis));
	free(basis);
	free(advice);
	regions = json_array();
	for (i = 0; i < snap->nentries; i++) {
		e = &snap->entries[i];
		json_array_append_new(regions, json_pack("{s:i, s:o, s:s, s:o, "
		    "s:o, s:o, s:o, s:o}", "node", e->node, "region",
		    e->region >= 0 ? json_integer(e->region) : json_null(),
		    "zone", e->zone, "start_pfn", info_json_count(e->start_pfn),
		    "spanned_pages", info_json_count(e->spanned),
		    "present_pages", info_json_count(e->present),
		    "managed_pages", info_json_count(e->managed),
		    "free_pages", info_json_count(e->free_pages)));
	}
	root = json_pack("{s:s, s:i, s:s, s:{s:s, s:s}, s:i, s:s, s:o}",
	    "command", "info", "schema_version", INFO_JSON_VERSION,
	    "version", PACKAGE_VERSION, "kernel", "release", u.release,
	    "machine", u.machine, "page_size", (int)sysconf(_SC_PAGESIZE),
	    "proc", cli->proc, "files", jfiles);
	if (topology_load(&topo, &cause) == 0) {
		json_object_set_new(root, "topology", topology_json(&topo));
		topology_free(&topo);
	} else {
		json_object_set_new(root, "topology", json_null());
		free(cause);
	}
	json_object_set_new(root, "source", jsrc);
	json_object_set_new(root, "regions", regions);
	return (root);
}

/* Say whether a file can be read, and what to do when it can't. */
static void
info_access(const char *root, const char *name, const char *why)
{
	printf("  %-14s %s\n", name, procfile_readable(root, name) ?
	    "readable" : procfile_exists(root, name) ?
	    why : "absent");
}

/* Print the NUMA topology hwloc sees. */
static void
info_topology(void)
{
	struct topology topo;
	char size[32], *cause = NULL;
	int i;

	if (topology_load(&topo, &cause) != 0) {
		printf("topology:        unknown (%s)\n", cause);
		free(cause);
		return;
	}
	printf("topology:        %d NUMA node%s, %d cores, %d CPUs\n",
	    topo.nnodes, topo.nnodes == 1 ? "" : "s", topo.cores, topo.pus);
	for (i = 0; i < topo.nnodes; i++) {
		units_format_size(size, sizeof size,
		    topo.nodes[i].memory_bytes);
		printf("  node %-3d       %s memory, %d cores, %d CPUs\n",
		    topo.nodes[i].os_index, size, topo.nodes[i].cores,
		    topo.nodes[i].pus);
	}
	topology_free(&topo);
}

/*
 * Why this source: the reason it applies, then each source auto tried
 * first and why it did not, each on lines of its own that fit the
 * terminal.
 */
static void
info_why(const struct source *src)
{
	char *lines, *line, *next;
	int width = command_help_width(stdout);

	if (src->why != NULL) {
		fputs("  why:           ", stdout);
		opt_print_wrapped(stdout, src->why, 17, 17, width);
	}
	if (src->passed_over == NULL)
		return;
	lines = xstrdup(src->passed_over);
	fputs("  passed over:   ", stdout);
	for (line = lines; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (line != lines)
			printf("%17s", "");
		opt_print_wrapped(stdout, line, 17, 19, width);
	}
	free(lines);
}

/* The time a sample is expected to take, when the source can tell. */
static void
info_estimate(const struct source *src)
{
	char *basis, *advice;
	double est;

	if ((est = source_estimate(src, 0, &basis, &advice)) >= 0) {
		printf("scan estimate:   %.3g s per sample\n", est);
		if (basis != NULL) {
			fputs("  basis:         ", stdout);
			opt_print_wrapped(stdout, basis, 17, 17,
			    command_help_width(stdout));
		}
	}
	free(basis);
	free(advice);
}

/* regionbench info. */
static int
cmd_info_exec(int argc, char **argv)
{
	extern const struct command_entry cmd_info_entry;
	struct info_settings set;
	struct source_cli cli = { 0 };
	json_t *json;
	struct snapshot snap;
	struct source src;
	struct utsname u;
	char *cause = NULL;
	int first_arg, rc;

	command_parse_source(&cmd_info_entry, &set, &cli, argc, argv,
	    &first_arg);
	if (first_arg < argc)
		command_usage_error(&cmd_info_entry, "unexpected argument '%s'",
		    argv[first_arg]);
	if (set.format == 1) {
		if ((rc = source_cli_open(&cli, &src, NULL, &cause)) != 0)
			die(-rc, "info: %s", cause);
		snapshot_init(&snap);
		if ((rc = source_read(&src, &snap, procfile_readable(cli.proc,
		    "pagetypeinfo") ? SOURCE_READ_PAGETYPE : 0, &cause)) != 0)
			die(-rc, "info: %s", cause);
		json = info_json(&cli, &src, &snap);
		if (json_dumpf(json, stdout, JSON_INDENT(2) |
		    JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6)) != 0 ||
		    putchar('\n') == EOF)
			die_errno(RB_EXIT_ENV, "info: stdout");
		json_decref(json);
		snapshot_free(&snap);
		source_close(&src);
		source_cli_free(&cli);
		return (RB_EXIT_OK);
	}
	uname(&u);
	printf("regionbench:     %s\n", PACKAGE_VERSION);
	printf("kernel:          %s %s\n", u.release, u.machine);
	printf("page size:       %ld bytes\n", sysconf(_SC_PAGESIZE));
	printf("files under %s:\n", cli.proc);
	info_access(cli.proc, "zoneinfo", "not readable");
	info_access(cli.proc, "buddyinfo", "not readable");
	info_access(cli.proc, "pagetypeinfo",
	    "not readable (root only since 5.4: run as root)");
	info_access(cli.proc, "kpageflags",
	    "not readable (root only: run as root for emulated regions)");
	info_topology();

	if ((rc = source_cli_open(&cli, &src, NULL, &cause)) != 0)
		die(-rc, "%s", cause);
	printf("region source:   %s\n", src.ops->name);
	info_why(&src);
	info_estimate(&src);
	snapshot_init(&snap);
	/* Already reported above when unreadable: don't warn twice. */
	if ((rc = source_read(&src, &snap, procfile_readable(cli.proc,
	    "pagetypeinfo") ? SOURCE_READ_PAGETYPE : 0, &cause)) != 0)
		die(-rc, "info: %s", cause);
	if (source_region_map(&src) != NULL)
		region_map_print(stdout, source_region_map(&src));
	printf("region keys:     %d\n", snap.nentries);
	region_table_print(stdout, &snap, REGION_TABLE_LAYOUT);
	snapshot_free(&snap);
	source_close(&src);
	source_cli_free(&cli);
	return (RB_EXIT_OK);
}

const struct command_entry cmd_info_entry = {
	.name = "info",
	.usage = "",
	.summary = "show the kernel, the region source and the regions found",
	.description =
	    "Prints the kernel release, page size, which /proc files are\n"
	    "readable, the NUMA topology, which region source applies (and\n"
	    "why) and one sample of every region key.",
	.options = info_options,
	.source_options = source_cli_options,
	.exec = cmd_info_exec,
};
