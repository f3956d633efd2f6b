# The tables of run, analyze, compare and list on a terminal of 80x24
# (and analyze at 50 columns), driven through tmux: no line is wider than
# the terminal (tmux joins wrapped lines back, so a line too long shows as
# one), nothing is left out but reductions the narrow layout says it left
# out, and a pipe still gets the full table.
. "$top_srcdir/tests/cli-lib.sh"
. "$top_srcdir/tests/analyze-lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
SOCK="$WORK/tmux.sock"
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; rm -rf "$WORK"' EXIT

# on_terminal W H NAME COMMAND: run COMMAND in a W x H pane and wait (up to
# 120 s) until it has ended; the pane's text with its history, wrapped
# lines joined, goes to $WORK/NAME.all.
on_terminal() {
	tmux -S "$SOCK" -f /dev/null new-session -d -s "$3" -x "$1" -y "$2" \
	    "$4; printf RB-END-%s \$?; exec sleep 600" || return 1
	i=0
	while [ $i -lt 1200 ]; do
		tmux -S "$SOCK" capture-pane -p -J -S - -t "$3" >"$WORK/$3.all"
		grep -q 'RB-END-' "$WORK/$3.all" && break
		sleep 0.1
		i=$((i + 1))
	done
	tmux -S "$SOCK" kill-session -t "$3"
	grep -q 'RB-END-0' "$WORK/$3.all"
}

# widest FILE: the widest line in columns (the arrows are one column).
widest() {
	sed 's/↑/^/g; s/↓/v/g' "$1" | awk '{ if (length($0) > w)
	    w = length($0) } END { print w + 0 }'
}

# fits FILE WIDTH WHAT: one test, no line of FILE is wider than WIDTH.
fits() {
	n=$(widest "$1")
	[ "$n" -gt 0 ] && [ "$n" -le "$2" ]
	ok $? "$3: every line fits $2 columns (widest $n)"
}

# run: the progress line, the warnings and the table at the end.
on_terminal 80 24 run "'$REGIONBENCH' run '$TESTDATA/runner/tiny.ini' \
    --out '$WORK/run' --no-charts"
ok $? "run on a terminal of 80x24"
fits "$WORK/run.all" 80 "run"
grep -qE '^  spread_index +[0-9]' "$WORK/run.all" &&
    grep -qE '^  metric ' "$WORK/run.all"
ok $? "run: the table has its header and the spread index"

# analyze: the full table of a run, at 80 and at 50 columns.
cp -r "$TESTDATA/analyze/basic" "$WORK/basic"
on_terminal 80 24 analyze "'$REGIONBENCH' analyze '$WORK/basic'"
ok $? "analyze on a terminal of 80x24"
fits "$WORK/analyze.all" 80 "analyze"
grep -qE '^  metric +min +mean +max +final +twmean unit$' "$WORK/analyze.all"
ok $? "analyze at 80 columns: every reduction, columns as wide as needed"
grep -qE '^  n0r4 +0x1b58-0x1f40 +0\.0 +0\.0 +0\.0000  hole$' \
    "$WORK/analyze.all"
ok $? "analyze at 80 columns: the region list with its pfn ranges"
on_terminal 50 24 analyze50 "'$REGIONBENCH' analyze '$WORK/basic'"
ok $? "analyze on a terminal of 50x24"
fits "$WORK/analyze50.all" 50 "analyze at 50 columns"
grep -q '^phase fill (not shown: min, max, final)$' "$WORK/analyze50.all" &&
    grep -qE '^  workload\.pagetest\.throughput +150 +ops/s$' \
    "$WORK/analyze50.all"
ok $? "analyze at 50 columns: says which reductions it left out"
grep -qE '^  n0r4 +0\.0 +0\.0 +0\.0000  hole$' "$WORK/analyze50.all"
ok $? "analyze at 50 columns: the region list without pfn ranges"
rb analyze "$WORK/basic"
expect_out '^  metric {26,}min {7}mean {8}max {6}final {5}twmean  unit$' \
    "analyze into a pipe: the full table"

# compare: two groups, then three with every statistic.
mkgroup "$WORK/vanilla" vanilla h1 "3 4 3" "1000 1010 990"
mkgroup "$WORK/patched" patched h1 "0 0 1" "1000 1005 995"
mkgroup "$WORK/third" third h1 "0 1 1" "1000 1005 995"
on_terminal 80 24 compare "'$REGIONBENCH' compare '$WORK/vanilla' \
    '$WORK/patched'"
ok $? "compare on a terminal of 80x24"
fits "$WORK/compare.all" 80 "compare"
grep -qE '^Amean +spread_index\.twmean +ratio +↓ +1\.8333 \( +0\.00%\) +1\.0833 \* -40\.91%\*$' \
    "$WORK/compare.all"
ok $? "compare at 80 columns: a metric and both groups on one line"
on_terminal 80 24 compare3 "'$REGIONBENCH' compare '$WORK/vanilla' \
    '$WORK/patched' '$WORK/third' --all"
ok $? "compare --all of three groups on a terminal of 80x24"
fits "$WORK/compare3.all" 80 "compare --all of three groups"
grep -qE '^spread_index\.twmean \(ratio\) ↓$' "$WORK/compare3.all" &&
    grep -qE '^  p-value +0\.003126 ' "$WORK/compare3.all"
ok $? "compare at 80 columns: each metric's name above its statistics"
rb compare "$WORK/vanilla" "$WORK/patched"
expect_out '^Amean   spread_index\.twmean {26}ratio    ↓ ' \
    "compare into a pipe: the full table"

# list: the summaries wrapped under their column.
on_terminal 80 24 list "'$REGIONBENCH' list"
ok $? "list on a terminal of 80x24"
fits "$WORK/list.all" 80 "list"
grep -qE '^ {25}[a-z]' "$WORK/list.all"
ok $? "list at 80 columns: a long summary goes on under its column"
rb list
expect_out "^pagetest +yes +allocate .*\(the seed's test\)$" \
    "list into a pipe: one line per workload"

done_testing
