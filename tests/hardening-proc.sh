# /proc files vanishing or changing format in the middle of a run: sample
# --replay over recordings whose later snapshots lose a file, are garbled
# or cut short, and sample --proc over a directory changed while it runs.
# Each is a clear stop (exit 2 for bad text, 3 for a file gone) naming the
# file, never a crash; the results written so far pass verify.
. "$top_srcdir/tests/cli-lib.sh"

rb sample --source zone --proc "$FIXTURES/6.18" --count 6 --interval 10ms \
    --pagetype-every 1 --record "$WORK/rec" --out "$WORK/o" --quiet
expect_rc 0 "record six samples of the 6.18 fixture"

# damaged NAME WANT_RC PATTERN: replay copy NAME, check the stop.
damaged() {
	rb sample --source zone --replay "$WORK/$1" --interval 10ms \
	    --pagetype-every 1 --out "$WORK/out-$1" --quiet
	expect_rc "$2" "$1: a clear stop"
	expect_err "$3" "$1: the message names the file"
	rb verify "$WORK/out-$1"
	expect_rc 0 "$1: what was written passes verify"
	expect_out "status 'failed'" "$1: meta.json says failed"
}

cp -R "$WORK/rec" "$WORK/gone"
rm "$WORK/gone/0003/zoneinfo"
damaged gone 3 "gone/0003/zoneinfo: No such file"

cp -R "$WORK/rec" "$WORK/garbled"
printf 'Node 0, zone   Normal garbage\n' >"$WORK/garbled/0002/buddyinfo"
damaged garbled 2 "garbled/0002/buddyinfo:1: expected"

cp -R "$WORK/rec" "$WORK/cut"
head -c 100 "$WORK/rec/0004/zoneinfo" >"$WORK/cut/0004/zoneinfo"
damaged cut 2 "cut/0004/zoneinfo:[0-9]+: expected"

cp -R "$WORK/rec" "$WORK/kernel"
cp "$FIXTURES/patched-2.6.39/zoneinfo" "$WORK/kernel/0002/zoneinfo"
cp "$FIXTURES/patched-2.6.39/buddyinfo" "$WORK/kernel/0002/buddyinfo"
damaged kernel 2 "kernel/0002/zoneinfo"

cp -R "$WORK/rec" "$WORK/ptype"
printf 'garbage\n' >"$WORK/ptype/0003/pagetypeinfo"
damaged ptype 2 "ptype/0003/pagetypeinfo:1: expected"

# A live --proc directory changed while sample reads it.
live() {
	rm -rf "$WORK/p"
	cp -R "$FIXTURES/6.18" "$WORK/p"
	"$REGIONBENCH" sample --source zone --proc "$WORK/p" --interval 20ms \
	    --count 1000 --out "$WORK/live-$1" --quiet >"$WORK/out" \
	    2>"$WORK/err" </dev/null &
	pid=$!
	# Change the files once a sample of them is written.
	wait_for "the first sample" has_row "$WORK/live-$1/samples.csv"
	eval "$2"
	wait $pid
	RC=$?
	[ "$RC" -eq 2 ] || [ "$RC" -eq 3 ]
	ok $? "live $1: a clear stop (exit $RC, want 2 or 3)"
	expect_err "p/[a-z]+info" "live $1: the message names the file"
	rb verify "$WORK/live-$1"
	expect_rc 0 "live $1: what was written passes verify"
}
live gone 'rm "$WORK/p/buddyinfo"'
live garbled 'printf "\001\002\377\n" >"$WORK/p/zoneinfo"'

done_testing
