# sample --openmetrics and --listen from the command line: option errors,
# the .prom file on every fixture set with and without --out (checked by
# promtool when it is installed), and the /metrics endpoint: 404 for other
# paths, a port in use, and whole pages under scrapes during sampling.
. "$top_srcdir/tests/cli-lib.sh"
. "$top_srcdir/tests/metrics-http.sh"

command -v bash >/dev/null 2>&1 || skip_all "bash is needed for /dev/tcp"
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$WORK"' EXIT
promtool=$(command -v promtool)

# promtool_ok FILE DESCRIPTION: promtool finds nothing wrong in FILE.
promtool_ok() {
	if [ -z "$promtool" ]; then
		TAP_N=$((TAP_N + 1))
		echo "ok $TAP_N # SKIP promtool not installed: $2"
		return
	fi
	"$promtool" check metrics <"$1" >"$WORK/promtool" 2>&1
	st=$?
	[ $st -eq 0 ] && [ ! -s "$WORK/promtool" ]
	st=$?
	ok $st "$2"
	[ $st -eq 0 ] || diag "$(cat "$WORK/promtool")"
}

fx="$FIXTURES/6.18"

# Option errors exit 2 before anything is written.
rb sample --proc "$fx" --count 1 --openmetrics "$WORK/m.txt" --out "$WORK/r1"
expect_rc 2 "--openmetrics needs a .prom name"
expect_err "must end in \.prom" "and says so"
[ ! -e "$WORK/r1" ]
ok $? "no results directory is left by the refusal"
rb sample --proc "$fx" --count 1 --openmetrics "$WORK/none/m.prom"
expect_rc 2 "--openmetrics into a missing directory"
expect_err "none: No such file" "names the directory"
# A directory not writable is found before sampling (root writes
# anywhere: as root, the run is made as nobody when nobody can reach it).
mkdir "$WORK/ro" && chmod 555 "$WORK/ro"
asuser=""
if [ "$(id -u)" -eq 0 ]; then
	chmod 711 "$WORK"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    "$REGIONBENCH" help >/dev/null 2>&1 &&
	    asuser="setpriv --reuid=nobody --regid=nogroup --clear-groups"
fi
if [ "$(id -u)" -ne 0 ] || [ -n "$asuser" ]; then
	$asuser "$REGIONBENCH" sample --proc "$fx" --count 1 \
	    --openmetrics "$WORK/ro/m.prom" >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	expect_rc 3 "--openmetrics into a directory not writable"
	expect_err "ro/m.prom: cannot create" "names the file"
else
	TAP_N=$((TAP_N + 2))
	echo "ok $((TAP_N - 1)) # SKIP root writes anywhere, nobody cannot run $REGIONBENCH"
	echo "ok $TAP_N # SKIP root writes anywhere, nobody cannot run $REGIONBENCH"
fi
rb sample --proc "$fx" --count 1 --listen-any
expect_rc 2 "--listen-any without --listen"
rb sample --proc "$fx" --count 1 --listen 127.0.0.1
expect_rc 2 "--listen without a port"
expect_err "expected ADDRESS:PORT" "says what it expects"
rb sample --proc "$fx" --count 1 --listen 127.0.0.1:70000
expect_rc 2 "--listen with a port beyond 65535"
rb sample --proc "$fx" --count 1 --listen 0.0.0.0:0 --out "$WORK/r2"
expect_rc 2 "--listen beyond loopback without --listen-any"
expect_err "not a loopback address.*--listen-any" "says how to allow it"
[ ! -e "$WORK/r2" ]
ok $? "no results directory is left by the refusal"
rb sample --proc "$fx" --count 1 --listen 192.0.2.1:9464 --listen-any
expect_rc 2 "--listen-any on an address this machine does not have"
expect_err "not an address of this machine" "says so"
rb sample --proc "$fx" --count 1 --listen 'no.such.host.invalid:9464'
expect_rc 2 "--listen with a name that does not resolve"

# The .prom file on every fixture set, with and without --out.
for set in "$FIXTURES"/*/; do
	name=$(basename "$set")
	prom="$WORK/$name.prom"
	rb sample --count 2 --interval 10ms --proc "$set" --out "$WORK/fx-$name" \
	    --openmetrics "$prom" --quiet
	expect_rc 0 "$name: sample --out --openmetrics"
	grep -q '^regionbench_samples_total{source="[a-z-]*"} 2$' "$prom"
	ok $? "$name: the file holds the last sample"
	keys=$(($(wc -l <"$WORK/fx-$name/regions.csv") - 1))
	lines=$(grep -c '^regionbench_region_free_bytes{' "$prom")
	[ "$keys" -eq "$lines" ]
	ok $? "$name: one free_bytes line per region key ($lines, $keys keys)"
	promtool_ok "$prom" "$name: promtool check metrics"
done
ls -A "$WORK" | grep -q '\.tmp\.'
[ $? -ne 0 ]
ok $? "no temporary file is left beside the .prom files"

# The kpageflags source knows the classes of used pages: the synthetic
# machine of tests/kpf-tree.h, sampled without root.
T="$WORK/tree"
mkdir -p "$T"
if "$top_builddir/tests/kpf-mktree" "$T" all; then
	rb sample --source kpageflags --proc "$T/proc" --sys "$T/sys" \
	    --region-size 256M --count 1 --out "$WORK/kpf" \
	    --openmetrics "$WORK/kpf.prom"
	expect_rc 0 "sample --source kpageflags --openmetrics"
	for c in anon file slab pagetable other; do
		grep -q "^regionbench_region_used_bytes{node=\"[0-9]*\",region=\"[0-9]*\",zone=\"[A-Za-z0-9]*\",source=\"kpageflags\",class=\"$c\"} [0-9][0-9]*\$" "$WORK/kpf.prom"
		ok $? "kpageflags: used bytes of class $c"
	done
	keys=$(($(wc -l <"$WORK/kpf/regions.csv") - 1))
	lines=$(grep -c '^regionbench_region_used_bytes{' "$WORK/kpf.prom")
	[ "$lines" -eq $((keys * 5)) ]
	ok $? "kpageflags: five classes per region key ($lines lines, $keys keys)"
	promtool_ok "$WORK/kpf.prom" "kpageflags: promtool check metrics"
else
	ok 1 "kpf-mktree wrote the synthetic machine"
fi

rb sample --count 1 --proc "$fx" --openmetrics "$WORK/alone.prom"
expect_rc 0 "--openmetrics without --out"
[ ! -s "$WORK/out" ]
ok $? "into a pipe, stdout gets no rows unless --format asks"
grep -q '^regionbench_empty_regions{source="zone"} 0$' "$WORK/alone.prom"
ok $? "empty_regions of the 6.18 fixture (every zone in use)"
rb sample --count 1 --proc "$fx" --openmetrics "$WORK/alone.prom" --format csv
expect_out '^t_s,phase,node,region,zone' "--format csv still gets the rows"

# The endpoint: a port in use, 404 elsewhere, whole pages while sampling.
"$REGIONBENCH" sample --proc "$fx" --interval 20ms --listen 127.0.0.1:0 \
    >/dev/null 2>"$WORK/listen.err" </dev/null &
pid=$!
pids="$pids $pid"
wait_for "the endpoint's address" has_line "$WORK/listen.err" '^metrics: '
port=$(listen_port "$WORK/listen.err")
[ -n "$port" ]
ok $? "sample --listen 127.0.0.1:0 says where it listens (port $port)"
wait_for "a page on /metrics" http_ok "$port" /metrics
ok $? "/metrics answers 200"
grep -qi '^content-type: text/plain; version=0.0.4' "$WORK/http"
ok $? "in the text exposition format 0.0.4"
http_body >"$WORK/scrape.prom"
promtool_ok "$WORK/scrape.prom" "promtool check metrics on a scrape"
http_get "$port" /other
[ "$(cat "$WORK/http-status")" = 404 ]
ok $? "another path is 404"
rb sample --proc "$fx" --count 1 --listen "127.0.0.1:$port"
expect_rc 3 "--listen on a port in use"
expect_err "port is in use" "says the port is in use"

# Every scrape is one whole page, however it falls against the sampler.
want=$(grep -c . "$WORK/scrape.prom")
bad=0
i=0
while [ $i -lt 40 ]; do
	http_get "$port" /metrics || bad=$((bad + 1))
	n=$(http_body | grep -c .)
	last=$(http_body | tail -n 1)
	case "$last" in
	regionbench_sampler_overruns_total*) ;;
	*) bad=$((bad + 1)) ;;
	esac
	[ "$n" -eq "$want" ] || bad=$((bad + 1))
	i=$((i + 1))
done
[ $bad -eq 0 ]
ok $? "40 scrapes during 20ms sampling: every page whole ($bad bad)"
kill -INT $pid
wait $pid
ok $? "SIGINT ends an unlimited --listen run with exit 0"
pids=""

done_testing
