# regionbench list and regionbench workload: output, option errors, sizes.
. "$top_srcdir/tests/cli-lib.sh"

rb list
expect_rc 0 "list"
for w in pagetest fork-heavy page-cache-churn frag-churn; do
	expect_out "^$w +(yes|no) " "list shows $w and whether it runs here"
done
rb list extra
expect_rc 2 "list takes no arguments"

rb workload --help
expect_rc 0 "workload --help"
expect_out '^  pagetest ' "workload --help names the workloads"
expect_out '--threads N' "and the common options"

rb workload pagetest --help
expect_rc 0 "workload pagetest --help"
expect_out '--touch ORDER' "shows the workload's own options"
expect_out '--cpu-bind MODE' "and the common ones"

rb workload
expect_rc 2 "workload without a name"
rb workload no-such
expect_rc 2 "an unknown workload"
expect_err "unknown workload 'no-such'" "says which"
rb workload pagetest --size 4M --bogus 1
expect_rc 2 "an unknown option"
expect_err "unknown option --bogus" "says which"
rb workload pagetest --size 12Q
expect_rc 2 "a bad unit"
expect_err "--size" "names the option"
rb workload pagetest --size 4M --node 99
expect_rc 2 "a node that doesn't exist"
expect_err "no such memory node" "says so"
rb workload pagetest --size 1T
expect_rc 2 "more than the machine has"
expect_err "--force" "suggests --force"
rb workload frag-churn --size 4M --min-block 1M --max-block 64K
expect_rc 2 "min-block above max-block"
rb workload pagetest --size 4M extra
expect_rc 2 "a stray argument"

if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	rb workload page-cache-churn --size 8M --threads 1 --dir /dev/shm
	expect_rc 2 "page-cache-churn refuses tmpfs"
	expect_err "tmpfs" "and says why"
fi

# Files larger than the directory's free space: refused before any write.
rb workload page-cache-churn --size 1000T --threads 1 --dir "$WORK"
expect_rc 3 "page-cache-churn refuses files larger than the free space"
expect_err "need 1000T in $WORK, which has [0-9.]+[KMGT]? free" \
    "and says how much is free"
[ -z "$(ls "$WORK" | grep regionbench-)" ]
ok $? "nothing written"

# An overlay whose upper layer is tmpfs (a container's or a regionbench vm
# guest's root) is tmpfs too for page-cache-churn (root only: mounts).
ov="$WORK/overlay"
mkdir -p "$ov/t" "$ov/lower" "$ov/m"
if mount -t tmpfs tmpfs "$ov/t" 2>/dev/null; then
	mkdir "$ov/t/upper" "$ov/t/work"
	if mount -t overlay -o "lowerdir=$ov/lower,upperdir=$ov/t/upper,workdir=$ov/t/work" \
	    overlay "$ov/m" 2>/dev/null; then
		rb workload page-cache-churn --size 8M --threads 1 --dir "$ov/m"
		expect_rc 2 "page-cache-churn refuses an overlay over tmpfs"
		expect_err "upper layer .* is tmpfs" "and says why"
		umount "$ov/m"
	fi
	umount "$ov/t"
fi

rb workload pagetest --size 8M --threads 2 --format csv
expect_rc 0 "pagetest as CSV"
expect_out '^phase,workload,thread,metric,value,unit$' "CSV header"
expect_out '^workload,pagetest,total,pages,2048,pages$' "2048 pages in total"
expect_out '^workload,pagetest,1,pages_per_s,[0-9.e+]+,pages/s$' \
    "per-thread pages/s"
expect_out '^workload,pagetest,total,vmstat_pgfault,[0-9]+,faults$' \
    "vmstat deltas"

rb workload pagetest --size 8M --threads 2 --format json
expect_rc 0 "pagetest as JSON"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = {(x["thread"], x["metric"]): x for x in d["rows"]}
sys.exit(0 if d["workload"] == "pagetest" and d["status"] == "done" and
         d["exit_code"] == 0 and d["progress"] == 1 and
         d["message"] is None and r[("total", "pages")]["value"] == 2048 and
         r[("total", "pages")]["unit"] == "pages" and
         r[(1, "pages_per_s")]["unit"] == "pages/s" else 1)' "$WORK/out"
ok $? "JSON: status, progress and the rows, total and per thread"

rb workload pagetest --size 4M --threads 1 --cycles 3 --touch random \
    --mlock --thp never --cpu-bind scatter --node 0
expect_rc 0 "every pagetest option at once"
expect_out '^total +cycles +3 ' "three cycles"

rb workload pagetest --size 4M --threads 1 --prefault none --touch random
expect_rc 0 "pagetest --prefault none (the seed's sequence)"
expect_out '^total +resident +1024 ' "every page touched is resident"

for how in write read; do
	rb workload pagetest --size 5M --threads 2 --chunk 1M --prefault $how
	expect_rc 0 "pagetest --prefault $how"
	expect_out '^total +pages +1280 ' "--prefault $how: every page counted"
	expect_out '^total +resident +1280 ' "--prefault $how: all resident"
done
rb workload pagetest --size 4M --prefault sideways
expect_rc 2 "an unknown --prefault"
expect_err 'write' "names the choices"

rb workload pagetest --size 4M --threads 2 --populate
expect_rc 0 "pagetest --populate"
expect_out '^total +resident +1024 ' "populated pages are resident"

rb workload fork-heavy --size 4M --forkers 1 --forks 20 --exec
expect_rc 0 "fork-heavy --exec"
expect_out '^total +forks +20 ' "20 forks"

rb workload fork-heavy --size 4M --forkers 2 --forks 20 --cow-pct 10
expect_rc 0 "fork-heavy children that write"
expect_out '^total +failed_children +0 ' "every child exited 0"

done_testing
