#!/bin/sh
# regionbench report: one self-contained HTML file that validates with
# xmllint --html, escapes what it quotes from the run, embeds every chart
# as a well-formed SVG data: URI, links the CSVs relatively, compares
# groups, and refuses bad input without leaving a file behind.
. "${top_srcdir:-.}/tests/cli-lib.sh"
. "${top_srcdir:-.}/tests/analyze-lib.sh"

BASIC=$TESTDATA/charts/basic
command -v xmllint >/dev/null 2>&1 || skip_all "xmllint not installed"
command -v base64 >/dev/null 2>&1 || skip_all "base64 not installed"

# html_lint FILE: xmllint --html, which knows HTML 4 only: the HTML5
# <details> and <summary> the report collapses its dump in are read as
# the <div> and <p> they behave like.
html_lint() {
	sed 's/<details>/<div>/g; s/<\/details>/<\/div>/g;
	    s/<summary>/<p>/g; s/<\/summary>/<\/p>/g' "$1" >"$1.lint"
	xmllint --html --noout "$1.lint"
}

rb report "$BASIC" --out "$WORK/r.html"
expect_rc 0 "report of the basic run"
expect_out "r.html" "the path written is printed"
html_lint "$WORK/r.html" >"$WORK/xml" 2>&1
[ $? -eq 0 ] && [ ! -s "$WORK/xml" ]
ok $? "the report is valid HTML for xmllint (no errors, no warnings)"
[ -s "$WORK/xml" ] && diag "$(head -20 "$WORK/xml")"
grep -q '&lt;patched &amp; &quot;quoted&quot;&gt;' "$WORK/r.html"
ok $? "the label is escaped"
# The answer first: the headline figures before the charts and the run's
# facts, in the terminal's units; the full dump collapsed at the end.
awk '/<h3>Headline figures/ { h = NR } /<img/ && !i { i = NR }
    /<h3>The run/ { r = NR } /<details><summary>Every summary metric/ { d = NR }
    END { exit !(h && i && r && d && h < i && i < r && r < d) }' "$WORK/r.html"
ok $? "report: headline figures, then charts, then the run, then every metric collapsed"
grep -q '<tr><td>spread_index</td><td class="n">[0-9]\.[0-9]\{4\}</td>' "$WORK/r.html" &&
    grep -q '<td>empty_bytes</td>.*<td>MiB</td>' "$WORK/r.html" &&
    ! grep -q '[0-9]e[+-][0-9]' "$WORK/r.html"
ok $? "report: the terminal's numbers (MiB, four decimals), no scientific notation"
grep -q '<patched' "$WORK/r.html"
[ $? -ne 0 ]
ok $? "the raw label appears nowhere"
n=$(grep -o 'src="data:image/svg+xml;base64,' "$WORK/r.html" | wc -l)
[ "$n" -eq 5 ]
ok $? "five charts embedded ($n)"
grep -Eq '(src|href)="(https?:)?//' "$WORK/r.html"
[ $? -ne 0 ]
ok $? "nothing is fetched from the network"
grep -q '<script' "$WORK/r.html"
[ $? -ne 0 ]
ok $? "no scripts"

# Every embedded SVG is well-formed.
i=0 bad=0
grep -o 'base64,[A-Za-z0-9+/=]*' "$WORK/r.html" | sed 's/^base64,//' |
while read -r b; do
	i=$((i + 1))
	printf '%s' "$b" | base64 -d >"$WORK/chart$i.svg" &&
	    xmllint --noout "$WORK/chart$i.svg" || echo bad >>"$WORK/badsvg"
done
[ ! -e "$WORK/badsvg" ]
ok $? "every embedded SVG decodes and is well-formed"

# Links are relative and lead to the files.
missing=0
for href in $(grep -o 'href="[^"]*"' "$WORK/r.html" | sed 's/^href="//; s/"$//'); do
	case $href in
	/*|*:*) missing=1 ;;
	*) [ -f "$WORK/$href" ] || missing=1 ;;
	esac
done
[ "$missing" -eq 0 ]
ok $? "every link is relative and resolves"
grep -q 'href="[^"]*samples.csv"' "$WORK/r.html"
ok $? "samples.csv is linked"

# Default place: DIR/report.html for one run.
cp -r "$BASIC" "$WORK/copy"
rb report "$WORK/copy"
expect_rc 0 "report into the default place"
[ -f "$WORK/copy/report.html" ] && grep -q 'href="samples.csv"' \
    "$WORK/copy/report.html"
ok $? "DIR/report.html links its CSVs by name"

# A run made in a guest whose kernel reported a bug says so.
mkdir -p "$WORK/boot"
cp -r "$BASIC" "$WORK/boot/run"
python3 -c '
import json, sys
p = sys.argv[1] + "/meta.json"
d = json.load(open(p))
d["guest"] = {"kernel": {"sha256": "k1"}}
json.dump(d, open(p, "w"))' "$WORK/boot/run"
echo '{"guest": {"kernel": {"sha256": "k1"}}, "kernel_report": "BUG: Bad page state <pfn:1234>"}' \
    >"$WORK/boot/vm.json"
rb report "$WORK/boot/run" --out "$WORK/boot.html"
expect_rc 0 "report of a run made in a guest"
grep -q 'the guest kernel reported a bug: <code>BUG: Bad page state &lt;pfn:1234&gt;</code>' \
    "$WORK/boot.html" && html_lint "$WORK/boot.html"
ok $? "its data quality names the kernel's report"
rb analyze "$WORK/boot/run"
expect_out "^  the guest kernel reported a bug: BUG: Bad page state <pfn:1234> \\(its boot's vm-dmesg.log has the rest\\)$" \
    "analyze names it under the title"
rb analyze "$WORK/boot/run" --format markdown
expect_out '^\*\*The guest kernel reported a bug:\*\* `BUG: Bad page state <pfn:1234>`' \
    "and in markdown"

# Groups: a comparison section with the compare chart and the table.
mkgroup "$WORK/vanilla" vanilla h1 "4 3 4" "100 101 99"
mkgroup "$WORK/patched" patched h1 "1 0 1" "100 100 100"
rb report "$WORK/vanilla" "$WORK/patched" --out "$WORK/g.html"
expect_rc 0 "report of two groups"
html_lint "$WORK/g.html" >"$WORK/xml" 2>&1
[ $? -eq 0 ] && [ ! -s "$WORK/xml" ]
ok $? "the group report is valid HTML"
grep -q '<h2>Comparison</h2>' "$WORK/g.html" &&
    grep -q 'vanilla (baseline)' "$WORK/g.html" &&
    grep -q 'spread_index.twmean' "$WORK/g.html"
ok $? "comparison table with the baseline and spread_index"
grep -q 'class="n sig"' "$WORK/g.html"
ok $? "the significant change is marked"
n=$(grep -c '<h2>Run ' "$WORK/g.html")
[ "$n" -eq 6 ]
ok $? "a section per run ($n)"

# --group-by label: boot directories as ab leaves them (one run each,
# sides interleaved) become one group per side, as compare makes them.
for i in 1 2 3; do
	mkrun "$WORK/ab/vanilla-$i/run" vanilla h1 4 100
	mkrun "$WORK/ab/patched-$i/run" patched h1 1 100
done
rb report "$WORK"/ab/vanilla-1/run "$WORK"/ab/patched-1/run \
    "$WORK"/ab/vanilla-2/run "$WORK"/ab/patched-2/run \
    "$WORK"/ab/vanilla-3/run "$WORK"/ab/patched-3/run \
    --group-by label --out "$WORK/ab.html"
expect_rc 0 "report --group-by label of six boots"
grep -q 'from 6 runs in 2 groups' "$WORK/ab.html" &&
    grep -q 'vanilla (baseline)' "$WORK/ab.html" &&
    html_lint "$WORK/ab.html" 2>/dev/null
ok $? "two groups, by label, the first label the baseline"
rb report "$WORK"/ab/*/run --out "$WORK/ab-dir.html"
grep -q 'from 6 runs in 6 groups' "$WORK/ab-dir.html"
ok $? "without it, a group per directory"
rb chart "$WORK/ab/vanilla-1/run" --compare "$WORK/ab/patched-1/run" \
    --compare "$WORK/ab/vanilla-2/run" --compare "$WORK/ab/patched-2/run" \
    --group-by label --format svg --out "$WORK/abc"
expect_rc 0 "chart --compare --group-by label"
# The same runs copied into a directory per label, charted by directory:
# the same chart (cairo numbers its surfaces per process).
for side in vanilla patched; do
	mkdir -p "$WORK/bylabel/$side"
	cp -r "$WORK/ab/$side-1/run" "$WORK/bylabel/$side/1"
	cp -r "$WORK/ab/$side-2/run" "$WORK/bylabel/$side/2"
done
rb chart "$WORK/bylabel/vanilla" --compare "$WORK/bylabel/patched" \
    --format svg --out "$WORK/bylabelc"
cmp -s "$WORK/bylabelc/compare.svg" "$WORK/abc/compare.svg" ||
    [ "$(sed 's/surface[0-9]*/surface/g' "$WORK/bylabelc/compare.svg")" = \
    "$(sed 's/surface[0-9]*/surface/g' "$WORK/abc/compare.svg")" ]
ok $? "its compare chart is the one of the runs gathered by label"
rb chart "$WORK/ab/vanilla-1/run" --group-by label --out "$WORK/abn"
expect_rc 2 "chart --group-by without --compare"
expect_err "--group-by groups the runs of --compare" "says what is missing"
[ ! -e "$WORK/abn" ]
ok $? "and writes nothing"

# A workload name that is not UTF-8 is drawn and quoted as '?'.
cp -r "$BASIC" "$WORK/u8"
printf '19.500,release,bad\377\376name,1,0,1,100\n' >>"$WORK/u8/placement.csv"
rb chart "$WORK/u8" --out "$WORK/u8c"
expect_rc 0 "chart with a name that is not UTF-8"
xmllint --noout "$WORK/u8c/placement.svg"
ok $? "its placement.svg is well-formed"
rb report "$WORK/u8" --out "$WORK/u8.html"
expect_rc 0 "report with a name that is not UTF-8"
html_lint "$WORK/u8.html" >"$WORK/xml" 2>&1
[ $? -eq 0 ] && [ ! -s "$WORK/xml" ] && grep -q 'bad??name' "$WORK/u8.html"
ok $? "the report stays valid, the bad bytes shown as ?"

# Bad input: exit 2, no file; unwritable output: exit 3.
rb report "$WORK/nonexistent" --out "$WORK/bad.html"
expect_rc 2 "a missing directory is exit 2"
[ ! -e "$WORK/bad.html" ]
ok $? "no report for bad input"
rb report "$BASIC" --out "$WORK/no/such/dir/r.html"
expect_rc 3 "an unwritable output is exit 3"
rb report
expect_rc 2 "no directory is exit 2"

done_testing
