#!/bin/sh
# sample --record and --replay with every source: a replay gives the run's
# regions and figures file for file (meta.json aside), recordings of
# version 1 replay with the sources their text serves, and a source a
# recording cannot give is refused naming the recording.  Runs of the
# kpageflags source leave out pagetype.csv and pageblocks.csv and say why,
# and every reader takes such a directory.
. "$top_srcdir/tests/cli-lib.sh"

MKTREE="$top_builddir/tests/kpf-mktree"
T="$WORK/tree"
mkdir -p "$T"
"$MKTREE" "$T" all || { echo "Bail out! kpf-mktree failed"; exit 1; }

# same_dirs A B WHAT: every file of A but meta.json is in B, byte for byte,
# and B has no other file.
same_dirs() {
	sd_bad=0
	for f in "$1"/*; do
		n=$(basename "$f")
		[ "$n" = meta.json ] && continue
		# A busy machine can make the live run miss a deadline (an
		# overrun event); the replay, unpaced, never does.
		if [ "$n" = events.csv ]; then
			grep -v -e ',overrun,' -e 'a sample.s scan takes about' "$f" >"$WORK/ev-run"
			grep -v -e ',overrun,' -e 'a sample.s scan takes about' "$2/$n" >"$WORK/ev-rep"
			if ! cmp -s "$WORK/ev-run" "$WORK/ev-rep"; then
				diag "$3: $n differs"
				sd_bad=1
			fi
			continue
		fi
		if ! cmp -s "$f" "$2/$n"; then
			diag "$3: $n differs"
			sd_bad=1
		fi
	done
	for f in "$2"/*; do
		[ -e "$1/$(basename "$f")" ] || { diag "$3: extra $f"; sd_bad=1; }
	done
	ok $sd_bad "$3: the replay's files equal the run's (meta.json aside)"
}

# record_replay NAME SOURCE ARGS...: record a run, replay it with --source
# auto, compare.
record_replay() {
	rr_name=$1
	rr_source=$2
	shift 2
	rb sample --source "$rr_source" "$@" --count 3 --interval 10ms \
	    --pagetype-every 2 --record "$WORK/rec-$rr_name" \
	    --out "$WORK/run-$rr_name" --quiet
	expect_rc 0 "$rr_name: record 3 samples with the $rr_source source"
	rb sample --replay "$WORK/rec-$rr_name" --out "$WORK/rep-$rr_name" \
	    --quiet
	expect_rc 0 "$rr_name: replay"
	same_dirs "$WORK/run-$rr_name" "$WORK/rep-$rr_name" "$rr_name"
	! grep -q ',overrun,' "$WORK/rep-$rr_name/events.csv"
	ok $? "$rr_name: an unpaced replay misses no deadline (no overrun)"
	grep -q "\"name\": \"$rr_source\"" "$WORK/rep-$rr_name/meta.json"
	ok $? "$rr_name: the replay's meta.json names the $rr_source source"
	rb verify "$WORK/run-$rr_name"
	rr_rc=$RC
	rb verify "$WORK/rep-$rr_name"
	[ "$RC" -eq "$rr_rc" ]
	ok $? "$rr_name: verify says of the replay what it says of the run"
}

record_replay zone zone --proc "$FIXTURES/6.18"
record_replay patched patched --proc "$FIXTURES/patched-2.6.39-2node"
record_replay sorted sorted-buddy --proc "$FIXTURES/sorted-buddy-3.12"
record_replay kpf kpageflags --proc "$T/proc" --sys "$T/sys" \
    --region-size 256M

# The recording's layout: version 2, the source, its region map, and per
# sample the text read, the figures and the time.
R="$WORK/rec-kpf"
grep -q '"version": 2' "$R/recording.json"
ok $? "recording.json says version 2"
grep -q '"mode": "size"' "$R/recording.json" &&
    grep -q '"region_pages": 65536' "$R/recording.json"
ok $? "recording.json keeps the region map (256M regions of 4K pages)"
for f in zoneinfo buddyinfo snapshot.json time; do
	[ -s "$R/0002/$f" ]
	ok $? "sample 2 keeps $f"
done
# A replay is of the recording's boot, never of the replaying host's.
cp -r "$R" "$WORK/rec-boot"
sed 's/"boot_id": \(null\|"[^"]*"\)/"boot_id": "recorded-boot"/' "$R/system.json" \
    >"$WORK/rec-boot/system.json"
rb sample --replay "$WORK/rec-boot" --out "$WORK/rep-boot" --quiet
expect_rc 0 "replay of a recording from another boot"
grep -q '"boot_id": "recorded-boot"' "$WORK/rep-boot/meta.json"
ok $? "the replay keeps the recording's boot_id"
rm "$WORK/rec-boot/system.json"
rb sample --replay "$WORK/rec-boot" --out "$WORK/rep-noboot" --quiet
expect_rc 0 "replay of a recording without system.json"
grep -q '"boot_id": "unknown"' "$WORK/rep-noboot/meta.json"
ok $? "without it the boot is unknown, not this host's"
rb sample --replay "$R" --count 2 --out "$WORK/rep-kpf-2" --quiet
expect_rc 0 "a replay of the first 2 samples"
t1=$(cat "$R/0001/time")
tail -n 1 "$WORK/rep-kpf-2/events.csv" | grep -q "^$t1,stop,complete,"
ok $? "stops at its last sample's recorded time ($t1)"
# An unpaced replay takes far less than the recorded time: --duration
# counts the recording's time, and ends where the live run would have,
# with the last sample no later than half an interval past it.
cp -r "$R" "$WORK/slow"
for i in 0 1 2; do echo "$((i * 5)).000" >"$WORK/slow/000$i/time"; done
rb sample --replay "$WORK/slow" --duration 6s --out "$WORK/slow-6" --quiet
expect_rc 0 "a replay of 6 s of a 10 s recording"
[ "$(tail -n +2 "$WORK/slow-6/samples.csv" | cut -d, -f1 | uniq | tr '\n' ' ')" = "0.000 5.000 " ]
ok $? "it replays the samples at 0 and 5 s"
tail -n 1 "$WORK/slow-6/events.csv" | grep -q '^5.000,stop,complete,'
ok $? "and stops complete at 5 s"
rb sample --replay "$WORK/slow" --duration 8s --out "$WORK/slow-8" --quiet
expect_rc 0 "a replay of 8 s of a 10 s recording"
[ "$(tail -n +2 "$WORK/slow-8/samples.csv" | cut -d, -f1 | uniq | tr '\n' ' ')" = "0.000 5.000 10.000 " ]
ok $? "the sample at 10 s is within half an interval of 8 s: replayed"
grep -q '"region_size_bytes": 268435456' "$WORK/rep-kpf/meta.json"
ok $? "the replay's meta.json has the recorded region size"

# The kpageflags source has no migratetype: no pagetype.csv or
# pageblocks.csv, and meta.json says why.
for d in run-kpf rep-kpf; do
	[ ! -e "$WORK/$d/pagetype.csv" ] && [ ! -e "$WORK/$d/pageblocks.csv" ]
	ok $? "$d: no pagetype.csv or pageblocks.csv"
	grep -q '"pagetype.csv": "the kpageflags source gives no migratetype' \
	    "$WORK/$d/meta.json" &&
	    grep -q '"pageblocks.csv": "the kpageflags source' \
	    "$WORK/$d/meta.json"
	ok $? "$d: files_omitted says why"
done
grep -q '"files_omitted": {}' "$WORK/run-zone/meta.json"
ok $? "a zone run leaves nothing out"
[ "$(wc -l <"$WORK/run-zone/pagetype.csv")" -gt 1 ]
ok $? "the zone run has pagetype rows"

# Every reader takes a run without them.
rb verify "$WORK/run-kpf"
expect_rc 0 "verify a kpageflags run"
rb analyze "$WORK/run-kpf"
expect_rc 0 "analyze a kpageflags run"
rb chart "$WORK/run-kpf" --out "$WORK/charts-kpf"
expect_rc 0 "chart a kpageflags run"
rb report "$WORK/run-kpf" --out "$WORK/kpf.html"
expect_rc 0 "report of a kpageflags run"
! grep -q 'href="[^"]*pagetype.csv"' "$WORK/kpf.html"
ok $? "the report links no pagetype.csv"
grep -q '<th>pageblocks.csv not written</th><td>the kpageflags source gives no migratetype' \
    "$WORK/kpf.html"
ok $? "and says why it has none"
rb compare "$WORK/run-kpf" "$WORK/rep-kpf"
expect_rc 0 "compare two kpageflags runs"

# A source that writes them and left one out is damaged.
cp -r "$WORK/run-zone" "$WORK/lost"
rm "$WORK/lost/pageblocks.csv"
rb verify "$WORK/lost"
expect_rc 1 "verify: a zone run without pageblocks.csv is damaged"
expect_out "pageblocks.csv is missing, and meta.json's files_omitted does not say why it was left out \(source zone\)" \
    "verify names the missing file"

# Hand-made data of the kpageflags source that says why passes.
rb verify "$TESTDATA/charts/basic"
expect_rc 0 "verify a hand-made kpageflags run with files_omitted"

# A source named again: the text sources parse the recorded text, the
# recorded kpageflags source gives its figures, others are refused.
rb sample --replay "$R" --source kpageflags --out "$WORK/kpf-named" --quiet
expect_rc 0 "replay of a kpageflags recording with --source kpageflags"
cmp -s "$WORK/run-kpf/samples.csv" "$WORK/kpf-named/samples.csv"
ok $? "and it gives the recorded figures"
rb sample --replay "$R" --region-size 1G --out "$WORK/kpf-1g" --quiet
expect_rc 0 "a replay given another --region-size"
expect_err "warning: sample: --region-size 1G is not applied" \
    "says that recorded figures keep their regions"
cmp -s "$WORK/run-kpf/regions.csv" "$WORK/kpf-1g/regions.csv"
ok $? "and keeps them"
rb sample --replay "$R" --source zone --out "$WORK/kpf-zone" --quiet
expect_rc 0 "--source zone parses the text a kpageflags recording kept"
[ "$(($(wc -l <"$WORK/kpf-zone/regions.csv") - 1))" -eq 3 ]
ok $? "into one region per zone"
rb sample --replay "$R" --source patched --out "$WORK/kpf-patched" --quiet
expect_rc 2 "--source patched of a kpageflags recording"
expect_err "replay $R cannot give the patched source: the recording keeps the figures of the kpageflags source" \
    "the refusal names the recording and what it keeps"
rb sample --replay "$WORK/rec-zone" --source kpageflags --out "$WORK/z-k" \
    --quiet
expect_rc 2 "--source kpageflags of a zone recording"
expect_err "keeps no kpageflags figures" "says that kpageflags figures are missing"

# Version 1 (text only): auto replays with the source the text serves,
# and says why not kpageflags; --source kpageflags is refused.
cp -r "$R" "$WORK/v1"
rm "$WORK/v1/recording.json" "$WORK/v1"/*/snapshot.json
rb sample --replay "$WORK/v1" --out "$WORK/v1-auto" --quiet
expect_rc 0 "replay of a version 1 recording"
grep -q '"name": "zone"' "$WORK/v1-auto/meta.json"
ok $? "it replays with the zone source"
grep -q "kpageflags: the recording $WORK/v1 keeps no kpageflags figures" \
    "$WORK/v1-auto/meta.json"
ok $? "and meta.json says why not kpageflags, truly"
! grep -q CONFIG_PROC_PAGE_MONITOR "$WORK/v1-auto/meta.json"
ok $? "no word of a kernel without CONFIG_PROC_PAGE_MONITOR"
rb sample --replay "$WORK/v1" --source kpageflags --out "$WORK/v1-k" --quiet
expect_rc 2 "--source kpageflags of a version 1 recording"
expect_err "replay $WORK/v1 cannot give the kpageflags source: the recording keeps only /proc text \(version 1" \
    "the refusal names the recording and the version"

# Damaged recordings: a missing or garbled snapshot.json, a newer version.
cp -r "$R" "$WORK/gone"
rm "$WORK/gone/0001/snapshot.json"
rb sample --replay "$WORK/gone" --out "$WORK/gone-out" --quiet
expect_rc 3 "a sample without its figures"
expect_err "gone/0001/snapshot.json" "names the file"
cp -r "$R" "$WORK/garbled"
printf '{"format": 3' >"$WORK/garbled/0002/snapshot.json"
rb sample --replay "$WORK/garbled" --out "$WORK/garbled-out" --quiet
expect_rc 2 "garbled figures"
expect_err "garbled/0002/snapshot.json:1:" "name file and line"
rb verify "$WORK/garbled-out"
expect_rc 0 "what was written before passes verify"
cp -r "$R" "$WORK/newer"
sed -i 's/"version": 2/"version": 99/' "$WORK/newer/recording.json"
rb sample --replay "$WORK/newer" --out "$WORK/newer-out" --quiet
expect_rc 2 "a recording of a newer version"
expect_err "newer/recording.json: recording version 99" "says which version"

done_testing
