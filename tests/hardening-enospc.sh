# The results filesystem fills up: sample --out into a small tmpfs stops
# with exit 3 and an error naming the file; every file written so far
# still parses (verify when meta.json made it, a field-count check of
# each CSV otherwise) and no temporary file is left.
. "$top_srcdir/tests/cli-lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "mounting a tmpfs needs root"
MNT="$WORK/mnt"
mkdir "$MNT"
mount -t tmpfs -o size=64k,mode=0700 tmpfs "$MNT" 2>/dev/null ||
    skip_all "cannot mount a tmpfs here"
umount "$MNT"
trap 'umount "$MNT" 2>/dev/null; rm -rf "$WORK"' EXIT

# csv_whole FILE: each complete line has as many fields as the header
# (sample writes no quoted commas); a cut-off last line is allowed.
csv_whole() {
	awk -F, 'NR == 1 { n = NF; next } NF != n { bad = 1 } END { exit bad }' \
	    "$1" 2>/dev/null || {
		# The last line may be cut off: check all but it.
		sed '$d' "$1" | awk -F, 'NR == 1 { n = NF; next }
		    NF != n { bad = 1 } END { exit bad }'
	}
}

for size in 8k 24k 64k; do
	mount -t tmpfs -o size=$size,mode=0700 tmpfs "$MNT" ||
	    { ok 1 "mount a $size tmpfs"; continue; }
	rb sample --source zone --proc "$FIXTURES/6.18" --interval 1ms \
	    --count 1000000 --out "$MNT/r" --quiet
	expect_rc 3 "$size full: sample stops with exit 3"
	expect_err "$MNT/r/[a-z]+\.(csv|json).*No space left on device" \
	    "$size full: the error names the file"
	bad=0
	for f in "$MNT"/r/*.csv; do
		csv_whole "$f" || { bad=1; diag "$f does not parse"; }
	done
	ok $bad "$size full: every CSV written so far parses"
	ok "$(ls -a "$MNT/r" | grep -c 'tmp')" "$size full: no temporary file"
	if [ -f "$MNT/r/meta.json" ]; then
		rb verify "$MNT/r"
		expect_rc 0 "$size full: verify passes"
		expect_out "not complete|status 'running'" \
		    "$size full: verify says the run did not complete"
	fi
	umount "$MNT"
done

# run on a full filesystem: exit 3; meta.json ends "failed" with the
# reason (meta.json is written with room to spare, so it can be rewritten
# in place when no new file fits); the dead directory is not analyzed.
for size in 64k 96k; do
	mount -t tmpfs -o size=$size,mode=0700 tmpfs "$MNT" ||
	    { ok 1 "mount a $size tmpfs"; continue; }
	rb run "$TESTDATA/runner/tiny.ini" --source zone --interval 10ms \
	    --out "$MNT/r"
	expect_rc 3 "$size full: run stops with exit 3"
	grep -q '"status": "failed"' "$MNT/r/meta.json"
	ok $? "$size full: run's meta.json says failed"
	grep -q '"error": ".*No space left on device' "$MNT/r/meta.json"
	ok $? "$size full: meta.json gives the reason"
	[ ! -e "$MNT/r/summary.csv" ] && [ ! -e "$MNT/r/charts" ]
	ok $? "$size full: the dead directory is not analyzed"
	rb verify "$MNT/r"
	expect_out "failed" "$size full: verify says the run failed"
	umount "$MNT"
done

done_testing
