#!/bin/sh
# The results database under concurrency and against hostile databases:
# concurrent stores never lose a run (SQLite, and PostgreSQL when Debian's
# postgresql package is installed), a run named twice is stored once,
# names that keep nothing are refused, a crafted database (any column
# NULL) cannot crash compare or gate, a database owned by another user is
# read with a warning, and no password reaches a message.
. "$top_srcdir/tests/cli-lib.sh"

FX="$FIXTURES/6.18"
cd "$WORK" || exit 1

# Eight runs with ids of their own, and one damaged run.
for i in 1 2 3 4 5 6 7 8; do
	"$REGIONBENCH" sample --proc "$FX" --count 2 --interval 100ms \
	    --label c --out "$WORK/runs/$i" >/dev/null 2>&1 ||
	    { echo "Bail out! sample failed"; exit 1; }
done
cp -r "$WORK/runs/1" "$WORK/bad"
sed -i 's/"run_id": "[^"]*"/"run_id": "bad-run"/' "$WORK/bad/meta.json"
printf '0.500,sample,0,0,DMA,x\n' >>"$WORK/bad/samples.csv"

# stored URL: how many runs labelled c the database holds ("" if none).
stored() {
	"$REGIONBENCH" compare --db "$1" 'db:label=c' 2>/dev/null |
	    sed -n 's/^ *db:label=c: \([0-9]*\) runs\{0,1\}.*/\1/p' | head -n 1
}

# concurrent NAME URL: the eight runs stored at once by eight processes,
# and two stores of the damaged run among them; every good store exits 0
# and all eight runs are there.
concurrent() {
	n=$1 url=$2
	pids=""
	for i in 1 2 3 4 5 6 7 8; do
		"$REGIONBENCH" store "$WORK/runs/$i" --db "$url" \
		    >"$WORK/c-$i.out" 2>"$WORK/c-$i.err" </dev/null &
		pids="$pids $!"
		if [ $i -eq 2 ] || [ $i -eq 5 ]; then
			"$REGIONBENCH" store "$WORK/bad" --db "$url" \
			    >/dev/null 2>&1 </dev/null &
		fi
	done
	bad=0
	for p in $pids; do
		wait "$p" || bad=$((bad + 1))
	done
	wait
	ok $bad "$n: eight concurrent stores all exit 0 ($bad did not)"
	[ $bad -eq 0 ] || diag "$(cat "$WORK"/c-*.err)"
	got=$(stored "$url")
	[ "$got" = 8 ]
	ok $? "$n: and all eight runs are stored ($got)"
}

# SQLite: a new file each time (the creation race), then an existing one.
for t in 1 2 3; do
	concurrent "sqlite, new file, trial $t" "sqlite:$WORK/new-$t.db"
done
concurrent "sqlite, existing file" "sqlite:$WORK/new-1.db"

# A run named several times is one run.
rb store "$WORK/runs/1" "$WORK/runs/1" "$WORK/runs/1" --db "sqlite:$WORK/once.db"
expect_rc 0 "store r1 r1 r1"
expect_out "^stored 1 run in" "says it stored one run"
expect_err "named twice" "and warns about the repeats"

# Overlapping selections count each run once; no run is on both sides.
rb compare --db "sqlite:$WORK/new-1.db" --group-by label 'db:label=c' \
    'db:label=c,last=2'
expect_rc 0 "compare overlapping selections"
expect_out "^ *c: 8 runs" "each run counted once (8 runs, not 10)"
expect_err "same run as .*counted once" "with a warning naming the repeats"
rb gate --db "sqlite:$WORK/new-1.db" --unit run --allow-unjudged \
    --baseline 'db:label=c' --candidate 'db:label=c,last=2'
expect_rc 2 "a gate with runs on both sides is refused"
expect_err "is both baseline .* and candidate" "the message names the run"

# Names that keep nothing.
for name in ':memory:' '' 'file:x.db?mode=memory' 'file::memory:'; do
	rb store "$WORK/runs/1" --db "sqlite:$name"
	expect_rc 2 "--db sqlite:$name is refused"
done
rb store "$WORK/runs/1" --db "sqlite::memory:"
expect_err "keeps nothing" "the message says why"

# A crafted database: every column of runs but its key, in turn, NULL (and
# NOT NULL dropped from the schema), and the summary's columns NULL.
if command -v python3 >/dev/null 2>&1; then
	rb store "$WORK/runs/1" "$WORK/runs/2" "$WORK/runs/3" \
	    --db "sqlite:$WORK/base.db"
	python3 - "$WORK/base.db" "$WORK/crafted" <<'EOF'
import sqlite3, sys
src = sqlite3.connect(sys.argv[1])
tables = [(n, s) for n, s in src.execute(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table'")]
cols = [r[1] for r in src.execute("PRAGMA table_info(runs)")]
def make(path, edit):
    d = sqlite3.connect(path)
    for n, s in tables:
        d.execute(s.replace("NOT NULL", ""))
        rows = src.execute("SELECT * FROM " + n).fetchall()
        if rows:
            d.executemany("INSERT INTO %s VALUES (%s)" % (n, ",".join("?" * len(rows[0]))), rows)
    edit(d)
    d.commit()
for c in cols:
    if c != "run_id":
        make("%s-runs-%s.db" % (sys.argv[2], c),
             lambda d, c=c: d.execute("UPDATE runs SET %s = NULL" % c))
for c in ("phase", "metric", "value", "unit", "headline"):
    make("%s-summary-%s.db" % (sys.argv[2], c),
         lambda d, c=c: d.execute("UPDATE summary_metrics SET %s = NULL" % c))
make(sys.argv[2] + "-phases.db",
     lambda d: d.execute("UPDATE phases SET phase = NULL"))
EOF
	crashed=""
	for db in "$WORK"/crafted-*.db; do
		rb compare --db "sqlite:$db" --unit run 'db:run=*' 'db:status=*'
		[ $RC -lt 128 ] || crashed="$crashed compare:${db##*/}:$RC"
		rb gate --db "sqlite:$db" --unit run --allow-unjudged \
		    --baseline 'db:run=*' --candidate 'db:status=*,label=*'
		[ $RC -lt 128 ] || crashed="$crashed gate:${db##*/}:$RC"
	done
	[ -z "$crashed" ]
	ok $? "no NULL column crashes compare or gate$crashed"
	rb compare --db "sqlite:$WORK/crafted-runs-host.db" --unit run 'db:run=*'
	expect_rc 0 "a run without host compares"
fi

# A database owned by another user is read with a warning.
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	cp "$WORK/once.db" "$WORK/theirs.db"
	chown nobody "$WORK/theirs.db"
	rb compare --db "sqlite:$WORK/theirs.db" 'db:label=c'
	expect_rc 0 "a database owned by nobody is read"
	expect_err "owned by uid $(id -u nobody), not by this user" \
	    "with a warning naming its owner"
	rb compare --db "sqlite:$WORK/once.db" 'db:label=c'
	! grep -q "owned by" "$WORK/err"
	ok $? "and no warning for one's own"
fi

# Passwords never reach a message, however the URL spells them.
for url in 'postgresql:///x?host=/nonexistent&pass%77ord=s3cret' \
    'postgresql://ci:s3cret@/x?host=/nonexistent' \
    'postgresql:///x?host=/nonexistent&password=s3cret&sslmode=bogus' \
    'postgresql://ci:s3cret@[::1/x' \
    'postgresql:///x?host=/nonexistent&password=s3%ZZcret' \
    'postgresql:///x?pass%77ord=s3cret&nosuchkey=s3cret' \
    'mysql://ci@db/x?pass%77ord=s3cret&PASSWORD=s3cret'; do
	rb store "$WORK/runs/1" --db "$url"
	! grep -q s3cret "$WORK/err"
	ok $? "no password in the message for $url"
	[ $RC -eq 2 ] || [ $RC -eq 3 ]
	ok $? "and a clear exit (2 or 3, was $RC)"
done

# PostgreSQL: a cluster of our own, as an unprivileged user when root.
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
	diag "PostgreSQL checks skipped: no postgresql package"
	done_testing
	exit $?
fi
PG="$WORK/pg"
mkdir -p "$PG/sock"
as_pg=""
if [ "$(id -u)" -eq 0 ]; then
	id nobody >/dev/null 2>&1 || { diag "no user nobody"; done_testing; exit $?; }
	chmod a+x "$WORK"
	chown -R nobody "$PG"
	as_pg="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
fi
$as_pg "$PGBIN/initdb" -D "$PG/data" -A trust -U regionbench \
    >"$PG/initdb.log" 2>&1
ok $? "initdb a temporary cluster"
trap '$as_pg "$PGBIN/pg_ctl" -D "$PG/data" -m immediate stop >/dev/null 2>&1; rm -rf "$WORK"' EXIT
$as_pg "$PGBIN/pg_ctl" -D "$PG/data" -l "$PG/log" -w -t 120 \
    -o "-k $PG/sock -h ''" start >/dev/null 2>&1
ok $? "start it on a Unix socket only"
ready() { "$PGBIN/pg_isready" -h "$PG/sock" -U regionbench -q; }
wait_for "PostgreSQL to accept connections" ready
ok $? "it accepts connections"
for db in one two; do
	"$PGBIN/psql" -h "$PG/sock" -U regionbench -d postgres -qc \
	    "CREATE DATABASE $db" >/dev/null 2>&1
done
pgurl="postgresql:///one?host=$PG/sock&user=regionbench"
concurrent "postgresql, empty database" "$pgurl"

# The same run from two jobs at once.
pgurl2="postgresql:///two?host=$PG/sock&user=regionbench"
pids=""
for j in 1 2 3 4; do
	"$REGIONBENCH" store "$WORK/runs/1" --db "$pgurl2" \
	    >/dev/null 2>"$WORK/same-$j.err" </dev/null &
	pids="$pids $!"
done
bad=0
for p in $pids; do
	wait "$p" || bad=$((bad + 1))
done
ok $bad "postgresql: the same run stored by four jobs at once, all exit 0"
[ $bad -eq 0 ] || diag "$(cat "$WORK"/same-*.err)"
got=$(stored "$pgurl2")
[ "$got" = 1 ]
ok $? "and it is one run ($got)"

# What messages show of a URL is rebuilt from libpq's parse.
rb store "$WORK/runs/1" --db "$pgurl2&pass%77ord=s3cret"
expect_rc 0 "store with a percent-encoded password key"
expect_out "password=\\*\\*\\*" "the URL shown masks it"
! grep -q s3cret "$WORK/out" "$WORK/err"
ok $? "and shows it nowhere"

$as_pg "$PGBIN/pg_ctl" -D "$PG/data" -m fast -w stop >/dev/null 2>&1
done_testing
