#!/bin/sh
# /metrics against slow clients (slowloris): 64 clients on loopback that
# send one header byte a second never hold the endpoint for longer than a
# request may take, and clients of another address never take the slots
# of the scraper's.  The clients are bounded: 64 of them, 30 s at most,
# on 127.0.0.1 and 127.0.0.2 only.
. "$top_srcdir/tests/cli-lib.sh"
. "$top_srcdir/tests/metrics-http.sh"

command -v python3 >/dev/null 2>&1 || skip_all "no python3"
cd "$WORK" || exit 1

"$REGIONBENCH" sample --proc "$FIXTURES/6.18" --interval 100ms \
    --listen 127.0.0.1:0 >/dev/null 2>"$WORK/listen.err" </dev/null &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null
if [ "$TAP_FAILED" -gt 0 ]; then echo "# work directory kept: $WORK"; else rm -rf "$WORK"; fi' EXIT
wait_for "the endpoint's address" has_line "$WORK/listen.err" '^metrics: '
port=$(listen_port "$WORK/listen.err")
wait_for "a page on /metrics" http_ok "$port" /metrics
ok $? "/metrics answers"

# slowloris SOURCE: 64 slow clients from SOURCE for at most 30 s, and
# scrapes from 127.0.0.1 meanwhile; prints the seconds from the attack's
# start to the first whole scrape, or "none" when no scrape got through
# while the clients trickled.
slowloris() {
	python3 - "$port" "$1" <<'EOF'
import socket, sys, time

port, source = int(sys.argv[1]), sys.argv[2]
clients = []
for i in range(64):
    s = socket.socket()
    s.settimeout(2)
    try:
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        clients.append(s)
    except OSError:
        s.close()

def scrape():
    s = socket.socket()
    s.settimeout(2)
    try:
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        return data.startswith(b"HTTP/1.") and b" 200 " in data[:20]
    except OSError:
        return False
    finally:
        s.close()

start = time.monotonic()
got = None
next_byte = start
while time.monotonic() - start < 30:
    if time.monotonic() >= next_byte:
        for s in clients:
            try:
                s.sendall(b"X")
            except OSError:
                pass
        next_byte += 1
    if scrape():
        got = time.monotonic() - start
        break
    time.sleep(0.2)
for s in clients:
    s.close()
print("none" if got is None else "%.1f" % got)
EOF
}

t=$(slowloris 127.0.0.1)
[ "$t" != none ]
ok $? "64 slow clients on the scraper's own address: a scrape gets through while they trickle (after $t s)"
t=$(slowloris 127.0.0.2)
[ "$t" != none ]
ok $? "64 slow clients on another address: a scrape gets through (after $t s)"
wait_for "the endpoint to recover" http_ok "$port" /metrics
ok $? "and /metrics answers after them"

done_testing
