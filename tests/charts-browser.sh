#!/bin/sh
# The report in a real browser, where chromium is installed (it is not by
# default; CI stays light): headless chromium opens the file from disk,
# takes a screenshot (a PNG of the requested size showing the heatmap's
# colours) and dumps
# the DOM (the five charts are there), with no console or load errors on
# its log.  Skipped with a TAP SKIP line when no chromium is installed.
. "${top_srcdir:-.}/tests/cli-lib.sh"

BROWSER=""
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then
		BROWSER=$b
		break
	fi
done
[ -n "$BROWSER" ] || skip_all "no chromium installed"

rb report "$TESTDATA/charts/basic" --out "$WORK/r.html"
expect_rc 0 "report written"

# Chromium needs a writable home and no sandbox when run as root.
export HOME="$WORK"
run_browser() {
	timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu \
	    --no-first-run --disable-extensions --hide-scrollbars \
	    --user-data-dir="$WORK/profile" --enable-logging=stderr --v=0 \
	    "$@" "file://$WORK/r.html" 2>>"$WORK/browser.err"
}

run_browser --window-size=1200,2400 --screenshot="$WORK/shot.png" \
    >/dev/null
[ -s "$WORK/shot.png" ] &&
    [ "$(head -c 8 "$WORK/shot.png" | od -An -tx1 | tr -d ' \n')" = \
    89504e470d0a1a0a ]
ok $? "the browser took a PNG screenshot"
size=$(od -An -tu1 -j16 -N8 "$WORK/shot.png" | tr -s ' ' |
    awk '{ printf "%d %d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }')
[ "$size" = "1200 2400" ]
ok $? "the screenshot is 1200x2400 ($size)"
# A page with rendered charts compresses far worse than a blank one.
[ "$(wc -c <"$WORK/shot.png")" -gt 40000 ]
ok $? "the screenshot shows content ($(wc -c <"$WORK/shot.png") bytes)"

# The heatmap's full and empty colours (viridis ends) are on the screen:
# the embedded charts decoded and rendered.
count="${top_builddir:-.}/tests/chart-png-count"
full=$("$count" "$WORK/shot.png" fde725)
empty=$("$count" "$WORK/shot.png" 440154)
[ "${full:-0}" -gt 2000 ] && [ "${empty:-0}" -gt 2000 ]
ok $? "the heatmap is rendered (full $full px, empty $empty px)"

run_browser --dump-dom >"$WORK/dom.html"
n=$(grep -o '<img class="chart"' "$WORK/dom.html" | wc -l)
[ "$n" -eq 5 ]
ok $? "the browser's DOM holds the five charts ($n)"
grep -Ei 'CONSOLE|Uncaught|Failed to load|net::ERR' "$WORK/browser.err" \
    >"$WORK/console"
[ ! -s "$WORK/console" ]
ok $? "no console or load errors"
[ -s "$WORK/console" ] && diag "$(head -20 "$WORK/console")"

done_testing
