#!/bin/sh
# A live recording of this machine with the kpageflags source (root and
# /proc/kpageflags) replays into the same files, meta.json aside.
. "$top_srcdir/tests/cli-lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "the kpageflags source needs root"
[ -r /proc/kpageflags ] || skip_all "no readable /proc/kpageflags"
[ -r /sys/devices/system/memory/block_size_bytes ] ||
    skip_all "no memory block sysfs"

rb sample --source kpageflags --count 3 --interval 100ms \
    --record "$WORK/rec" --out "$WORK/live" --quiet
expect_rc 0 "live kpageflags sample with --record"
rb sample --replay "$WORK/rec" --out "$WORK/replay" --quiet
expect_rc 0 "replay of the live recording"
bad=0
for f in "$WORK/live"/*; do
	n=$(basename "$f")
	[ "$n" = meta.json ] && continue
	# A scan longer than the interval is an overrun event of the live
	# run, and a slow machine warns of it before the first sample; the
	# replay, unpaced and without a scan, has neither.
	if [ "$n" = events.csv ]; then
		grep -v -e ',overrun,' -e 'a sample.s scan takes about' "$f" >"$WORK/ev-live"
		grep -v -e ',overrun,' -e 'a sample.s scan takes about' "$WORK/replay/$n" >"$WORK/ev-replay"
		cmp -s "$WORK/ev-live" "$WORK/ev-replay" ||
		    { diag "$n differs"; bad=1; }
		continue
	fi
	cmp -s "$f" "$WORK/replay/$n" || { diag "$n differs"; bad=1; }
done
[ "$(ls "$WORK/live")" = "$(ls "$WORK/replay")" ] || { diag "file lists differ"; bad=1; }
ok $bad "the replay's files equal the live run's (meta.json aside)"
keys=$(($(wc -l <"$WORK/live/regions.csv") - 1))
[ "$keys" -eq "$(($(wc -l <"$WORK/replay/regions.csv") - 1))" ] && [ "$keys" -gt 0 ]
ok $? "as many region keys ($keys)"
grep -q '"name": "kpageflags"' "$WORK/replay/meta.json"
ok $? "the replay names the kpageflags source"
[ ! -e "$WORK/live/pagetype.csv" ] && [ ! -e "$WORK/replay/pagetype.csv" ]
ok $? "neither has a pagetype.csv"
rb verify "$WORK/replay"
expect_rc 0 "the replay passes verify"

done_testing
