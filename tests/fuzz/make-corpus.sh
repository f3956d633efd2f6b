#!/bin/sh
# Build the seed corpora of the fuzz harnesses from the fixtures and test
# data: make-corpus.sh SRCDIR OUTDIR.  Multi-file harnesses take their
# files joined by NUL bytes (see each tests/fuzz/fuzz-*.c).  Inputs kept
# under tests/data/hardening/NAME/ (past crashes) are seeds of NAME too.
set -eu
src=$1
out=$2
nul() { printf '\000'; }

for t in zoneinfo buddyinfo pagetypeinfo region-map suite gate results \
    recording selector; do
	rm -rf "$out/$t"
	mkdir -p "$out/$t"
	if [ -d "$src/tests/data/hardening/$t" ]; then
		cp "$src/tests/data/hardening/$t"/* "$out/$t/" 2>/dev/null || :
	fi
done

# /proc parsers: every kernel format, the bad and the odd inputs.
i=0
for d in "$src"/tests/fixtures/proc/*/ "$src"/tests/data/procfs/bad/*/ \
    "$src"/tests/data/procfs/warn/*/; do
	[ -f "$d/zoneinfo" ] || continue
	i=$((i + 1))
	cp "$d/zoneinfo" "$out/zoneinfo/seed-$i"
	[ -f "$d/buddyinfo" ] || continue
	{ cat "$d/zoneinfo"; nul; cat "$d/buddyinfo"; } \
	    >"$out/buddyinfo/seed-$i"
	[ -f "$d/pagetypeinfo" ] || continue
	{ cat "$d/zoneinfo"; nul; cat "$d/buddyinfo"; nul;
	    cat "$d/pagetypeinfo"; } >"$out/pagetypeinfo/seed-$i"
done

# Region map: the 6.18 zones over 13 memory blocks of 2 GiB, cut three
# ways (fixed size, per block, a map file).
zi=$src/tests/fixtures/proc/6.18/zoneinfo
blocks() {
	b=0
	while [ $b -lt 13 ]; do
		nul
		state=online
		zone=Normal
		[ $b -eq 0 ] && zone=none
		[ $b -eq 5 ] && { state=offline; zone="Normal Movable"; }
		printf '0\n%08x\n%s\n%s\n' $b $state "$zone"
		b=$((b + 1))
	done
}
for mode in "size 20000000" "block" \
    "node,start_pfn,end_pfn
0,1,4096
0,4096,1048576
0,1048576,6553600
"; do
	i=$((i + 1))
	{ cat "$zi"; nul; printf '%s' "$mode"; nul; printf '80000000\n';
	    blocks; } >"$out/region-map/seed-$i"
done

# Suite files and gate rules as shipped.
cp "$src"/bench/suites/*.ini "$out/suite/"
rm -f "$out/suite/gate-rules.ini"
cp "$src/bench/suites/gate-rules.ini" "$out/gate/"

# Results directories: each file of the directory in the order of
# fuzz-results.c, NUL-separated.
for d in "$src"/tests/data/analyze/*/ "$src"/tests/data/hardening/results-dirs/*/; do
	[ -f "$d/regions.csv" ] || continue
	i=$((i + 1))
	{
		first=1
		for f in meta.json regions.csv samples.csv buddy.csv \
		    pageblocks.csv pagetype.csv placement.csv workloads.csv \
		    events.csv; do
			[ $first -eq 1 ] || nul
			first=0
			cat "$d/$f" 2>/dev/null || :
		done
	} >"$out/results/seed-$i"
done
