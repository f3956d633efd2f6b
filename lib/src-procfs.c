/*
 * The common half of the /proc text sources.  Reading is the sampler's hot
 * path: the three files go into buffers kept in struct source, the parsers
 * fill a snapshot whose storage is reused, and nothing is allocated once
 * the first sample has sized everything.  pagetypeinfo is mode 0400 from
 * 5.4 on, so when it cannot be read the sample goes on without it.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "procfs.h"
#include "src-procfs.h"

struct src_procfs {
	int	 pagetype_warned;	/* unreadable pagetypeinfo reported */
	int	 pagetype_failed;
	char	 pagetype_root[PATH_MAX];	/* failed there: not retried */
};

/* A format's name for messages and meta.json. */
const char *
src_procfs_format_name(enum snap_format format)
{
	switch (format) {
	case SNAP_FORMAT_PLAIN:
		return ("mainline");
	case SNAP_FORMAT_PATCHED:
		return ("memory-region patched");
	case SNAP_FORMAT_SORTED_BUDDY:
		return ("sorted-buddy");
	default:
		return ("unknown");
	}
}

/* The source name that reads a format. */
static const char *
src_procfs_source_for(enum snap_format format)
{
	switch (format) {
	case SNAP_FORMAT_PATCHED:
		return ("patched");
	case SNAP_FORMAT_SORTED_BUDDY:
		return ("sorted-buddy");
	default:
		return ("zone");
	}
}

/* Does zoneinfo under proc_root have the layout want?  (source probe) */
int
src_procfs_probe(struct source *src, enum snap_format want, char **reason)
{
	struct snapshot snap;
	int r;

	if ((r = procfile_read(&src->zoneinfo, src->cfg.proc_root,
	    "zoneinfo", reason)) != 0)
		return (r);
	snapshot_init(&snap);
	r = procfs_parse_zoneinfo(&snap, src->zoneinfo.path,
	    src->zoneinfo.buf, src->zoneinfo.len, reason);
	if (r != 0) {
		snapshot_free(&snap);
		return (r);
	}
	if (snap.format == want) {
		switch (want) {
		case SNAP_FORMAT_PATCHED:
			*reason = xasprintf("%s names regions in its headers "
			    "('Node N, Region R, zone Z'): a memory-region "
			    "patched kernel", src->zoneinfo.path);
			break;
		case SNAP_FORMAT_SORTED_BUDDY:
			*reason = xasprintf("%s has 'Per-region page stats' "
			    "tables: a sorted-buddy kernel",
			    src->zoneinfo.path);
			break;
		default:
			*reason = xasprintf("%s is a mainline zoneinfo: each "
			    "populated zone is a region", src->zoneinfo.path);
			break;
		}
		r = 1;
	} else {
		switch (want) {
		case SNAP_FORMAT_PATCHED:
			*reason = xasprintf("%s has no 'Node N, Region R, zone "
			    "Z' headers (not a memory-region patched kernel)",
			    src->zoneinfo.path);
			break;
		case SNAP_FORMAT_SORTED_BUDDY:
			*reason = xasprintf("%s has no 'Per-region page stats' "
			    "tables (not a sorted-buddy kernel)",
			    src->zoneinfo.path);
			break;
		default:
			*reason = xasprintf("%s is from a %s kernel (use "
			    "--source %s)", src->zoneinfo.path,
			    src_procfs_format_name(snap.format),
			    src_procfs_source_for(snap.format));
			break;
		}
		r = 0;
	}
	snapshot_free(&snap);
	return (r);
}

/* Allocate the source's state. */
int
src_procfs_open(struct source *src, char **cause)
{
	(void)cause;
	src->priv = xcalloc(1, sizeof (struct src_procfs));
	return (0);
}

/*
 * Read and parse the files into snap (reset first), refusing a layout other
 * than want: files replaced under a running source, or mixed kernels.
 */
int
src_procfs_read(struct source *src, struct snapshot *snap, int flags,
    enum snap_format want, char **cause)
{
	struct src_procfs *sp = src->priv;
	const char *root = src->cfg.proc_root;
	char *why = NULL;
	int files, r, i;

	snapshot_reset(snap);
	src->files_read = 0;
	if ((r = procfile_read(&src->zoneinfo, root, "zoneinfo", cause)) != 0 ||
	    (r = procfile_read(&src->buddyinfo, root, "buddyinfo",
	    cause)) != 0)
		return (r);
	files = SOURCE_FILE_ZONEINFO | SOURCE_FILE_BUDDYINFO;
	if ((r = procfs_parse_zoneinfo(snap, src->zoneinfo.path,
	    src->zoneinfo.buf, src->zoneinfo.len, cause)) != 0)
		return (r);
	if (snap->format != want)
		return (fail_with(cause, RB_EXIT_INPUT, "%s: expected a %s "
		    "zoneinfo for source %s, found a %s one (use --source %s)",
		    src->zoneinfo.path, src_procfs_format_name(want),
		    src->ops->name, src_procfs_format_name(snap->format),
		    src_procfs_source_for(snap->format)));
	if ((r = procfs_parse_buddyinfo(snap, src->buddyinfo.path,
	    src->buddyinfo.buf, src->buddyinfo.len, cause)) != 0)
		return (r);
	if ((flags & SOURCE_READ_PAGETYPE) && sp != NULL &&
	    sp->pagetype_failed && strcmp(sp->pagetype_root, root) == 0)
		flags &= ~SOURCE_READ_PAGETYPE;	/* failed here before */
	if (flags & SOURCE_READ_PAGETYPE) {
		r = procfile_read(&src->pagetypeinfo, root, "pagetypeinfo",
		    &why);
		if (r == -RB_EXIT_ENV) {
			if (sp != NULL && !sp->pagetype_warned) {
				log_warnx("%s; sampling without pagetypeinfo",
				    why);
				snapshot_warn(snap, "%s; sampling without "
				    "pagetypeinfo", why);
				sp->pagetype_warned = 1;
			}
			if (sp != NULL) {
				sp->pagetype_failed = 1;
				snprintf(sp->pagetype_root,
				    sizeof sp->pagetype_root, "%s", root);
			}
			free(why);
		} else if (r != 0) {
			if (cause != NULL)
				*cause = why;
			else
				free(why);
			return (r);
		} else {
			if ((r = procfs_parse_pagetypeinfo(snap,
			    src->pagetypeinfo.path, src->pagetypeinfo.buf,
			    src->pagetypeinfo.len, cause)) != 0)
				return (r);
			files |= SOURCE_FILE_PAGETYPEINFO;
		}
	}
	/*
	 * Pages on the per-CPU lists are free, though zoneinfo's "pages
	 * free" leaves them out; its count: lines give them per block, and
	 * a block is one key here (sorted-buddy regions get none).
	 */
	for (i = 0; i < snap->nentries; i++)
		snap->entries[i].free_pages += snap->entries[i].pcp_pages;
	snapshot_sort(snap);
	src->files_read = files;
	return (0);
}

/* meta.json: the layout and whether pagetypeinfo could be read. */
void
src_procfs_describe(struct source *src, json_t *obj)
{
	struct src_procfs *sp = src->priv;

	json_object_set_new(obj, "pagetypeinfo_readable", json_boolean(
	    procfile_readable(src->cfg.proc_root, "pagetypeinfo") &&
	    (sp == NULL || !sp->pagetype_failed)));
}

/* Free the source's state. */
void
src_procfs_close(struct source *src)
{
	free(src->priv);
	src->priv = NULL;
}
