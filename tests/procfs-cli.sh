# regionbench sample on the bad-input proc directories of tests/data/procfs:
# every bad/ case exits 2 naming file and line, every warn/ case samples
# and records a warning event.  Skipped until the sample command exists.
. "$top_srcdir/tests/cli-lib.sh"

: "${TESTDATA:=tests/data}"
rb help
grep -q '^  sample ' "$WORK/out" || skip_all "no sample command in this build"

for dir in "$TESTDATA"/procfs/bad/*/; do
	name=$(basename "$dir")
	[ -f "$dir/message" ] || continue
	rb sample --proc "$dir" --count 1 --out "$WORK/$name"
	expect_rc 2 "bad/$name"
	grep -qF -- "$(cat "$dir/message")" "$WORK/err"
	st=$?
	ok $st "bad/$name: message names file and line"
	[ $st -eq 0 ] || diag "want: $(cat "$dir/message")" \
	    "stderr: $(head -c 1000 "$WORK/err")"
done

for dir in "$TESTDATA"/procfs/warn/*/; do
	name=$(basename "$dir")
	[ -f "$dir/message" ] || continue
	rb sample --proc "$dir" --count 1 --out "$WORK/$name"
	expect_rc 0 "warn/$name samples"
	grep -qF -- "$(cat "$dir/message")" "$WORK/$name/events.csv"
	ok $? "warn/$name: warning event with the numbers"
done

# A NUL byte and a 2 MiB line, made here rather than committed.
for f in zoneinfo buddyinfo pagetypeinfo; do
	mkdir -p "$WORK/nul" "$WORK/long"
	cp "$FIXTURES/6.18/$f" "$WORK/nul/$f"
	cp "$FIXTURES/6.18/$f" "$WORK/long/$f"
done
printf 'Node 0, zone      DMA\n  pages free  \0   3840\n' >"$WORK/nul/zoneinfo"
rb sample --proc "$WORK/nul" --count 1 --out "$WORK/nul-out"
expect_rc 2 "NUL byte in zoneinfo"
expect_err 'zoneinfo:2: expected text, found a NUL byte' "NUL: file and line"
{
	printf 'Node 0, zone      DMA\n  pages free  '
	head -c 2097152 /dev/zero | tr '\0' ' '
	printf '3840\n'
} >"$WORK/long/zoneinfo"
rb sample --proc "$WORK/long" --count 1 --out "$WORK/long-out"
expect_rc 2 "2 MiB line in zoneinfo"
expect_err 'zoneinfo:2: expected a line of at most 4096 bytes' \
    "long line: file and line"

done_testing
