# sample and info from the command line: every fixture set, bad input,
# record/replay, a live run on this machine, and --help of every command.
. "$top_srcdir/tests/cli-lib.sh"

# Every subcommand answers --help with its usage and exit 0.
for cmd in $("$REGIONBENCH" help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1}'); do
	rb "$cmd" --help
	expect_rc 0 "$cmd --help"
	expect_out "^usage: regionbench $cmd" "$cmd --help prints its usage"
done

# One sample of every fixture set into a results directory.
for set in "$FIXTURES"/*/; do
	name=$(basename "$set")
	out="$WORK/fx-$name"
	rb sample --count 1 --proc "$set" --out "$out" --quiet
	expect_rc 0 "sample --count 1 on fixture $name"
	for f in regions samples buddy pagetype pageblocks events placement workloads; do
		[ -s "$out/$f.csv" ]
		ok $? "$name: $f.csv written"
	done
	grep -q '"status": "complete"' "$out/meta.json"
	ok $? "$name: meta.json says complete"
	rows=$(($(wc -l <"$out/samples.csv") - 1))
	keys=$(($(wc -l <"$out/regions.csv") - 1))
	[ "$rows" -eq "$keys" ] && [ "$rows" -gt 0 ]
	ok $? "$name: one samples.csv row per region key ($rows rows, $keys keys)"
	# What sample writes, verify and analyze read (a source without pfns,
	# sorted-buddy, leaves start_pfn empty).
	rb verify "$out"
	expect_rc 0 "$name: verify calls the results whole"
	rb analyze "$out"
	expect_rc 0 "$name: analyze reads them"
done

# The auto source picks the layout the kernel printed.
rb info --proc "$FIXTURES/patched-2.6.39"
expect_rc 0 "info on the patched fixture"
expect_out '^region source: +patched' "info picks the patched source"
rb info --proc "$FIXTURES/6.18"
expect_out '^region source: +zone' "info falls back to zone on a fixture without kpageflags"
# From the fixtures' directory, so that the paths in the reasons are short.
(cd "$FIXTURES" && "$REGIONBENCH" info --proc 6.18) >"$WORK/out" 2>"$WORK/err"
expect_out '^  passed over: +patched: .*has no' "info says why each source auto tried first does not apply"
expect_out '^ +sorted-buddy: ' "each source passed over has a line of its own"
long=$(awk 'length > 80' "$WORK/out")
[ -z "$long" ]
ok $? "info's lines fit 80 columns"
[ -z "$long" ] || diag "$long"
rb info --proc "$FIXTURES/6.18" --source patched
expect_rc 3 "info --source patched on a vanilla kernel is an error"
expect_err "source patched does not apply here" "and says why"

# Sorted-buddy regions restart at 0 in every zone: they are renumbered per
# node so that (node, region) is one physical range, and the kernel's own
# number is kept in zone_region.
out="$WORK/fx-sorted-buddy-3.12"
keys=$(tail -n +2 "$out/regions.csv" | cut -d, -f1,2 | sort -u | wc -l)
rows=$(($(wc -l <"$out/regions.csv") - 1))
[ "$keys" -eq "$rows" ]
ok $? "sorted-buddy: every (node, region) is one key ($keys of $rows)"
grep -q '^0,0,DMA,.*,0$' "$out/regions.csv" && grep -q '^0,[1-9][0-9]*,Normal,.*,0$' "$out/regions.csv"
ok $? "sorted-buddy: Normal's region 0 follows the lower zones, zone_region 0"

# Bad option values and combinations are usage errors.
rb sample --bogus
expect_rc 2 "unknown option"
expect_err "unknown option --bogus" "names the unknown option"
rb sample --interval 5parsecs --count 1
expect_rc 2 "bad interval unit"
rb sample --count 0
expect_rc 2 "--count 0 refused"
rb sample --source nonsense --count 1 --proc "$FIXTURES/6.18"
expect_rc 2 "unknown source"
rb sample --record "$WORK/r" --replay "$WORK/r" --count 1
expect_rc 2 "--record with --replay"
rb sample --replay "$WORK/does-not-exist" --out "$WORK/x1"
expect_rc 2 "replay of a missing recording"
rb sample --proc "$WORK/no-such-dir" --count 1
expect_rc 2 "--proc that does not exist"
mkdir -p "$WORK/nonempty" && touch "$WORK/nonempty/file"
rb sample --proc "$FIXTURES/6.18" --count 1 --out "$WORK/nonempty"
expect_rc 2 "a non-empty --out is refused"
rb sample --proc "$FIXTURES/patched-2.6.39" --source zone --count 1
expect_rc 3 "an explicit source that does not apply is an environment error"

# Malformed /proc trees: exit 2 naming the file, and CSVs that still parse.
if [ -d "$TESTDATA/procfs/bad" ]; then
	for dir in "$TESTDATA"/procfs/bad/*/; do
		name=$(basename "$dir")
		rb sample --count 1 --proc "$dir" --out "$WORK/bad-$name" --quiet
		expect_rc 2 "malformed input '$name'"
		expect_err "$dir|$(basename "$dir")" "'$name': message names the file"
		if [ -f "$WORK/bad-$name/samples.csv" ]; then
			head -1 "$WORK/bad-$name/samples.csv" | grep -q '^t_s,phase,node'
			ok $? "'$name': samples.csv is whole (header only)"
		fi
	done
fi

# --record then --replay gives identical tables (every source, and
# recordings of older versions: tests/recording-cli.sh).
rb sample --count 3 --interval 100ms --source zone --record "$WORK/rec" \
    --out "$WORK/live" --quiet
expect_rc 0 "live sample with --record"
rb sample --replay "$WORK/rec" --out "$WORK/replayed" --quiet
expect_rc 0 "replay of the recording"
for f in regions samples buddy pagetype pageblocks; do
	cmp -s "$WORK/live/$f.csv" "$WORK/replayed/$f.csv"
	ok $? "replay reproduces $f.csv"
done
[ -d "$WORK/rec/0000" ] && [ -d "$WORK/rec/0002" ] && [ ! -d "$WORK/rec/0003" ]
ok $? "the recording holds exactly 3 samples"

# A hand-made 3-snapshot sequence: each sample gets its own figures.
seq="$WORK/seq"
for i in 0 1 2; do
	mkdir -p "$seq/000$i"
	cp "$FIXTURES/patched-2.6.39/zoneinfo" "$FIXTURES/patched-2.6.39/buddyinfo" "$seq/000$i/"
	echo "$i.500" >"$seq/000$i/time"
done
cp "$FIXTURES/patched-2.6.39/pagetypeinfo" "$seq/0000/"
# Sample 1: region 1 lost 1000 free pages (buddyinfo left as it was: drift).
sed -i '/Region 1, zone/,/pages free/ s/pages free *131072/pages free     130072/' "$seq/0001/zoneinfo"
rb sample --replay "$seq" --out "$WORK/seqout" --quiet
expect_rc 0 "replay of a 3-snapshot patched sequence"
n=$(grep -c '^[0-9.]*,sample,0,1,Normal,' "$WORK/seqout/samples.csv")
[ "$n" -eq 3 ]
ok $? "3 samples of region 1 (got $n)"
grep -q '^1.500,sample,0,1,Normal,130048,130072,' "$WORK/seqout/samples.csv"
ok $? "sample 1 has region 1's changed free pages at its recorded time"
grep -q '^2.500,sample,0,1,Normal,130048,131072,' "$WORK/seqout/samples.csv"
ok $? "sample 2 has region 1's original free pages"
grep -q ',warning,' "$WORK/seqout/events.csv"
ok $? "the buddyinfo/zoneinfo mismatch is a warning event"
[ "$(grep -c ',sample,0,0,Normal,' "$WORK/seqout/pagetype.csv")" -gt 0 ]
ok $? "pagetypeinfo read where the recording has it"

# Live: free pages per zone agree with /proc/zoneinfo.  Exactly with the
# zoneinfo text each sample parsed (kept by --record), and within the drift
# of this machine with zoneinfo read before and after the run.  Free pages
# are zoneinfo's "pages free" plus the per-CPU list pages (count:).
zone_free() {
	awk '/^Node/ { z = $2 $4; if (!(z in seen)) { seen[z] = 1; o[++n] = z } }
	    /pages free/ { f[z] = $3 }
	    /^ *count:/ { p[z] += $2 }
	    END { for (i = 1; i <= n; i++) if (o[i] in f)
		print o[i], f[o[i]] + p[o[i]] }' "$1" | tr -d ','
}
zone_free /proc/zoneinfo >"$WORK/before"
rb sample --count 3 --interval 100ms --source zone --record "$WORK/liverec" --out "$WORK/livez" --quiet
expect_rc 0 "live sample of this machine, 3 samples at 100 ms"
zone_free /proc/zoneinfo >"$WORK/after"
rows=$(($(wc -l <"$WORK/livez/samples.csv") - 1))
keys=$(($(wc -l <"$WORK/livez/regions.csv") - 1))
[ "$rows" -eq $((3 * keys)) ]
ok $? "3 samples of $keys keys"
mismatch=0
for i in 0 1 2; do
	t=$(cat "$WORK/liverec/000$i/time")
	zone_free "$WORK/liverec/000$i/zoneinfo" >"$WORK/rec$i"
	awk -F, -v t="$t" 'FNR > 1 && $1 == t { print $3 $5, $7 }' \
	    "$WORK/livez/samples.csv" | sort >"$WORK/got$i"
	sort "$WORK/rec$i" | join - "$WORK/got$i" | awk '$2 != $3 { bad = 1; print "# " $0 } END { exit bad }' ||
	    mismatch=1
	[ -s "$WORK/got$i" ] || mismatch=1
done
ok $mismatch "each sample's free pages equal the zoneinfo it read"
ncpu=$(nproc)
awk -F, -v ncpu="$ncpu" '
	FILENAME ~ /before$/ { split($0, a, " "); before[a[1]] = a[2]; next }
	FILENAME ~ /after$/ { split($0, a, " "); after[a[1]] = a[2]; next }
	FNR > 1 { key = $3 $5; got[key] = $7; managed[key] = $8 }
	END {
		bad = 0
		for (k in got) {
			lo = before[k] < after[k] ? before[k] : after[k]
			hi = before[k] < after[k] ? after[k] : before[k]
			# vmstat slack plus what this busy VM moves in a second
			# (measured on a busy VM: 60k-180k pages).
			slack = 64 * ncpu + 0.05 * managed[k] + 1000
			if (got[k] < lo - slack || got[k] > hi + slack) {
				printf "# zone %s: sampled %d, zoneinfo %d..%d\n", k, got[k], lo, hi
				bad = 1
			}
		}
		exit bad
	}' "$WORK/before" "$WORK/after" "$WORK/livez/samples.csv"
ok $? "live free pages match /proc/zoneinfo read around the run"

# Piped output: samples.csv rows (the default off a terminal) and JSON lines.
fx="$FIXTURES/6.18"
rb sample --count 2 --interval 10ms --proc "$fx" --out "$WORK/pipe-ref" --quiet
expect_rc 0 "sample --out for the piped output's reference"
rb sample --count 2 --interval 10ms --proc "$fx"
expect_rc 0 "sample --count 2 into a file"
cp "$WORK/out" "$WORK/piped-default.csv"
rb sample --count 2 --interval 10ms --proc "$fx" --format csv
expect_rc 0 "sample --count 2 --format csv"
cp "$WORK/out" "$WORK/piped.csv"
# Same header and as many rows (the rows themselves are compared with
# samples.csv below; two live runs may differ in a sample's timing).
[ "$(head -n 1 "$WORK/piped-default.csv")" = "$(head -n 1 "$WORK/piped.csv")" ] &&
    [ "$(wc -l <"$WORK/piped-default.csv")" = "$(wc -l <"$WORK/piped.csv")" ]
ok $? "off a terminal, sample writes CSV unless told otherwise"
! grep -q '^#\|used%' "$WORK/piped.csv"
ok $? "no human table in the CSV"
# Same header and rows as samples.csv, times aside (a fixture stays put).
cut -d, -f2- "$WORK/piped.csv" >"$WORK/piped.rest"
cut -d, -f2- "$WORK/pipe-ref/samples.csv" >"$WORK/ref.rest"
[ "$(head -1 "$WORK/piped.csv")" = "$(head -1 "$WORK/pipe-ref/samples.csv")" ]
ok $? "CSV header is samples.csv's"
cmp -s "$WORK/piped.rest" "$WORK/ref.rest"
ok $? "CSV rows are samples.csv's rows"
rb sample --count 2 --interval 10ms --proc "$fx" --format json
expect_rc 0 "sample --count 2 --format json"
cp "$WORK/out" "$WORK/piped.json"
keys=$(($(wc -l <"$WORK/pipe-ref/regions.csv") - 1))
if command -v python3 >/dev/null 2>&1; then
	python3 - "$WORK/piped.csv" "$WORK/piped.json" "$keys" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
keys = int(sys.argv[3])
assert len(rows) == 2 * keys, ("csv rows", len(rows), keys)
assert len({r["t_s"] for r in rows}) == 2, "two sample times"
for r in rows:
    int(r["present_pages"]), int(r["free_pages"]), float(r["t_s"])
    assert r["phase"] == "sample"
lines = open(sys.argv[2]).read().splitlines()
assert len(lines) == 2, ("json lines", len(lines))
for n, line in enumerate(lines, 1):
    o = json.loads(line)
    assert o["sample"] == n and len(o["regions"]) == keys, o
    for r, c in zip(o["regions"], rows[(n - 1) * keys:n * keys]):
        assert (r["node"], r["region"], r["zone"]) == \
            (int(c["node"]), int(c["region"]), c["zone"]), (r, c)
        assert r["free_pages"] == int(c["free_pages"]), (r, c)
        assert (r["uninit_pages"] is None) == (c["uninit_pages"] == ""), \
            (r, c)
PY
	ok $? "CSV: a row per region key per sample; JSON lines agree"
else
	[ "$(wc -l <"$WORK/piped.json")" -eq 2 ] &&
	    [ "$(wc -l <"$WORK/piped.csv")" -eq $((2 * keys + 1)) ]
	ok $? "CSV has one row per region key per sample, JSON one line per sample"
fi
rb sample --count 1 --proc "$fx" --format yaml
expect_rc 2 "sample --format yaml is refused"
# A closed pipe ends sample quietly.
"$REGIONBENCH" sample --interval 10ms --proc "$fx" --format json 2>"$WORK/err" | head -1 >/dev/null
! grep -q . "$WORK/err"
ok $? "a closed pipe ends sample without a message"

# Samples are never bunched: a late one skips the deadline it came close
# to (recorded as an overrun), so two samples are at least 0.9 intervals
# apart however busy the machine is (t_s has milliseconds: 4 ms of 5).
rb sample --count 30 --interval 5ms --proc "$fx" --out "$WORK/spacing" --quiet
expect_rc 0 "30 samples 5 ms apart"
close=$(tail -n +2 "$WORK/spacing/samples.csv" | cut -d, -f1 | uniq |
    awk 'NR > 1 && $1 - p < 0.004 { n++ } { p = $1 } END { print n + 0 }')
[ "$close" -eq 0 ]
ok $? "no two samples closer than 0.9 intervals ($close pairs)"

done_testing
