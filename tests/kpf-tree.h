/*
 * A synthetic machine for the kpageflags tests, written at run time: a
 * proc tree (zoneinfo, buddyinfo, a binary kpageflags, one process with
 * maps and pagemap) and a sys tree with two nodes, a hole between them,
 * 128 MiB memory blocks and one offline block.  The layout and the figures
 * every test expects are below; docs/kpageflags.md explains the rules.
 *
 *   memory0-3  pfn      0-131072  node 0 (memory2 offline, filled with
 *                                 BUDDY pages that must never be counted)
 *   (hole)     pfn 131072-163840
 *   memory5-6  pfn 163840-229376  node 1
 *   zones: node 0 DMA 1-4096, node 0 Normal 4096-131072,
 *          node 1 Normal 163840-229376
 */
#ifndef RB_KPF_TREE_H
#define RB_KPF_TREE_H

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define KPF_TREE_PFNS	229376
#define KPF_TREE_PID	4242

#define T_LOCKED	(1ULL << 0)
#define T_UPTODATE	(1ULL << 3)
#define T_LRU		(1ULL << 5)
#define T_SLAB		(1ULL << 7)
#define T_BUDDY		(1ULL << 10)
#define T_MMAP		(1ULL << 11)
#define T_ANON		(1ULL << 12)
#define T_COMPOUND_HEAD	(1ULL << 15)
#define T_NOPAGE	(1ULL << 20)
#define T_OFFLINE	(1ULL << 23)
#define T_PGTABLE	(1ULL << 26)
#define T_RESERVED	(1ULL << 32)

/* Write a whole file, creating its directories; exit on failure. */
static void
kpf_tree_write(const char *dir, const char *name, const void *data,
    size_t len)
{
	char path[4096], *p;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(path, 0755) == -1 && errno != EEXIST) {
			perror(path);
			exit(99);
		}
		*p = '/';
	}
	if ((f = fopen(path, "w")) == NULL || fwrite(data, 1, len, f) != len ||
	    fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

/* Write a text file. */
static void
kpf_tree_text(const char *dir, const char *name, const char *text)
{
	kpf_tree_write(dir, name, text, strlen(text));
}

/* Set flags v on pfns [a, b). */
static void
kpf_tree_fill(uint64_t *f, uint64_t a, uint64_t b, uint64_t v)
{
	for (; a < b; a++)
		f[a] = v;
}

/* Free pages [a, b): every page BUDDY, or only the heads of the blocks. */
static void
kpf_tree_free(uint64_t *f, uint64_t a, uint64_t b, int head_only)
{
	int k;

	while (a < b) {
		k = a == 0 ? 10 : __builtin_ctzll(a);
		if (k > 10)
			k = 10;
		while ((1ULL << k) > b - a)
			k--;
		kpf_tree_fill(f, a, a + (1ULL << k), head_only ? 0 : T_BUDDY);
		f[a] = T_BUDDY;
		a += 1ULL << k;
	}
}

/* One memory block directory with its node link. */
static void
kpf_tree_block(const char *dir, int id, int node, const char *state,
    const char *zone)
{
	char name[256], text[64], link[256], target[64];

	snprintf(name, sizeof name, "sys/devices/system/memory/memory%d/"
	    "phys_index", id);
	snprintf(text, sizeof text, "%08x\n", id);
	kpf_tree_text(dir, name, text);
	snprintf(name, sizeof name, "sys/devices/system/memory/memory%d/state",
	    id);
	snprintf(text, sizeof text, "%s\n", state);
	kpf_tree_text(dir, name, text);
	snprintf(name, sizeof name, "sys/devices/system/memory/memory%d/"
	    "valid_zones", id);
	snprintf(text, sizeof text, "%s\n", zone);
	kpf_tree_text(dir, name, text);
	snprintf(name, sizeof name, "sys/devices/system/node/node%d/uevent",
	    node);
	kpf_tree_text(dir, name, "");
	snprintf(link, sizeof link, "%s/sys/devices/system/node/node%d/"
	    "memory%d", dir, node, id);
	snprintf(target, sizeof target, "../../memory/memory%d", id);
	if (symlink(target, link) == -1 && errno != EEXIST) {
		perror(link);
		exit(99);
	}
}

static const char kpf_tree_zoneinfo[] =
    "Node 0, zone      DMA\n"
    "  per-node stats\n"
    "      nr_inactive_anon 0\n"
    "  pages free     3840\n"
    "        boost    0\n"
    "        min      10\n"
    "        low      12\n"
    "        high     14\n"
    "        spanned  4095\n"
    "        present  3998\n"
    "        managed  3840\n"
    "        cma      0\n"
    "        protection: (0, 0, 0, 0)\n"
    "      nr_free_pages 3840\n"
    "  pagesets\n"
    "    cpu: 0\n"
    "              count:    0\n"
    "              high:     0\n"
    "              batch:    1\n"
    "  vm stats threshold: 4\n"
    "    cpu: 1\n"
    "              count:    0\n"
    "              high:     0\n"
    "              batch:    1\n"
    "  vm stats threshold: 4\n"
    "  node_unreclaimable:  0\n"
    "  start_pfn:           1\n"
    "Node 0, zone   Normal\n"
    "  pages free     4101\n"
    "        boost    0\n"
    "        min      100\n"
    "        low      120\n"
    "        high     140\n"
    "        spanned  126976\n"
    "        present  126976\n"
    "        managed  45056\n"
    "        cma      0\n"
    "        protection: (0, 0, 0, 0)\n"
    "      nr_free_pages 4101\n"
    "  pagesets\n"
    "    cpu: 0\n"
    "              count:    10\n"
    "              high:     100\n"
    "              batch:    63\n"
    "  vm stats threshold: 4\n"
    "    cpu: 1\n"
    "              count:    0\n"
    "              high:     100\n"
    "              batch:    63\n"
    "  vm stats threshold: 4\n"
    "  node_unreclaimable:  0\n"
    "  start_pfn:           4096\n"
    "Node 0, zone  Movable\n"
    "  pages free     0\n"
    "        boost    0\n"
    "        min      0\n"
    "        low      0\n"
    "        high     0\n"
    "        spanned  0\n"
    "        present  0\n"
    "        managed  0\n"
    "        cma      0\n"
    "        protection: (0, 0, 0, 0)\n"
    "Node 1, zone   Normal\n"
    "  per-node stats\n"
    "      nr_inactive_anon 0\n"
    "  pages free     30720\n"
    "        boost    0\n"
    "        min      100\n"
    "        low      120\n"
    "        high     140\n"
    "        spanned  65536\n"
    "        present  65536\n"
    "        managed  63488\n"
    "        cma      0\n"
    "        protection: (0, 0, 0, 0)\n"
    "      nr_free_pages 30720\n"
    "  pagesets\n"
    "    cpu: 0\n"
    "              count:    0\n"
    "              high:     100\n"
    "              batch:    63\n"
    "  vm stats threshold: 4\n"
    "    cpu: 1\n"
    "              count:    0\n"
    "              high:     100\n"
    "              batch:    63\n"
    "  vm stats threshold: 4\n"
    "  node_unreclaimable:  0\n"
    "  start_pfn:           163840\n";

static const char kpf_tree_buddyinfo[] =
    "Node 0, zone      DMA      0      0      0      0      0      0      "
    "0      0      1      1      3 \n"
    "Node 0, zone   Normal      1      2      0      0      0      0      "
    "0      0      0      0      4 \n"
    "Node 1, zone   Normal      0      0      0      0      0      0      "
    "0      0      0      0     30 \n";

/* The process of the placement test: 4 + 16 pages mapped. */
static const char kpf_tree_maps[] =
    "00400000-00404000 r-xp 00000000 08:01 1234       /usr/bin/synthetic\n"
    "10000000-10010000 rw-p 00000000 00:00 0 \n"
    "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0"
    "                  [vsyscall]\n";

/* Build the whole tree under dir; head_only marks only free block heads. */
static inline void
kpf_tree_build(const char *dir, int head_only)
{
	uint64_t *f, *pm, i, vpn;
	size_t pmlen;

	if ((f = calloc(KPF_TREE_PFNS, sizeof *f)) == NULL)
		exit(99);
	/* Node 0, DMA: 255 reserved pages, then 3840 free pages. */
	f[0] = T_RESERVED;
	kpf_tree_fill(f, 1, 256, T_RESERVED);
	kpf_tree_free(f, 256, 4096, head_only);
	/* Node 0, Normal, region 0 (256 MiB regions). */
	kpf_tree_fill(f, 4096, 8192, T_ANON | T_LRU | T_MMAP);
	kpf_tree_fill(f, 8192, 9216, T_LRU | T_UPTODATE | T_MMAP);
	kpf_tree_fill(f, 9216, 9728, T_SLAB);
	kpf_tree_fill(f, 9728, 9856, T_PGTABLE);
	kpf_tree_fill(f, 9856, 9984, T_COMPOUND_HEAD);
	/* An order-1 free block followed by flag-less pages: ambiguous. */
	kpf_tree_free(f, 9984, 9986, head_only);
	kpf_tree_fill(f, 10240, 10243, 0);
	kpf_tree_free(f, 10240, 10243, head_only);
	kpf_tree_fill(f, 10243, 12288, T_ANON | T_LRU);
	kpf_tree_free(f, 12288, 16384, head_only);
	/* 16384-65536 and memory3 (98304-131072): flag-less. */
	/* memory2 is offline: whatever it says must not be counted. */
	kpf_tree_fill(f, 65536, 98304, T_BUDDY);
	/* Node 1: a hole and virtio-mem unplugged pages, then free, anon. */
	kpf_tree_fill(f, 163840, 164864, T_NOPAGE);
	kpf_tree_fill(f, 164864, 165888, T_OFFLINE);
	kpf_tree_free(f, 165888, 196608, head_only);
	kpf_tree_fill(f, 196608, 229376, T_ANON | T_LRU | T_MMAP);
	kpf_tree_write(dir, "proc/kpageflags", f, KPF_TREE_PFNS * sizeof *f);
	free(f);

	kpf_tree_text(dir, "proc/zoneinfo", kpf_tree_zoneinfo);
	kpf_tree_text(dir, "proc/buddyinfo", kpf_tree_buddyinfo);

	/* pagemap of the process: up to the end of 0x10000000-0x10010000. */
	pmlen = (0x10010000 / 4096) * sizeof *pm;
	if ((pm = calloc(1, pmlen)) == NULL)
		exit(99);
	for (i = 0; i < 4; i++)
		pm[0x400 + i] = (1ULL << 63) | (4100 + i);
	vpn = 0x10000;
	for (i = 0; i < 8; i++)
		pm[vpn + i] = (1ULL << 63) | (196608 + i);
	for (i = 0; i < 4; i++)
		pm[vpn + 8 + i] = (1ULL << 63) | (98304 + i);
	pm[vpn + 12] = (1ULL << 63) | 140000;
	pm[vpn + 13] = (1ULL << 63) | 140001;
	pm[vpn + 14] = 1ULL << 62;	/* swapped */
	kpf_tree_write(dir, "proc/4242/pagemap", pm, pmlen);
	free(pm);
	kpf_tree_text(dir, "proc/4242/maps", kpf_tree_maps);
	kpf_tree_text(dir, "proc/4242/comm", "synthetic\n");

	kpf_tree_text(dir, "sys/devices/system/memory/block_size_bytes",
	    "8000000\n");
	kpf_tree_block(dir, 0, 0, "online", "none");
	kpf_tree_block(dir, 1, 0, "online", "Normal");
	kpf_tree_block(dir, 2, 0, "offline", "Normal Movable");
	kpf_tree_block(dir, 3, 0, "online", "Normal");
	kpf_tree_block(dir, 5, 1, "online", "Normal");
	kpf_tree_block(dir, 6, 1, "online", "Normal");
}

/*
 * A large two-node machine of gib GiB (the scale benchmark and the cost
 * estimate tests): 2 GiB memory blocks, one Normal zone per node, all
 * online.  kpageflags is a sparse file of 8 bytes per pfn: its holes
 * read as pages without flags (used "other"), and the first 512 MiB of
 * each node are free (every page BUDDY; an empty region at the default
 * region size), which zoneinfo and buddyinfo agree with.  Returns 0, or
 * -1 with errno when the file can't be made.
 */
static inline int
kpf_tree_build_big(const char *dir, unsigned gib)
{
	uint64_t pfns = (uint64_t)gib << 18, half = pfns / 2, *f, i;
	uint64_t nfree = 131072, blocks = (uint64_t)gib / 2, b;
	char path[4096], text[2048], *zi;
	size_t zlen = 0, zsize = 4096;
	int fd, node;

	snprintf(path, sizeof path, "%s/proc", dir);
	if (mkdir(path, 0755) == -1 && errno != EEXIST)
		return (-1);
	snprintf(path, sizeof path, "%s/proc/kpageflags", dir);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1)
		return (-1);
	if (ftruncate(fd, (off_t)(pfns * sizeof *f)) == -1) {
		close(fd);
		return (-1);
	}
	if ((f = malloc(nfree * sizeof *f)) == NULL)
		exit(99);
	for (i = 0; i < nfree; i++)
		f[i] = T_BUDDY;
	for (node = 0; node < 2; node++) {
		if (pwrite(fd, f, nfree * sizeof *f, (off_t)(half * node *
		    sizeof *f)) != (ssize_t)(nfree * sizeof *f)) {
			close(fd);
			free(f);
			return (-1);
		}
	}
	free(f);
	if (close(fd) == -1)
		return (-1);

	if ((zi = malloc(zsize)) == NULL)
		exit(99);
	for (node = 0; node < 2; node++) {
		zlen += snprintf(zi + zlen, zsize - zlen,
		    "Node %d, zone   Normal\n"
		    "  pages free     %" PRIu64 "\n"
		    "        min      100\n"
		    "        spanned  %" PRIu64 "\n"
		    "        present  %" PRIu64 "\n"
		    "        managed  %" PRIu64 "\n"
		    "        protection: (0, 0, 0, 0)\n"
		    "  pagesets\n"
		    "    cpu: 0\n"
		    "              count:    0\n"
		    "              high:     100\n"
		    "              batch:    63\n"
		    "  vm stats threshold: 4\n"
		    "  node_unreclaimable:  0\n"
		    "  start_pfn:           %" PRIu64 "\n", node, nfree, half,
		    half, half, half * node);
	}
	kpf_tree_text(dir, "proc/zoneinfo", zi);
	free(zi);
	snprintf(text, sizeof text,
	    "Node 0, zone   Normal      0      0      0      0      0      0"
	    "      0      0      0      0     %" PRIu64 " \n"
	    "Node 1, zone   Normal      0      0      0      0      0      0"
	    "      0      0      0      0     %" PRIu64 " \n",
	    nfree / 1024, nfree / 1024);
	kpf_tree_text(dir, "proc/buddyinfo", text);
	kpf_tree_text(dir, "sys/devices/system/memory/block_size_bytes",
	    "80000000\n");
	for (b = 0; b < blocks; b++)
		kpf_tree_block(dir, (int)b, b < blocks / 2 ? 0 : 1, "online",
		    "Normal");
	return (0);
}

#endif
