#!/bin/sh
# regionbench store and db: selections against real databases: SQLite
# always, PostgreSQL when Debian's postgresql package is installed (a
# cluster of its own in a temporary directory, on a Unix socket, started and
# stopped here).  Loading is idempotent and all-or-nothing, incomplete runs
# are refused, compare and gate read selections, and bad URLs, selectors,
# servers and schemas are clear errors that write nothing.
. "$top_srcdir/tests/cli-lib.sh"

FX="$FIXTURES/6.18"
cd "$WORK" || exit 1

# Runs to store: three labelled a, three labelled b, from a fixture tree.
for l in a b; do
	for i in 1 2 3; do
		"$REGIONBENCH" sample --proc "$FX" --count 3 --interval 100ms \
		    --label $l --out "$WORK/runs/$l/$i" >/dev/null 2>&1 ||
		    { echo "Bail out! sample failed"; exit 1; }
	done
done

# Runs made in guests, as regionbench vm leaves them (each in its boot's
# directory beside vm.json), labelled g; the kernel of g-2 reported a bug.
for i in 1 2 3; do
	mkdir -p "$WORK/guest/g-$i"
	cp -r "$WORK/runs/b/$i" "$WORK/guest/g-$i/run"
	python3 -c '
import json, sys
p = sys.argv[1] + "/meta.json"
d = json.load(open(p))
d["label"] = "g"
d["run_id"] = d["run_id"] + "-g"
d["guest"] = {"kernel": {"sha256": "k1"}}
json.dump(d, open(p, "w"))' "$WORK/guest/g-$i/run"
	echo '{"guest": {"kernel": {"sha256": "k1"}}}' >"$WORK/guest/g-$i/vm.json"
done
echo '{"guest": {"kernel": {"sha256": "k1"}}, "kernel_report": "BUG: Bad page state in process x"}' \
    >"$WORK/guest/g-2/vm.json"

# check_engine NAME URL: the same checks against one database.
check_engine() {
	e=$1 url=$2

	rb store "$WORK/runs" --db "$url"
	expect_rc 0 "$e: store a directory of runs"
	expect_out "stored 6 runs" "$e: every run below it is stored"
	rb compare --db "$url" --unit run 'db:label=a' 'db:label=b'
	expect_rc 0 "$e: compare two selections"
	expect_out "db:label=a: 3 runs" "$e: the first selects the a runs"
	expect_out "db:label=b: 3 runs" "$e: the second the b runs"
	grep '^Amean *spread_index' "$WORK/out" >"$WORK/db-line"
	rb compare --unit run "$WORK/runs/a" "$WORK/runs/b"
	grep '^Amean *spread_index' "$WORK/out" >"$WORK/dir-line"
	[ -s "$WORK/db-line" ] && cmp -s "$WORK/db-line" "$WORK/dir-line"
	ok $? "$e: stored runs compare as their directories do"

	rb store "$WORK/runs/a" --db "$url"
	expect_out "stored 3 runs .*3 already there" "$e: storing again replaces"
	rb compare --db "$url" 'db:label=a' 'db:label=b'
	expect_out "db:label=a: 3 runs" "$e: a run stored twice is one run"

	rb compare --db "$url" 'db:label=a,last=2' 'db:label=b'
	expect_out "db:label=a,last=2: 2 runs" "$e: last=N keeps the N latest"

	# Sample runs have no workload rates: that rule gets no verdict.
	rb gate --db "$url" --unit run --allow-unjudged \
	    --baseline 'db:label=a' --candidate 'db:label=b'
	expect_rc 0 "$e: gate judges selections"
	grep -c '^pass: ' "$WORK/out" >"$WORK/db-pass"
	rb gate --unit run --allow-unjudged --baseline "$WORK/runs/a" \
	    --candidate "$WORK/runs/b"
	grep -c '^pass: ' "$WORK/out" >"$WORK/dir-pass"
	cmp -s "$WORK/db-pass" "$WORK/dir-pass"
	ok $? "$e: as it judges their directories"

	# The kernel's report travels with the stored runs.
	rb store "$WORK/guest" --db "$url"
	expect_rc 0 "$e: store runs made in guests"
	rb gate --db "$url" --unit run --allow-unjudged \
	    --baseline 'db:label=a' --candidate 'db:label=g'
	expect_rc 1 "$e: gate on stored guest runs, one of whose kernels reported a bug"
	expect_out "^FAIL: guest kernel: the candidate's kernel reported a bug in 1 of 3 runs made in guests \\(\"BUG: Bad page state in process x\" in db:run=" \
	    "$e: as on their directories"

	# All or nothing: a damaged run in the batch stores none of it.
	rm -rf "$WORK/batch"
	mkdir -p "$WORK/batch"
	cp -r "$WORK/runs/a/1" "$WORK/batch/good"
	cp -r "$WORK/runs/a/2" "$WORK/batch/bad"
	sed -i 's/"label": "a"/"label": "c"/; s/"run_id": "[^"]*"/"run_id": "c-'"$e"'-good"/' \
	    "$WORK/batch/good/meta.json"
	sed -i 's/"label": "a"/"label": "c"/; s/"run_id": "[^"]*"/"run_id": "c-'"$e"'-bad"/' \
	    "$WORK/batch/bad/meta.json"
	printf '0.500,sample,0,0,DMA,x\n' >>"$WORK/batch/bad/samples.csv"
	rb store "$WORK/batch" --db "$url"
	expect_rc 2 "$e: a damaged run is bad input"
	expect_err "samples.csv:[0-9]+" "$e: the message names the file and line"
	rb compare --db "$url" 'db:label=c'
	expect_rc 2 "$e: and nothing of its batch was stored"
	expect_err "no stored run matches" "$e: (the selection is empty)"

	# Incomplete runs only with --partial; selections skip them.
	rm -rf "$WORK/batch/bad"
	sed -i 's/"status": "complete"/"status": "interrupted"/' \
	    "$WORK/batch/good/meta.json"
	rb store "$WORK/batch" --db "$url"
	expect_rc 2 "$e: an interrupted run is refused"
	expect_err "not complete.*--partial" "$e: the message says --partial"
	rb store "$WORK/batch" --db "$url" --partial
	expect_rc 0 "$e: --partial stores it"
	rb compare --db "$url" 'db:label=c'
	expect_rc 2 "$e: selections take complete runs by default"
	rb compare --db "$url" 'db:label=c,status=interrupted'
	expect_rc 0 "$e: status= selects the others"

	# Selectors are parsed strictly and never reach SQL.
	for bad in "db:kernel=x';DROP TABLE runs;--" 'db:colour=red' \
	    'db:last=0' 'db:label=a,label=b' 'db:label=' 'db:suite quick'; do
		rb compare --db "$url" "$bad"
		expect_rc 2 "$e: selector $bad is refused"
	done
	rb compare --db "$url" 'db:label=a'
	expect_rc 0 "$e: the database is intact after them"
}

check_engine sqlite "sqlite:$WORK/r.db"

# A tree with an interrupted run: the complete ones are stored, the other
# skipped with a warning and counted; --strict stores none.
mkdir -p "$WORK/mixed"
for i in 1 2 3; do
	cp -r "$WORK/runs/a/$i" "$WORK/mixed/r$i"
	sed -i 's/"label": "a"/"label": "m"/; s/"run_id": "\([^"]*\)"/"run_id": "m-\1"/' \
	    "$WORK/mixed/r$i/meta.json"
done
sed -i 's/"status": "complete"/"status": "interrupted"/' \
    "$WORK/mixed/r2/meta.json"
rb store "$WORK/mixed/" --db "sqlite:$WORK/m.db" --strict
expect_rc 2 "--strict: an interrupted run stores none"
expect_err "mixed/r2: status interrupted, not complete" "--strict names the run"
rb store "$WORK/mixed/" --db "sqlite:$WORK/m.db"
expect_rc 0 "a tree with an interrupted run stores the complete ones"
expect_err "^regionbench: warning: store: skipped $WORK/mixed/r2: status interrupted, not complete \(--partial stores it\)$" \
    "one warning for the run skipped, its path without a double slash"
[ "$(grep -c 'skipped' "$WORK/err")" -eq 1 ]
ok $? "one warning, for the one run skipped"
expect_out "^stored 2 runs in sqlite:$WORK/m\.db \(0 already there, replaced\); skipped 1 that did not complete$" \
    "the summary line counts what was stored and skipped"
rb compare --db "sqlite:$WORK/m.db" 'db:label=m'
expect_out "db:label=m: 2 runs" "the two complete runs are stored"
rb store "$WORK/mixed/r2" --db "sqlite:$WORK/m.db"
expect_rc 2 "nothing to store but an interrupted run"
expect_err "nothing stored: 1 run found, none complete \(--partial stores it\)" \
    "says nothing was stored and why"
rb compare --db "sqlite:$WORK/m.db" 'db:label=nothing'
expect_rc 2 "a selection matching nothing"
expect_err "^regionbench: error: db:label=nothing: no stored run matches this selection in sqlite:" \
    "the error names the selection"

# A run written before run ids: its id is derived, so it stays one run.
cp -r "$WORK/runs/b/1" "$WORK/legacy"
sed -i '/"run_id"/d; s/"label": "b"/"label": "old"/' "$WORK/legacy/meta.json"
rb store "$WORK/legacy" --db "sqlite:$WORK/r.db"
rb store "$WORK/legacy" --db "sqlite:$WORK/r.db"
expect_out "1 already there" "a run without run_id is recognised again"
rb compare --db "sqlite:$WORK/r.db" 'db:label=old'
expect_out "db:label=old: 1 run" "and stays one run"

# Bad databases: clear messages, nothing created.
rb store "$WORK/runs" --db "mysql://localhost/x"
expect_rc 2 "an unknown URL scheme is bad input"
expect_err "expected sqlite:PATH or postgresql://" "the message says what is expected"
rb store "$WORK/runs" --db "mysql://ci:s3cret@db/x?password=s3cret"
expect_err 'mysql://ci:\*\*\*@db/x\?password=\*\*\*' "messages hide passwords"
! grep -q s3cret "$WORK/err"
ok $? "(none is printed)"
rb store "$WORK/runs" --db "sqlite:$WORK/no/such/dir/x.db"
expect_rc 3 "a database that cannot be opened is an environment error"
rb store "$WORK/nothing-here" --db "sqlite:$WORK/new.db"
expect_rc 2 "a missing directory is bad input"
[ ! -e "$WORK/new.db" ]
ok $? "and leaves no database file behind"
if command -v python3 >/dev/null 2>&1; then
	cp "$WORK/r.db" "$WORK/newer.db"
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE schema_version SET version = 99"); c.commit()' \
	    "$WORK/newer.db"
	rb store "$WORK/runs" --db "sqlite:$WORK/newer.db"
	expect_rc 3 "a database of a newer schema is refused"
	expect_err "schema version 99 is newer" "and the message says so"

	# A database of schema 1 (before runs.scan and runs.guest): read only
	# after store migrates it; its old rows say the scan was not recorded.
	cp "$WORK/r.db" "$WORK/v1.db"
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for col in ("scan", "guest", "guest_kernel_report"): c.execute("ALTER TABLE runs DROP COLUMN " + col)
c.execute("UPDATE schema_version SET version = 1"); c.commit()' \
	    "$WORK/v1.db"
	rb compare --db "sqlite:$WORK/v1.db" 'db:label=a' 'db:label=b'
	expect_rc 3 "a database of schema 1 is not read before migrating"
	expect_err "regionbench store to migrate it" "and the message says how"
	rb store "$WORK/runs/b" --db "sqlite:$WORK/v1.db"
	expect_rc 0 "store migrates schema 1 and stores"
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("SELECT version FROM schema_version").fetchone()[0])
for r in c.execute("SELECT label, COALESCE(scan, \x27NULL\x27) FROM runs WHERE label IN (\x27a\x27, \x27b\x27) ORDER BY label"): print(*r)' \
	    "$WORK/v1.db" >"$WORK/v1.txt"
	[ "$(tr '\n' ' ' <"$WORK/v1.txt")" = "3 a NULL a NULL a NULL b exact b exact b exact " ]
	r=$?
	ok $r "schema 2: new rows record how counts were read, old ones NULL"
	[ $r -eq 0 ] || diag "$(cat "$WORK/v1.txt")"
	rb compare --db "sqlite:$WORK/v1.db" 'db:label=a' 'db:label=b'
	expect_rc 0 "the migrated database compares"
	expect_out "how counts were read differs: not recorded" \
	    "runs stored before schema 2 say so"
fi

# run --store loads the run it made.
mkdir -p "$WORK/suites"
cat >"$WORK/suites/tiny.ini" <<EOF
[suite]
name = tiny
interval = 200ms

[phase p]
workload = pagetest
size = 8M
threads = 1
checkpoints = 0%,100%
settle = 0s
EOF
REGIONBENCH_SUITES="$WORK/suites" "$REGIONBENCH" run tiny --no-charts \
    --out "$WORK/tiny" --store --db "sqlite:$WORK/r.db" \
    >"$WORK/out" 2>"$WORK/err" </dev/null
RC=$?
expect_rc 0 "run --store"
expect_err "stored in sqlite:" "run says where it stored the run"
rb compare --db "sqlite:$WORK/r.db" 'db:suite=tiny'
expect_out "db:suite=tiny: 1 run" "the run is in the database"

# Figures that 15 digits do not hold (rates of 17 significant digits, as
# run means are) come back from SQLite as the doubles stored: the same
# comparison from the database and from the directories.
for l in a b; do
	for i in 1 2 3; do
		d="$WORK/precise/$l/$i"
		mkdir -p "$WORK/precise/$l"
		cp -r "$WORK/runs/$l/$i" "$d"
		sed -i 's/"run_id": "\([^"]*\)"/"run_id": "\1-precise"/; s/"label": "'$l'"/"label": "p'$l'"/' \
		    "$d/meta.json"
		awk -v i="$i" -v l="$l" 'BEGIN { v = 1000 / 7 * (1 + i / 3)
		    printf "sample,pagetest,total,throughput,%.17g,ops/s\n",
		    v + (l == "b") / 9 }' >>"$d/workloads.csv"
	done
done
rb store "$WORK/precise" --db "sqlite:$WORK/precise.db"
expect_out "stored 6 runs" "store runs with rates of 17 digits"
rb compare --db "sqlite:$WORK/precise.db" --unit run --format json \
    'db:label=pa' 'db:label=pb'
mv "$WORK/out" "$WORK/db.json"
rb compare --unit run --format json "$WORK/precise/a" "$WORK/precise/b"
python3 -c '
import json, sys
def figures(p):
    d = json.load(open(p))
    return {(m["phase"], m["metric"]): [{k: v for k, v in g.items()
            if k != "group"} for g in m["groups"]] for m in d["metrics"]}
a, b = figures(sys.argv[1]), figures(sys.argv[2])
rate = [m for m in a if m[1] == "workload.pagetest.throughput"]
for k in sorted(set(a) | set(b)):
    if a.get(k) != b.get(k):
        print("# %s: database %s, directories %s" % (k, a.get(k), b.get(k)))
        break
sys.exit(0 if rate and a == b else 1)' "$WORK/db.json" "$WORK/out"
ok $? "every figure and p-value from SQLite equals the directories' (rates of 17 digits)"

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
check_engine postgresql "postgresql:///postgres?host=$PG/sock&user=regionbench"

$as_pg "$PGBIN/pg_ctl" -D "$PG/data" -m fast -w stop >/dev/null 2>&1
rb store "$WORK/runs" --db "postgresql:///postgres?host=$PG/sock&user=regionbench"
expect_rc 3 "a server that is not there is an environment error"
expect_err "postgresql: cannot connect" "and the message says so"

done_testing
