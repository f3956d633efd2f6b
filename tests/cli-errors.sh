# Usage errors: one line on stderr saying what is wrong, the likely
# intended name when one is close ("did you mean compare?"), and where
# to look next ("see 'regionbench CMD --help'"); exit 2.  A gate rule
# whose metric matches nothing gets the closest metric name.
. "$top_srcdir/tests/cli-lib.sh"
. "$top_srcdir/tests/analyze-lib.sh"

# one_line DESCRIPTION: the last run's stderr is a single line.
one_line() {
	[ "$(wc -l <"$WORK/err")" -eq 1 ]
	ok $? "$1: one line on stderr"
	[ ! -s "$WORK/out" ]
	ok $? "$1: nothing on stdout"
}

rb compre
expect_rc 2 "a mistyped command"
expect_err "^regionbench: error: unknown command 'compre' \(did you mean compare\?\); see 'regionbench --help'$" \
    "suggests the command meant"
one_line "a mistyped command"
rb comapre
expect_err "did you mean compare\?" "two letters swapped count as one edit"
rb frobnicate
expect_rc 2 "an unknown command"
expect_err "^regionbench: error: unknown command 'frobnicate'; see 'regionbench --help' for the commands$" \
    "no suggestion when no command is close"
one_line "an unknown command"

for cmd in analyze chart compare report store verify; do
	rb "$cmd"
	expect_rc 2 "$cmd without its directory"
	expect_err "^regionbench: error: $cmd: .*director.*; see 'regionbench $cmd --help'$" \
	    "$cmd: says what is missing and where to look"
	one_line "$cmd without its directory"
done

rb analyze --formt json "$WORK"
expect_rc 2 "a mistyped option"
expect_err "^regionbench: error: analyze: unknown option --formt \(did you mean --format\?\); see 'regionbench analyze --help'$" \
    "suggests the option meant"
one_line "a mistyped option"
rb workload pagtest
expect_rc 2 "a mistyped workload"
expect_err "unknown workload 'pagtest' \(did you mean pagetest\?\); see 'regionbench list'" \
    "suggests the workload meant"
rb workload pagetest --sise 1M
expect_err "unknown option --sise \(did you mean --size\?\); see 'regionbench workload pagetest --help'" \
    "suggests the workload's option meant"
one_line "a workload's mistyped option"

rb gate --baseline a b c
expect_rc 2 "gate without --candidate"
expect_err "^regionbench: error: gate: --candidate DIR\.\.\. is missing \(the 3 directories after --baseline are all the baseline\); see 'regionbench gate --help'$" \
    "gate names the option missing and where the directories went"
one_line "gate without --candidate"
rb gate --candidate a
expect_err "gate: --baseline DIR\.\.\. is missing" "gate without --baseline"

mkgroup "$WORK/vanilla" vanilla h1 "3 4 3" "1000 1010 990"
mkgroup "$WORK/patched" patched h1 "0 0 1" "1000 1005 995"
printf '[spread]\nmetric = spread_indx.twmean\nbetter = lower\nmax_change = 5%%\n' \
    >"$WORK/rules.ini"
rb gate --baseline "$WORK/vanilla" --candidate "$WORK/patched" \
    --rules "$WORK/rules.ini"
expect_rc 2 "a rule matching no metric is not judged"
expect_out "metric spread_indx\.twmean, phase \*, unit \*\); did you mean spread_index\.twmean\?" \
    "a rule's mistyped metric gets the closest name"

done_testing
