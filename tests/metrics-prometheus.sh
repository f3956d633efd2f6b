# A real Prometheus scrapes sample --listen: Prometheus on a free loopback
# port with its storage in the test's directory and a 1 s scrape interval,
# regionbench sampling a fixture tree (no root needed).  The test waits,
# by polling Prometheus's HTTP API, for two scrapes of the endpoint and
# then queries regionbench_empty_regions.  Everything started is stopped
# on exit.
. "$top_srcdir/tests/cli-lib.sh"
. "$top_srcdir/tests/metrics-http.sh"

prometheus=$(command -v prometheus) ||
    skip_all "prometheus not installed (apt-get install prometheus)"
command -v bash >/dev/null 2>&1 || skip_all "bash is needed for /dev/tcp"
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$WORK"' EXIT

# The endpoint, on a port the kernel picks.
"$REGIONBENCH" sample --proc "$FIXTURES/6.18" --interval 200ms \
    --listen 127.0.0.1:0 >/dev/null 2>"$WORK/sample.err" </dev/null &
sample_pid=$!
pids="$sample_pid"
wait_for "the endpoint's address" has_line "$WORK/sample.err" '^metrics: '
port=$(listen_port "$WORK/sample.err")
[ -n "$port" ]
ok $? "sample --listen says where it listens (port $port)"

# alive PID: the process runs (a zombie not yet waited for does not).
alive() {
	kill -0 "$1" 2>/dev/null && ! ps -o stat= -p "$1" | grep -q Z
}

# started PORT: Prometheus answers ready on PORT, or has exited (the
# caller then tries another port).
started() {
	http_ok "$1" /-/ready || ! alive "$prom_pid"
}

# Prometheus cannot be told to pick a port and say which: try random
# high ports until one is free.
mkdir "$WORK/data"
tries=0
prom_port=""
while [ $tries -lt 10 ] && [ -z "$prom_port" ]; do
	tries=$((tries + 1))
	p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
	cat >"$WORK/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: regionbench
    static_configs:
      - targets: ['127.0.0.1:$port']
EOC
	"$prometheus" --config.file="$WORK/prometheus.yml" \
	    --storage.tsdb.path="$WORK/data" \
	    --web.listen-address="127.0.0.1:$p" --log.level=warn \
	    >"$WORK/prometheus.log" 2>&1 </dev/null &
	prom_pid=$!
	pids="$pids $prom_pid"
	wait_for "Prometheus to start on port $p" started "$p"
	if alive "$prom_pid"; then
		prom_port=$p
	else
		wait "$prom_pid" 2>/dev/null
	fi
done
[ -n "$prom_port" ]
ok $? "Prometheus ready on 127.0.0.1:$prom_port"
[ -n "$prom_port" ] || { diag "$(tail -n 20 "$WORK/prometheus.log")"; done_testing; exit; }

# scraped_twice: Prometheus holds two samples of the metric.
scraped_twice() {
	http_get "$prom_port" '/api/v1/query?query=count_over_time%28regionbench_empty_regions%5B5m%5D%29' &&
	    http_body | grep -q '"value":\[[0-9.]*,"\([2-9]\|[1-9][0-9][0-9]*\)"\]'
}
wait_for "two scrapes of the endpoint" scraped_twice
ok $? "Prometheus scraped the endpoint twice"

http_get "$prom_port" '/api/v1/query?query=regionbench_empty_regions'
http_body >"$WORK/query.json"
grep -q '"status":"success"' "$WORK/query.json" &&
    grep -q '"__name__":"regionbench_empty_regions"' "$WORK/query.json" &&
    grep -q '"source":"zone"' "$WORK/query.json" &&
    grep -q '"value":\[[0-9.]*,"0"\]' "$WORK/query.json"
st=$?
ok $st "query regionbench_empty_regions: 0 on the 6.18 fixture, source zone"
[ $st -eq 0 ] || diag "$(cat "$WORK/query.json")"

http_get "$prom_port" '/api/v1/query?query=up%7Bjob%3D%22regionbench%22%7D'
http_body | grep -q '"value":\[[0-9.]*,"1"\]'
ok $? "the target is up"

http_get "$prom_port" '/api/v1/query?query=sum%28regionbench_region_free_bytes%29'
http_body | grep -q '"value":\[[0-9.]*,"[1-9][0-9.e+]*"\]'
ok $? "free bytes summed over the region keys"

kill -INT "$sample_pid"
wait "$sample_pid"
ok $? "sample --listen ends with exit 0 on SIGINT"
kill "$prom_pid"
wait "$prom_pid" 2>/dev/null
pids=""

done_testing
