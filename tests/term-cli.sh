# run and sample on a terminal of 80x24 and 200x50, driven through tmux:
# no progress or table line is wider than the terminal (tmux joins wrapped
# lines back, so a line too long shows as one), and the sample table keeps
# its header and summary on the screen.
. "$top_srcdir/tests/cli-lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
SOCK="$WORK/tmux.sock"
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; rm -rf "$WORK"' EXIT

# on_terminal W H NAME COMMAND: run COMMAND in a W x H pane and wait (up to
# 120 s) until it has ended (its status is printed without a newline, so
# the screen does not scroll); the pane's text, wrapped lines joined, goes to
# $WORK/NAME.screen (the visible screen) and $WORK/NAME.all (with history).
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
	tmux -S "$SOCK" capture-pane -p -J -t "$3" >"$WORK/$3.screen"
	tmux -S "$SOCK" kill-session -t "$3"
	grep -q 'RB-END-0' "$WORK/$3.all"
}

# widest FILE PATTERN: the widest line matching PATTERN.
widest() {
	grep -E -- "$2" "$1" | awk '{ if (length($0) > w) w = length($0) }
	    END { print w + 0 }'
}

for size in 80x24 200x50; do
	w=${size%x*}
	h=${size#*x}
	on_terminal "$w" "$h" "run$w" "'$REGIONBENCH' run \
	    '$TESTDATA/runner/tiny.ini' --out '$WORK/run$w' --no-charts \
	    >/dev/null"
	ok $? "$size: run of a two-phase suite on a terminal"
	n=$(widest "$WORK/run$w.all" 'phase [0-9]+/[0-9]+ ')
	[ "$n" -gt 0 ] && [ "$n" -le "$w" ]
	ok $? "$size: the progress line fits ($n columns)"
	grep -q 'phase 2/2' "$WORK/run$w.all"
	ok $? "$size: the progress line shows the phase"
	grep -q 'settling' "$WORK/run$w.all"
	ok $? "$size: the progress line shows the phase settling"

	on_terminal "$w" "$h" "sample$w" "'$REGIONBENCH' sample --count 3 \
	    --interval 200ms"
	ok $? "$size: sample on a terminal"
	n=$(widest "$WORK/sample$w.screen" '^ *[0-9]+ +-?[0-9]+ ')
	[ "$n" -gt 0 ] && [ "$n" -le "$w" ]
	ok $? "$size: the table's rows fit ($n columns)"
	grep -q '^# t=.* sample 3 ' "$WORK/sample$w.screen" &&
	    grep -q '^node ' "$WORK/sample$w.screen"
	ok $? "$size: the screen shows the title and the header"
	grep -qE '^[0-9]+ regions: [0-9]+ active' "$WORK/sample$w.screen" ||
	    grep -qE '^[0-9]+/[0-9]+ regions shown' "$WORK/sample$w.screen"
	ok $? "$size: the screen shows the summary line"
	[ "$(grep -c . "$WORK/sample$w.screen")" -le "$h" ]
	ok $? "$size: the table fits the screen"
done

done_testing
