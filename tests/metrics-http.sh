# HTTP helpers for the metrics tests, sourced after cli-lib.sh: bash's
# /dev/tcp speaks HTTP/1.0 to a loopback port, so the tests need no HTTP
# client of their own.

# http_get PORT PATH: write the response to $WORK/http (headers, blank
# line, body), its status code to $WORK/http-status; fails when nothing
# answers.
http_get() {
	bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
	    printf "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n" "$2" >&3
	    cat <&3' _ "$1" "$2" >"$WORK/http" 2>/dev/null || return 1
	sed -n '1s/^HTTP\/[0-9.]* \([0-9]*\).*/\1/p' "$WORK/http" \
	    >"$WORK/http-status"
	[ -s "$WORK/http-status" ]
}

# http_body: the body of the last response.
http_body() {
	sed '1,/^\r*$/d' "$WORK/http"
}

# http_ok PORT PATH: PATH answers 200 (for wait_for).
http_ok() {
	http_get "$1" "$2" && [ "$(cat "$WORK/http-status")" = 200 ]
}

# listen_port FILE: the port of the "metrics: http://..." line in FILE.
listen_port() {
	sed -n 's/^metrics: http:\/\/.*:\([0-9]*\)\/metrics$/\1/p' "$1"
}
