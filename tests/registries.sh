# Each registry lists what is built (docs/architecture.md section 9): every
# workload, region source, chart and command defined in a source file is
# one the program offers, so a file added without its registry line fails
# here.  The definitions are found in the sources, the offers in the
# program's own listings.
. "$top_srcdir/tests/cli-lib.sh"

# defined KIND FILES...: the names of the KIND definitions in FILES, one a
# line ("const struct KIND PREFIXname = {" with its .name field).
defined() {
	kind=$1
	shift
	awk -v kind="$kind" '
		$0 ~ "^const struct " kind " [a-z_]+ = \\{" { inside = 1 }
		inside && /\.name = "/ {
			sub(/.*\.name = "/, ""); sub(/".*/, ""); print
			inside = 0
		}' "$@"
}

# offered NAME LIST DESCRIPTION: NAME is a word of the listing LIST.
offered() {
	grep -qE "^ *$1( |\$)" "$2"
	ok $? "$3"
}

# Workloads: `list` shows every workload_desc of workloads/.
rb list
expect_rc 0 "list"
cp "$WORK/out" "$WORK/workloads"
n=0
for w in $(defined workload_desc "$top_srcdir"/workloads/*.c); do
	offered "$w" "$WORK/workloads" "workload $w is in the registry"
	n=$((n + 1))
done
[ "$n" -ge 4 ]
ok $? "the workload definitions were found ($n)"

# Region sources: --help of sample lists every source_ops of lib/.
rb sample --help
expect_rc 0 "sample --help"
sed -n '/^region sources/,/^$/p' "$WORK/out" >"$WORK/sources"
n=0
for s in $(defined source_ops "$top_srcdir"/lib/src-*.c); do
	offered "$s" "$WORK/sources" "region source $s is in the registry"
	n=$((n + 1))
done
[ "$n" -ge 4 ]
ok $? "the source definitions were found ($n)"

# Commands: help lists every command_entry of bench/.
rb help
expect_rc 0 "help"
cp "$WORK/out" "$WORK/commands"
n=0
for c in $(defined command_entry "$top_srcdir"/bench/*.c); do
	offered "$c" "$WORK/commands" "command $c is in the registry"
	n=$((n + 1))
done
[ "$n" -ge 13 ]
ok $? "the command definitions were found ($n)"

# Charts: chart draws every chart_def of analyze/ on a run that has data
# for all of them (compare with --compare).
rb chart "$TESTDATA/analyze/basic" --compare "$TESTDATA/charts/basic" \
    --format svg --out "$WORK/charts"
expect_rc 0 "chart with --compare"
n=0
for c in $(defined chart_def "$top_srcdir"/analyze/chart-*.c); do
	[ -s "$WORK/charts/$c.svg" ]
	ok $? "chart $c is in the registry (drawn as $c.svg)"
	n=$((n + 1))
done
[ "$n" -ge 6 ]
ok $? "the chart definitions were found ($n)"

done_testing
