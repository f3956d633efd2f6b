#!/bin/sh
# regionbench placement (and sample --source kpageflags when the sampler is
# there) on the synthetic machine of tests/kpf-tree.h: exact output, CSV
# files, bad --region-map files and options, environment errors.
. "$top_srcdir/tests/cli-lib.sh"

MKTREE="$top_builddir/tests/kpf-mktree"
T="$WORK/tree"
mkdir -p "$T"
"$MKTREE" "$T" all || { echo "Bail out! kpf-mktree failed"; exit 1; }
P="--proc $T/proc --sys $T/sys"

rb placement --help
expect_rc 0 "placement --help"
expect_out "--region-map" "placement --help lists --region-map"

rb placement $P --pid 4242 --region-size 256M
expect_rc 0 "placement table"
expect_out "^pid 4242 \(synthetic\): 18 resident pages, 3 regions hold" \
    "placement table: summary line"
expect_out "^ +1 +0 Normal +8 +44\.44%" "placement table: node 1 row"
expect_out "outside every region: 2 pages" "placement table: hole pages"

rb placement $P --pid 4242 --region-size 256M --format csv
expect_rc 0 "placement csv"
cat >"$WORK/want.csv" <<'EOF'
t_s,phase,workload,pid,node,region,pages
0.000,placement,synthetic,4242,0,0,4
0.000,placement,synthetic,4242,0,1,4
0.000,placement,synthetic,4242,1,0,8
EOF
cmp -s "$WORK/out" "$WORK/want.csv"
ok $? "placement csv: exact rows"

# PIDs as operands, as pmap takes them: the same rows as --pid.
rb placement $P 4242 --region-size 256M --format csv
expect_rc 0 "placement PID: the pid as an operand"
cmp -s "$WORK/out" "$WORK/want.csv"
ok $? "placement PID: the same rows as --pid"
rb placement $P --region-size 256M
expect_rc 2 "placement without a PID"
expect_err "placement: give at least one PID" "says a PID is needed"
rb placement $P 4242x
expect_rc 2 "placement of a PID that is no number"
expect_err "placement: PID: .*4242x" "names it"
rb placement $P --pid 4242 99999
expect_rc 2 "placement of a PID without a process"
expect_err "placement: PID 99999: no such process" "names the PID"

rb placement $P --pid 4242 --region-size 256M --out "$WORK/res"
expect_rc 0 "placement --out"
cmp -s "$WORK/res/placement.csv" "$WORK/want.csv"
ok $? "placement --out: placement.csv has the contract columns and rows"
[ "$(ls -A "$WORK/res")" = "placement.csv" ]
ok $? "placement --out: only placement.csv, no temporary file left"

rb placement $P --pid 4242 --region-size block --format csv
expect_rc 0 "placement --region-size block"
expect_out "^0.000,placement,synthetic,4242,0,3,4$" \
    "placement block regions: memory3 is node 0 region 3"

# A refused read says what would help: root for a user, and for root (whom
# only a security module, lockdown or the ptrace check can refuse) not
# "run as root".
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1 &&
    command -v setpriv >/dev/null 2>&1; then
	cp -r "$T" "$WORK/tree-user"
	chmod a+x "$WORK"
	chmod -R a+rX "$WORK/tree-user"
	chmod 000 "$WORK/tree-user/proc/4242/maps"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$REGIONBENCH" \
	    placement --proc "$WORK/tree-user/proc" --sys "$WORK/tree-user/sys" \
	    --pid 4242 >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	expect_rc 3 "placement refused a file: environment error"
	expect_err "maps: Permission denied \(run as root\)" \
	    "a user is told to run as root"
fi
if [ "$(id -u)" -eq 0 ] && ! head -c 1 /proc/1/maps >/dev/null 2>&1; then
	rb placement --pid 1
	expect_rc 3 "placement of a process root may not read"
	expect_err "refused even to root" "root is told what refused it"
	! grep -q "run as root" "$WORK/err"
	ok $? "root is not told to run as root"
fi

# A comm with a comma and a quote is quoted as RFC 4180 says.
printf 'a,"b\n' >"$T/proc/4242/comm"
rb placement $P --pid 4242 --format csv
expect_out '^0.000,placement,"a,""b",4242,0,0,8$' \
    "placement csv: odd command names are quoted"
printf 'synthetic\n' >"$T/proc/4242/comm"

# Bad --region-map files: exit 2 naming file and line.
bad_map() {
	printf "$1" >"$WORK/map.csv"
	rb placement $P --pid 4242 --region-map "$WORK/map.csv"
	expect_rc 2 "region map $3"
	expect_err "map.csv:$2: .*$3" "region map $3: file, line and reason"
}
bad_map '0,0,65536\n0,60000,70000\n' 2 'overlaps'
bad_map '0,65536,98304\n0,0,65536\n' 2 'not sorted'
bad_map '0,98304,170000\n' 1 'outside node 0'
bad_map 'node,start_pfn,end_pfn\n0,zz,10\n' 2 'start_pfn'
bad_map '0,1,2,3\n' 1 'expected 3 fields'
bad_map '\001\002garbage\377\n' 1 'expected 3 fields'
bad_map '0,0,65536\n9,0,10\n' 2 'node 9 has no memory'

rb placement $P --pid 4242 --region-map "$WORK/none.csv"
expect_rc 2 "missing region map file"
rb placement $P --pid 4242 --region-size 12Q
expect_rc 2 "bad --region-size"
rb placement $P --pid 4242 --region-size 1000
expect_rc 2 "--region-size that is not a multiple of the page size"
rb placement $P
expect_rc 2 "placement without --pid"
rb placement $P --pid 777
expect_rc 2 "placement of a pid that does not exist"
rb placement $P --pid abc
expect_rc 2 "placement --pid abc"

# pagemap with the PFNs zeroed, as the kernel shows it to non-root users.
mkdir -p "$T/proc/4343"
cp "$T/proc/4242/maps" "$T/proc/4242/comm" "$T/proc/4343/"
printf '\0\0\0\0\0\0\0\200' >"$WORK/entry"
dd if=/dev/zero of="$T/proc/4343/pagemap" bs=8 count=1024 2>/dev/null
dd if="$WORK/entry" of="$T/proc/4343/pagemap" bs=8 seek=1024 \
    conv=notrunc 2>/dev/null
dd if=/dev/zero of="$T/proc/4343/pagemap" bs=8 seek=1025 count=65535 \
    conv=notrunc 2>/dev/null
rb placement $P --pid 4343
expect_rc 3 "placement without visible PFNs"
expect_err "needs root" "placement without PFNs says to run as root"

rb placement --proc "$T/proc" --sys "$WORK/nosys" --pid 4242
expect_rc 3 "placement without memory block sysfs"

# Bad sysfs contents are input errors naming the file.
cp -R "$T" "$WORK/bad"
printf 'zz\n' >"$WORK/bad/sys/devices/system/memory/memory3/phys_index"
rb placement --proc "$T/proc" --sys "$WORK/bad/sys" --pid 4242
expect_rc 2 "garbage phys_index"
expect_err "memory3/phys_index:1: expected a hexadecimal" \
    "garbage phys_index: file and line"
printf '00000003\n' >"$WORK/bad/sys/devices/system/memory/memory3/phys_index"
printf '800\n' >"$WORK/bad/sys/devices/system/memory/block_size_bytes"
rb placement --proc "$T/proc" --sys "$WORK/bad/sys" --pid 4242
expect_rc 2 "block size that is not a multiple of the page size"
expect_err "block_size_bytes:1: block size 0x800" \
    "bad block size: file, line and value"

# sample --source kpageflags goes through the source table (lead's code).
if "$REGIONBENCH" help 2>/dev/null | grep -q '^  sample '; then
	rb sample --source kpageflags $P --region-size 256M --count 1 \
	    --out "$WORK/s"
	expect_rc 0 "sample --source kpageflags on the synthetic machine"
	grep -q ',1,0,Normal,63488,30720,' "$WORK/s/samples.csv"
	ok $? "sample --source kpageflags: node 1 region 0 row"
	grep -q ',0,1,Normal,0,0,0,0,0,0,0,0,32768,,,0.000$' "$WORK/s/samples.csv"
	ok $? "sample: memory not initialised yet is in uninit_pages, not present, free or used"
	rb analyze "$WORK/s"
	expect_rc 0 "analyze the synthetic machine's sample"
	expect_out '^  n0r1 .* uninit$' \
	    "analyze: a region of uninitialised memory is neither empty nor active"
	expect_out '^  empty_regions +0 ' "and is not counted as empty"
	printf '0,0,65536\n0,60000,70000\n' >"$WORK/map.csv"
	rb sample --source kpageflags $P --region-map "$WORK/map.csv" \
	    --count 1 --out "$WORK/s2"
	expect_rc 2 "sample with an overlapping --region-map"
	expect_err "map.csv:2: .*overlaps" "sample --region-map: file and line"
	# Head-only marking: the accuracy check lands in events.csv and
	# meta.json names the rule.
	H="$WORK/head"
	mkdir -p "$H"
	"$MKTREE" "$H" head
	rb sample --source kpageflags --proc "$H/proc" --sys "$H/sys" \
	    --region-size 256M --count 1 --out "$WORK/s3" --quiet
	expect_rc 0 "sample of the head-only machine"
	grep -q '^0.000,warning,"kpageflags: node 0 zone Normal: counted 4355 ' \
	    "$WORK/s3/events.csv"
	ok $? "head-only: accuracy warning in events.csv"
	grep -q '"order_rule": *"oldA"' "$WORK/s3/meta.json"
	ok $? "head-only: meta.json says rule oldA"
	rb info --source kpageflags $P --region-size block
	expect_rc 0 "info --source kpageflags"
	expect_out "^region map: one region per 128M memory block" \
	    "info prints the region map"
	expect_out "^node 1: pfn 163840-229376, 2 regions, 2 of 2 128M blocks" \
	    "info prints the node spans"

	# --scan-threads auto (the default): a thread per node of the
	# synthetic machine, as far as the CPUs allow, and the same figures
	# as one thread.
	rb sample --source kpageflags $P --region-size 256M --count 1 \
	    --out "$WORK/t-auto" --quiet
	expect_rc 0 "sample with --scan-threads auto"
	want=2
	[ "$(nproc)" -lt 2 ] && want=1
	grep -q "\"scan_threads\": $want," "$WORK/t-auto/meta.json"
	ok $? "auto picks $want scan threads on 2 nodes and $(nproc) CPUs"
	grep -q '"scan_threads_why": "auto: 2 NUMA nodes with memory, ' \
	    "$WORK/t-auto/meta.json"
	ok $? "meta.json says why"
	rb sample --source kpageflags $P --region-size 256M --count 1 \
	    --out "$WORK/t-one" --quiet --scan-threads 1
	expect_rc 0 "sample with --scan-threads 1"
	cut -d, -f2- "$WORK/t-auto/samples.csv" >"$WORK/t-auto.rows"
	cut -d, -f2- "$WORK/t-one/samples.csv" >"$WORK/t-one.rows"
	cmp -s "$WORK/t-auto.rows" "$WORK/t-one.rows"
	ok $? "auto threads give the figures of one thread"
	if command -v taskset >/dev/null 2>&1; then
		taskset -c 0 "$REGIONBENCH" sample --source kpageflags $P \
		    --count 1 --out "$WORK/t-cpu0" --quiet >/dev/null 2>&1
		grep -q '"scan_threads": 1,' "$WORK/t-cpu0/meta.json"
		ok $? "auto keeps to the CPUs the process may use"
	fi
	# A run whose workload binds a thread to a core leaves one core less.
	if [ "$(nproc)" -ge 2 ]; then
		cat >"$WORK/bind.ini" <<'EOF'
[suite]
name = bindtest
description = one thread bound to a core
interval = 100ms

[phase pagetest]
workload = pagetest
size = 8M
threads = 1
cpu-bind = compact
hold = 0s
settle = 0s
EOF
		rb run "$WORK/bind.ini" --source kpageflags $P \
		    --scan-fraction 1 --out "$WORK/t-bind" --quiet
		expect_rc 0 "run with a bound workload"
		cores=$(sed -n 's/.*"scan_threads_why": "auto: 2 NUMA nodes with memory, \([0-9]*\) of \([0-9]*\) cores.*/\1 \2/p' \
		    "$WORK/t-bind/meta.json")
		[ -n "$cores" ] && [ "${cores% *}" -eq $((${cores#* } - 1)) ]
		ok $? "auto leaves the bound workload's core out ($cores)"
	fi
	rb sample --source kpageflags $P --scan-threads 0 --count 1
	expect_rc 2 "--scan-threads 0 is refused"
	expect_err "--scan-threads: .*'auto'" "and the message says what fits"

	# The cost of a sample is estimated before the first, on a machine
	# large enough (16 GiB, 4 Mi pages) that no scan fits in 1 ms.
	B="$WORK/big"
	mkdir -p "$B"
	"$MKTREE" "$B" big 16 || { echo "Bail out! kpf-mktree big failed"; exit 1; }
	PB="--proc $B/proc --sys $B/sys"
	rb info --source kpageflags $PB
	expect_rc 0 "info on the 16 GiB machine"
	expect_out "^scan estimate: +[0-9.e-]+ s per sample" \
	    "info prints the scan estimate"
	expect_out "4194304 pages at [0-9.]+ ns each, [12] scan threads?" \
	    "info says what the estimate rests on"
	rb sample --source kpageflags $PB --interval 1ms --count 1 \
	    --out "$WORK/sone"
	expect_rc 0 "one sample with an interval shorter than the scan"
	! grep -q 'longer than' "$WORK/err" "$WORK/sone/events.csv"
	ok $? "no warning for one sample: it has no interval to keep"
	rb sample --source kpageflags $PB --interval 1ms --count 2 \
	    --scan-rotation 1 --out "$WORK/sq" --quiet
	expect_rc 0 "sample --quiet with an interval shorter than the scan"
	! grep -q 'longer than' "$WORK/err"
	ok $? "--quiet silences the warning on stderr"
	grep -q '^0.000,warning,"kpageflags: a sample.s scan takes about' \
	    "$WORK/sq/events.csv"
	ok $? "--quiet: the warning is still an event in events.csv"
	rb sample --source kpageflags $PB --interval 1ms --count 2 \
	    --scan-rotation 1 --out "$WORK/s4"
	expect_rc 0 "sample with an interval shorter than the scan"
	[ "$(grep -c 'longer than the 0.001 s interval' "$WORK/err")" = 1 ]
	ok $? "one warning line on stderr"
	expect_err "use (--scan-threads [0-9]+ or )?(--scan-rotation [0-9]+, or )?a longer --interval" \
	    "the warning proposes settings"
	! grep -q -- '--scan-fraction' "$WORK/err"
	ok $? "it proposes no estimates"
	# Parts in rotation are proposed when some number of regions (32
	# here) fits the interval with the 10 % margin; a sanitized build on
	# a loaded machine may need more, and then only a longer interval
	# fits.  The estimate is printed to three digits.
	est=$(sed -n 's/.*scan takes about \([0-9.e+-]*\) s.*/\1/p' "$WORK/err")
	rot=$(sed -n 's/.*--scan-rotation \([0-9]*\),.*/\1/p' "$WORK/err")
	awk -v est="$est" -v rot="$rot" 'BEGIN {
		if (est == "") exit 1
		if (rot == "") exit !(est / 32 > 0.0009 * 0.99)
		exit !(rot >= 2 && rot <= 32 && est / rot <= 0.0009 * 1.01)
	}'
	ok $? "the proposed rotation fits, or none could (scan $est s, parts ${rot:-none})"
	rb sample --source kpageflags $PB --interval 1ms --count 1 \
	    --out "$WORK/s4a" --quiet
	expect_rc 0 "sample --interval 1ms with the automatic rotation"
	grep -q '"scan_rotation": [0-9]' "$WORK/s4a/meta.json" &&
	    grep -q '"scan_rotation_why": "auto: a full scan costs' \
	    "$WORK/s4a/meta.json"
	ok $? "meta.json says which rotation auto chose, and why"
	grep -q '^0.000,warning,"kpageflags: a sample.s scan takes about' \
	    "$WORK/s4/events.csv"
	ok $? "the warning is an event in events.csv"
	grep -q '"scan_estimate_s": *[0-9]' "$WORK/s4/meta.json"
	ok $? "meta.json keeps source.scan_estimate_s"
	rb sample --source kpageflags $PB --interval 1h --count 1 \
	    --out "$WORK/s5" --quiet
	expect_rc 0 "sample with a long interval"
	! grep -q 'longer than' "$WORK/err" "$WORK/s5/events.csv"
	ok $? "no warning when the scan fits in the interval"

	# --scan-fraction: node 0 and node 1 region 0 are wholly free.  A
	# full scan calls them empty; a sampled scan never does.
	rb sample --source kpageflags $PB --count 3 --interval 10ms \
	    --scan-fraction 0.05 --full-scan-every 5 --scan-seed 3 \
	    --out "$WORK/f" --quiet
	expect_rc 0 "sample with --scan-fraction 0.05"
	head -1 "$WORK/f/samples.csv" | grep -q ',uninit_pages,free_pages_lo,free_pages_hi,counted_at_s$'
	ok $? "samples.csv ends with the interval and counted_at_s columns"
	[ "$(grep -c ',0,0,Normal,.*,,,0\.000$' "$WORK/f/samples.csv")" = 1 ]
	ok $? "the first sample, a full scan, has no interval and is counted"
	[ "$(grep -c ',0,0,Normal,.*,[0-9][0-9]*,131072,$' "$WORK/f/samples.csv")" = 2 ]
	ok $? "the sampled scans give an interval and no count time"
	grep -q '"scan_seed": 3,' "$WORK/f/meta.json"
	ok $? "meta.json keeps the seed"
	rb analyze "$WORK/f"
	expect_rc 0 "analyze reads the interval columns"
	expect_out '^  n0r0 .* unproven$' \
	    "a free region of a sampled scan is unproven, not empty"
	expect_out '^  empty_regions +0 .* 2 +0 ' \
	    "empty only at the full scan: max 2, final 0"
	expect_out '^  unproven_regions +0 ' "unproven_regions is a metric"
	# A recording keeps the intervals: the replay writes the same rows.
	rb sample --source kpageflags $PB --count 2 --interval 10ms \
	    --scan-fraction 0.05 --full-scan-every 5 --scan-seed 3 \
	    --record "$WORK/f-rec" --out "$WORK/f-run" --quiet
	expect_rc 0 "record sampled scans"
	rb sample --replay "$WORK/f-rec" --out "$WORK/f-rep" --quiet
	expect_rc 0 "replay them"
	grep -q ',[0-9][0-9]*,131072,$' "$WORK/f-rep/samples.csv" &&
	    cmp -s "$WORK/f-run/samples.csv" "$WORK/f-rep/samples.csv"
	ok $? "the replay keeps the sampled scans' intervals"
	# An interval that does not hold its estimate is bad input.
	cp -R "$WORK/f" "$WORK/f-bad"
	sed 's/,[0-9]*,131072,$/,131073,131072,/' "$WORK/f/samples.csv" \
	    >"$WORK/f-bad/samples.csv"
	rb analyze "$WORK/f-bad"
	expect_rc 2 "analyze refuses an interval that misses free_pages"
	expect_err "samples.csv:[0-9]+: free_pages_lo and free_pages_hi" \
	    "naming file, line and the columns"
	rb sample --source kpageflags $PB --count 1 --scan-fraction 0
	expect_rc 2 "--scan-fraction 0 is refused"
	rb sample --source kpageflags $PB --count 1 --scan-fraction 1.5
	expect_rc 2 "--scan-fraction 1.5 is refused"
	# Exact counts by default: run and sample alike.
	printf '[suite]\nname = small\ndescription = one small pagetest\ninterval = 100ms\n\n[phase pagetest]\nworkload = pagetest\nsize = 4M\nthreads = 1\nhold = 0s\nsettle = 0s\n' >"$WORK/small.ini"
	rb run "$WORK/small.ini" --source kpageflags $PB --out "$WORK/r-def" \
	    --no-charts --quiet
	expect_rc 0 "run with the kpageflags source's run defaults"
	grep -q '"scan_fraction": 1.0' "$WORK/r-def/meta.json" &&
	    grep -q '"counts": "exact' "$WORK/r-def/meta.json"
	ok $? "run defaults to exact counts, in meta.json"
	rb run "$WORK/small.ini" --source kpageflags $PB --out "$WORK/r-hdr" \
	    --no-charts --scan-rotation 2
	expect_rc 0 "run --scan-rotation 2, not quiet"
	expect_err 'kpageflags: exact counts in rotation: .* 1 of 2 parts' \
	    "run's header says how it counts"
	! grep -q ',[0-9][0-9]*,[0-9][0-9]*,[0-9.]*$' "$WORK/r-def/samples.csv"
	ok $? "no row of run's default is an estimate"
	rb run "$WORK/small.ini" --source kpageflags $PB --out "$WORK/r-full" \
	    --no-charts --quiet --scan-fraction 1
	expect_rc 0 "run --scan-fraction 1"
	grep -q '"scan_fraction": 1.0,' "$WORK/r-full/meta.json"
	ok $? "the command line overrides run's default"
	grep -q '"scan_fraction": 1.0,' "$WORK/s/meta.json"
	ok $? "sample's default stays a full scan"

	# Exact in rotation: on a frozen machine, 3 parts and every region at
	# every sample give the same counts; only the count times differ.
	rb sample --source kpageflags $PB --count 7 --interval 10ms \
	    --scan-rotation 3 --out "$WORK/rot3" --quiet
	expect_rc 0 "sample --scan-rotation 3"
	rb sample --source kpageflags $PB --count 7 --interval 10ms \
	    --scan-rotation 1 --out "$WORK/rot1" --quiet
	expect_rc 0 "sample --scan-rotation 1"
	grep -q '"scan_rotation": 3,' "$WORK/rot3/meta.json" &&
	    grep -q '"counts": "exact in rotation"' "$WORK/rot3/meta.json" &&
	    grep -q '"rotated_scans": 6,' "$WORK/rot3/meta.json"
	ok $? "meta.json says 3 parts, 6 rotated scans after the first"
	cut -d, -f1-16 "$WORK/rot3/samples.csv" >"$WORK/rot3.cut"
	cut -d, -f1-16 "$WORK/rot1/samples.csv" | sed 's/^[0-9.]*,//' \
	    >"$WORK/rot1.cut"
	sed 's/^[0-9.]*,//' "$WORK/rot3.cut" | cmp -s - "$WORK/rot1.cut"
	ok $? "the rotated counts equal the counts of every region"
	awk -F, 'NR > 1 && $17 == "" { bad = 1 } NR > 1 && $17 + 0 > $1 + 0 {
	    bad = 1 } NR > 1 && $17 + 0 < $1 + 0 { old = 1 }
	    END { exit bad || !old }' "$WORK/rot3/samples.csv"
	ok $? "every row has counted_at_s, never after t_s, some before"
	awk -F, 'NR > 1 && $17 != $1 { bad = 1 } END { exit bad }' \
	    "$WORK/rot1/samples.csv"
	ok $? "with every region every sample, counted_at_s is t_s"
	rb analyze "$WORK/rot3"
	expect_rc 0 "analyze a rotated run"
	grep '^  empty_regions' "$WORK/out" >"$WORK/rot3.empty"
	expect_out "exact counts up to [0-9.]+ s old" \
	    "the data-quality line says how old the counts are"
	rb analyze "$WORK/rot1"
	grep '^  empty_regions' "$WORK/out" | cmp -s - "$WORK/rot3.empty"
	ok $? "empty_regions (twmean included) equal the full scans' truth"
	! grep -q 'unproven' "$WORK/rot3.empty"
	ok $? "no unproven regions"
	rb sample --source kpageflags $PB --count 1 --scan-rotation 0
	expect_rc 2 "--scan-rotation 0 is refused"
	expect_err "--scan-rotation" "naming the option"
fi

done_testing
