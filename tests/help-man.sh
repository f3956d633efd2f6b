#!/bin/sh
# Help, usage lines and the manual page agree with the program: every
# option a command's --help lists is in its usage line and in the manual
# page's section for it; every option the manual page names anywhere exists;
# help fits 80 columns when it is not on a terminal; the page renders
# without a groff warning.
. "${top_srcdir:-.}/tests/cli-lib.sh"

MAN="${top_builddir:-.}/docs/regionbench.1"
if [ ! -r "$MAN" ]; then
	echo "1..0 # SKIP no built manual page $MAN"
	exit 0
fi

commands=$("$REGIONBENCH" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
workloads=$("$REGIONBENCH" workload --help | sed -n '/^workloads:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
[ -n "$commands" ] && [ -n "$workloads" ]
ok $? "help lists the commands and the workloads"

# man_section TITLE: the source lines of the .SS section whose heading
# starts with TITLE, up to the next heading.
man_section() {
	awk -v t="$1" '
	    /^\.S[SH] / { on = index($0, ".SS \"" t) == 1 }
	    on' "$MAN"
}

# check_help NAME HELPFILE SECTION: each option in HELPFILE's lists is in
# its usage line and in the manual page where it belongs.
check_help() {
	name=$1 help=$2 own=$3
	usage=$(sed -n '1,/^$/p' "$help")
	long=$(awk 'length > 80' "$help")
	[ -z "$long" ]
	ok $? "$name: --help fits 80 columns"
	[ -z "$long" ] || diag "$long"
	missing_usage="" missing_man="" n=0
	group=""
	while IFS= read -r line; do
		case $line in
		"options:"|"output:") group=$own ;;
		"region source options:"|*" source options:")
			group="Region source options" ;;
		"options of every workload:") group="Options of every workload" ;;
		"options of "*":") group=${line#options of }; group=${group%:} ;;
		"  --"*)
			opt=$(printf '%s\n' "$line" | sed 's/^  \(--[a-z0-9-]*\).*/\1/')
			n=$((n + 1))
			case $group in
			"Region source options") ;;
			*) printf '%s\n' "$usage" | grep -q -- "$opt\b" ||
			    missing_usage="$missing_usage $opt" ;;
			esac
			esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
			man_section "$group" | grep -q -- "$esc" ||
			    missing_man="$missing_man $opt($group)"
			;;
		esac
	done <"$help"
	[ -z "$missing_usage" ]
	ok $? "$name: the usage line names all $n options"
	[ -z "$missing_usage" ] || diag "missing:$missing_usage"
	[ -z "$missing_man" ]
	ok $? "$name: the manual page describes every option"
	[ -z "$missing_man" ] || diag "missing:$missing_man"
}

: >"$WORK/all-options"
for c in $commands; do
	"$REGIONBENCH" "$c" --help >"$WORK/help" 2>&1 </dev/null
	# A command without options of its own has nothing to check but width.
	if grep -q '^  --' "$WORK/help" || [ "$c" = help ]; then
		check_help "$c" "$WORK/help" "$c"
	fi
	grep '^  --' "$WORK/help" >>"$WORK/all-options"
	man_section "$c" | grep -q . || man_section "$c " | grep -q .
	ok $? "$c: the manual page has a section"
done
for w in $workloads; do
	"$REGIONBENCH" workload "$w" --help >"$WORK/help" 2>&1 </dev/null
	check_help "workload $w" "$WORK/help" workload
	grep '^  --' "$WORK/help" >>"$WORK/all-options"
done

# Every option the page names, in prose too, is one the program has.
sed 's/^  \(--[a-z0-9-]*\).*/\1/' "$WORK/all-options" | sort -u >"$WORK/known"
sed -n 's/\\-\\-\([a-z][a-z0-9\\-]*\).*/&/p' "$MAN" |
    grep -o '\\-\\-[a-z][a-z0-9\\-]*' | sed 's/\\-/-/g' | sort -u >"$WORK/named"
unknown=$(comm -23 "$WORK/named" "$WORK/known" | grep -v -e '^--version$' \
    -e '^--help$' -e '^--man$')
[ -z "$unknown" ]
ok $? "every option the manual page names exists"
[ -z "$unknown" ] || diag "unknown: $unknown"

# The page itself: no marker left, no groff warning, the sections a user
# looks for.
grep -n '@[A-Z_]*[ @]' "$MAN" | grep -v '^[0-9]*:\.RB ( @ ),' >"$WORK/markers"
[ ! -s "$WORK/markers" ]
ok $? "no template marker is left in the page"
for s in ENVIRONMENT FILES "EXIT STATUS"; do
	grep -q "^\.SH \"*$s" "$MAN"
	ok $? "the page has $s"
done
for f in REGIONBENCH_DATADIR REGIONBENCH_SUITES summary.json report.html charts/; do
	grep -q -- "$f" "$MAN"
	ok $? "the page names $f"
done
if command -v groff >/dev/null 2>&1; then
	warnings=$(groff -man -ww -z "$MAN" 2>&1)
	[ -z "$warnings" ]
	ok $? "groff renders the page without a warning"
	[ -z "$warnings" ] || diag "$warnings"
fi

# A template with a mistyped marker is refused, naming the line.
printf '.TH X 1\n@OPTIONS nosuchcommand@\n' >"$WORK/bad.1.in"
rb help --man "$WORK/bad.1.in"
expect_rc 2 "help --man refuses an unknown marker"
expect_err "bad.1.in:2: unknown marker" "the message names the file and line"

echo "1..$TAP_N"
[ "$TAP_FAILED" -eq 0 ]
