#!/bin/sh
# Results directories that try to hang, exhaust, mislead or redirect the
# commands that read them: a FIFO where vm.json or a recording's JSON is
# read, kernel files (/proc/self/pagemap) linked in as results files and a
# 50 MB CSV line, read under a memory limit; links planted by another user
# in a directory root reads; runs named more than once; what verify must
# call damage; 100 000 phases under a CPU-time limit; and --openmetrics in
# a directory others can write.
. "$top_srcdir/tests/cli-lib.sh"

FX="$FIXTURES/6.18"
cd "$WORK" || exit 1

# bounded CMD...: run regionbench with at most 60 s and, but under the
# sanitizers (whose shadow memory needs terabytes of address space), 2 GiB
# of address space: a regression fails the test, not the machine.  Sets RC.
if grep -q __asan_init "$REGIONBENCH" 2>/dev/null ||
    ! command -v prlimit >/dev/null 2>&1; then
	LIMIT=""
else
	LIMIT="prlimit --as=2147483648 --"
fi
bounded() {
	timeout -s KILL 60 $LIMIT "$REGIONBENCH" "$@" >"$WORK/out" \
	    2>"$WORK/err" </dev/null
	RC=$?
}

for i in 1 2; do
	"$REGIONBENCH" sample --proc "$FX" --count 3 --interval 100ms \
	    --label l$i --out "$WORK/r$i" >/dev/null 2>&1 ||
	    { echo "Bail out! sample failed"; exit 1; }
done

# ---- runs named more than once
rb gate --unit run --allow-unjudged --baseline r1 r1 r1 --candidate r2 r2 ./r2/
expect_out "baseline has 1 run, candidate 1" \
    "gate: a run named three times is one run a side"
! grep -q '^pass: ' "$WORK/out"
ok $? "so no rule that needs 3 runs a side is judged"
expect_err "r1 is the same run as r1 .*counted once" \
    "with a warning naming the repeats"
cp -r r1 r1-copy
rb gate --unit run --allow-unjudged --baseline r1 --candidate r1-copy r2
expect_rc 2 "gate: the same run (a copy) on both sides is refused"
expect_err "is both baseline \\(r1\\) and candidate \\(r1-copy\\)" \
    "naming both places"
rb compare --group-by label r1 r1-copy r2
expect_out "^ *l1: 1 run" "compare: a copy of a run in its group counts once"

# ---- FIFOs where a run's neighbours or a recording's JSON are read
mkdir -p boot
cp -r r1 boot/run
python3 -c '
import json, sys
p = sys.argv[1] + "/meta.json"
d = json.load(open(p))
d["guest"] = {"kernel": {"sha256": "k1"}}
json.dump(d, open(p, "w"))' boot/run
mkfifo boot/vm.json
for cmd in "verify boot/run" "analyze boot/run" "compare boot/run r2" \
    "gate --unit run --allow-unjudged --baseline boot/run --candidate r2" \
    "store boot/run --db sqlite:$WORK/fifo.db" \
    "report boot/run --out $WORK/fifo-report.html"; do
	# shellcheck disable=SC2086
	bounded $cmd
	[ $RC -ne 137 ]
	ok $? "a FIFO vm.json beside the run does not hang ${cmd%% *} (exit $RC)"
done

"$REGIONBENCH" sample --proc "$FX" --count 2 --interval 100ms \
    --record rec >/dev/null 2>&1
for f in recording.json system.json 0001/snapshot.json; do
	rm -rf rec-f
	cp -r rec rec-f
	rm "rec-f/$f"
	mkfifo "rec-f/$f"
	bounded sample --replay rec-f --out "$WORK/replay-$(echo $f | tr / -)"
	expect_rc 2 "sample --replay with a FIFO as $f"
	expect_err "a FIFO, not a regular file" "says what it is"
done

# ---- kernel files as results files, read under a memory limit
for f in samples.csv events.csv meta.json; do
	rm -rf pm
	cp -r r1 pm
	ln -sf /proc/self/pagemap "pm/$f"
	for cmd in verify analyze report store; do
		case $cmd in
		store) bounded store pm --db "sqlite:$WORK/pm.db" ;;
		report) bounded report pm --out "$WORK/pm.html" ;;
		*) bounded $cmd pm ;;
		esac
		[ $RC -eq 1 ] || [ $RC -eq 2 ]
		ok $? "$f linked to /proc/self/pagemap: $cmd refuses it (exit $RC)"
	done
	bounded gate --unit run --allow-unjudged --baseline pm --candidate r2
	[ $RC -eq 2 ]
	ok $? "$f linked to /proc/self/pagemap: gate refuses it (exit $RC)"
done
grep -q "symbolic link" "$WORK/err"
ok $? "the message says a link is not followed"
bounded gate --rules /proc/self/pagemap --baseline r1 --candidate r2
expect_rc 2 "gate --rules /proc/self/pagemap"
expect_err "a kernel's file \\(procfs\\)" "is refused as a kernel's file"

rm -rf long
cp -r r1 long
python3 -c '
import sys
with open(sys.argv[1] + "/events.csv", "a") as f:
    f.write("0.500,warning," + "x" * 50000000 + ",sample\n")' long
bounded analyze long
expect_rc 2 "a 50 MB line in events.csv"
expect_err "events.csv:[0-9]+: line longer than 1024 KiB" \
    "is refused naming the file and line"

# ---- what verify calls damage
for c in fewer repeated free noevents; do cp -r r1 "v-$c"; done
head -n 4 r1/samples.csv >v-fewer/samples.csv
tail -n 3 r1/samples.csv >>v-repeated/samples.csv
sed -i 's/"samples": 3/"samples": 4/' v-repeated/meta.json
awk -F, 'BEGIN { OFS = "," } NR == 2 { $7 = $6 + 100000 } { print }' \
    r1/samples.csv >v-free/samples.csv
rm v-noevents/events.csv
for c in fewer repeated free noevents; do
	rb verify "v-$c"
	expect_rc 1 "verify: $c is damage"
done
rb verify r1
expect_rc 0 "verify: the run they were made from is whole"

# ---- 100 000 phases, under a CPU-time budget
rm -rf ph
cp -r r1 ph
python3 -c '
import json, sys
p = sys.argv[1] + "/meta.json"
d = json.load(open(p))
d["phases"] = ["sample"] + ["p%d" % i for i in range(100000)]
json.dump(d, open(p, "w"))' ph
# The budget is the program's: a sanitized build spends it on its own
# bookkeeping (it checks every access), so there it is not judged.
sanitized=""
grep -q __asan_init "$REGIONBENCH" 2>/dev/null && sanitized=yes
for cmd in verify analyze compare report; do
	if [ -n "$sanitized" ]; then
		ok 0 "# SKIP 100 000 phases: $cmd: CPU budget not judged under the sanitizers"
		continue
	fi
	timeout -s KILL 120 prlimit --cpu=20 -- "$REGIONBENCH" $cmd ph \
	    >/dev/null 2>&1 </dev/null
	RC=$?
	[ $RC -eq 0 ]
	ok $? "100 000 phases: $cmd within 20 s of CPU (exit $RC)"
done

# ---- links planted by another user, followed by root
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1 &&
    command -v setpriv >/dev/null 2>&1; then
	as_nobody="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups --"
	chmod a+rx "$WORK"
	printf 'TOPSECRET {"x": 1}\n' >secret
	chmod 0600 secret
	mkdir theirs
	cp -r r1/. theirs/
	chown -R nobody theirs
	$as_nobody ln -sf "$WORK/secret" theirs/meta.json
	for cmd in verify analyze; do
		rb $cmd theirs
		! grep -q TOPSECRET "$WORK/out" "$WORK/err"
		ok $? "$cmd as root: nothing of a file meta.json links to is shown"
		[ $RC -eq 1 ] || [ $RC -eq 2 ]
		ok $? "and the run is refused (exit $RC)"
	done
	$as_nobody rm -f theirs/meta.json
	cp r1/meta.json theirs/meta.json
	mkdir elsewhere
	$as_nobody ln -s "$WORK/elsewhere" theirs/charts
	rb chart theirs
	expect_rc 2 "chart as root: a charts link in the run is refused"
	[ -z "$(ls elsewhere)" ]
	ok $? "and nothing is written where it points"
else
	diag "links planted by another user: skipped (needs root, nobody, setpriv)"
fi

# ---- --openmetrics in a directory others can write
mkdir -m 1777 prom
"$REGIONBENCH" sample --proc "$FX" --interval 50ms --out "$WORK/om" \
    --openmetrics "$WORK/prom/x.prom" >/dev/null 2>"$WORK/om.err" </dev/null &
pid=$!
wait_for "the first page" test -s prom/x.prom
# What another user would plant at the names a counter would use next.
i=0
while [ $i -lt 300 ]; do
	: >"prom/.x.prom.tmp.$pid.$i"
	i=$((i + 1))
done
# Past the planted names: three newer pages, and no write failed.
for k in 1 2 3; do
	cp prom/x.prom "$WORK/page-$k"
	wait_for "a newer page" sh -c '! cmp -s prom/x.prom "$0"' \
	    "$WORK/page-$k"
done
! grep -q "x.prom" om.err
ok $? "planted files at predictable names make no write fail"
# A write that fails (its directory gone) is in events.csv.  (rm -rf
# fails while a temporary file appears in the directory: retry.)
gone_dir() { rm -rf prom 2>/dev/null; [ ! -e prom ]; }
wait_for "the page's directory removed" gone_dir
wait_for "the failure recorded" has_line om/events.csv 'warning,.*x\.prom'
ok $? "a failed write of the page is recorded in events.csv"
kill -INT $pid
wait $pid

done_testing
