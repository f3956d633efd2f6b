#!/bin/sh
# Every regionbench command the documentation quotes in a code block (the
# README, docs/*.md, results/README.md and the manual page's EXAMPLES)
# runs here as written: in a scratch directory that looks like the source
# tree (./bench/regionbench, bench/suites/, tests/fixtures/), one directory per document so
# that a later command finds what an earlier one wrote.  The suites it runs
# are small ones of the same names, so the commands are the documents' own
# but take seconds.  A quoted command is not run, and the test says why,
# when it is a template (DIR, IMAGE, [...]), boots a kernel (vm and ab have
# tests/vm-*.sh), offlines memory (vacate without --dry-run), or runs until
# interrupted; the rest of its block is then
# skipped too, since it may depend on it.  Exit status 0 is expected, and
# for gate also 1 (a verdict) or 2 when the runs missed too many samples
# (a busy machine) for the data-quality limits.
. "$top_srcdir/tests/cli-lib.sh"

MAN="${top_builddir:-.}/docs/regionbench.1"

# extract FILE: "LINE<tab>BLOCK<tab>COMMAND" for each command quoted in a
# code block of a markdown file; continued lines are joined.  In a block
# where some lines carry a "$ " or "# " prompt, only those are commands
# (the others are what they print).
extract_md() {
	awk '
	function flush_block(   i) {
		for (i = 1; i <= n; i++)
			if (!prompted || pr[i])
				printf "%d\t%d\t%s\n", ln[i], block, cmd[i]
		n = 0; prompted = 0; block++
	}
	function take(text, lineno,   p) {
		p = 0
		if (text ~ /^[$#] /) { text = substr(text, 3); p = 1 }
		if (text !~ /^(\.\/bench\/)?regionbench [a-z][a-z-]*( |$)/)
			return
		n++; cmd[n] = text; ln[n] = lineno; pr[n] = p
		if (p) prompted = 1
		while (cmd[n] ~ /\\$/ && (getline more) > 0) {
			sub(/\\$/, "", cmd[n]); sub(/^[ \t]+/, "", more)
			cmd[n] = cmd[n] more
		}
	}
	BEGIN { block = 1 }
	/^[ \t]*```/ { if (fence) flush_block(); fence = !fence; next }
	fence { t = $0; sub(/^[ \t]+/, "", t); take(t, NR); next }
	/^    / { t = $0; sub(/^[ \t]+/, "", t); take(t, NR); inblock = 1; next }
	{ if (inblock) flush_block(); inblock = 0 }
	END { flush_block() }' "$1"
}

# extract_man: the commands of the manual page's EXAMPLES, one block.
extract_man() {
	awk '/^\.SH / { on = ($2 == "EXAMPLES"); next }
	    on && /^regionbench / { print NR "\t1\t" $0 }' "$MAN" |
	    sed 's/\\-/-/g; s/[ \t]*#.*$//'
}

# why_not COMMAND: why a quoted command is not run here, or nothing.
why_not() {
	# shellcheck disable=SC2086 # words as the shell would split them
	set -- $1
	shift
	case $1 in
	vm|ab) echo "boots a kernel in QEMU (tests/vm-*.sh run those)"; return ;;
	vacate)
		case " $* " in
		*" --dry-run "*) ;;
		*) echo "offlines memory (tests/vm-vacate.sh, in a guest)"; return ;;
		esac ;;
	esac
	case " $* " in
	*" --references on "*)
		echo "starts a DAMON kdamond (tests/vm-damon.sh, in a guest)"
		return ;;
	esac
	case "$*" in
	*postgresql://*|*postgres://*)
		echo "needs a PostgreSQL server (tests/store-cli.sh starts one)"
		return ;;
	esac
	for w in "$@"; do
		case $w in
		*...*|\[*|*\]|~*|*'<'*) echo "a template ($w)"; return ;;
		esac
		if printf '%s' "$w" | grep -qE '^[A-Z][A-Z0-9_]*[0-9]?$'; then
			echo "a template ($w)"
			return
		fi
	done
	if [ "$1" = sample ]; then
		case " $* " in
		*" --count "*|*" --duration "*|*" --replay "*) ;;
		*) echo "samples until interrupted"; return ;;
		esac
	fi
}

# A tree like the source tree, with small suites of the built-in names.
mktree() {
	mkdir -p "$1/bench/suites" || return 1
	ln -s "$REGIONBENCH" "$1/bench/regionbench"
	mkdir -p "$1/tests" && ln -s "$top_srcdir/tests/fixtures" "$1/tests/fixtures"
	for s in quick seed standard soak; do
		cat >"$1/bench/suites/$s.ini" <<-EOF
		; $s, small: the documentation test runs it in seconds
		[suite]
		name = $s
		interval = 200ms

		[phase pagetest]
		workload = pagetest
		size = 16M
		threads = 1
		checkpoints = 0%,100%
		settle = 0s
		EOF
	done
}

mkdir -p "$WORK/bin"
ln -s "$REGIONBENCH" "$WORK/bin/regionbench"
ran=0 skipped=0
for doc in "$top_srcdir/README.md" "$top_srcdir"/docs/*.md \
    "$top_srcdir/results/README.md" man; do
	if [ "$doc" = man ]; then
		[ -r "$MAN" ] || continue
		name="regionbench.1"
		extract_man >"$WORK/cmds"
	else
		name=${doc#"$top_srcdir"/}
		# Its shell blocks make files as well: tests/ci-example.sh
		# runs them whole, as a script.
		[ "$name" = docs/ci.md ] && continue
		extract_md "$doc" >"$WORK/cmds"
	fi
	[ -s "$WORK/cmds" ] || continue
	dir="$WORK/run/$(printf '%s' "$name" | tr '/.' '__')"
	mktree "$dir" || { echo "Bail out! cannot make $dir"; exit 1; }
	skip_block=""
	while IFS="$(printf '\t')" read -r line block cmd; do
		if [ "$block" = "$skip_block" ]; then
			diag "$name:$line: not run (after a command not run): $cmd"
			skipped=$((skipped + 1))
			continue
		fi
		why=$(why_not "$cmd")
		if [ -n "$why" ]; then
			diag "$name:$line: not run, $why: $cmd"
			skip_block=$block
			skipped=$((skipped + 1))
			continue
		fi
		(cd "$dir" && PATH="$WORK/bin:$PATH" \
		    REGIONBENCH_SUITES="$dir/bench/suites" \
		    timeout -k 10 300 sh -c "$cmd") \
		    >"$WORK/out" 2>"$WORK/err" </dev/null
		RC=$?
		ran=$((ran + 1))
		# gate: a verdict (0, 1), or no verdict because runs this few
		# and this noisy cannot decide (inconclusive) or, on a busy
		# machine, because of the samples it missed (data quality).
		case "$cmd" in
		*" gate "*) [ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || { [ "$RC" -eq 2 ] &&
		    grep -qi 'data quality\|data_quality\|^inconclusive: ' \
		    "$WORK/out" "$WORK/err"; } ;;
		*) [ "$RC" -eq 0 ] ;;
		esac
		st=$?
		ok $st "$name:$line: $cmd (exit $RC)"
		[ $st -eq 0 ] || diag "stdout:" "$(tail -5 "$WORK/out")" \
		    "stderr:" "$(tail -10 "$WORK/err")"
	done <"$WORK/cmds"
done
[ "$ran" -gt 0 ]
ok $? "the documents quote commands that run here ($ran run, $skipped not)"

echo "1..$TAP_N"
[ "$TAP_FAILED" -eq 0 ]
