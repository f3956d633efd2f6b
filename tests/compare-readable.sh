# compare as people read it: two groups of runs shaped like `run quick`
# (its four phases and workloads, 32 regions, the workload metric rows a
# real run writes) give a headline table of about 15 rows a phase, counts
# without decimals, and markdown short enough for a merge-request comment.
. "$top_srcdir/tests/cli-lib.sh"

# mkquick DIR SEED: one run.  Each phase lasts 15 s, one sample a second;
# its workload fills 2-4 of the 32 regions of 65536 pages and reports the
# metric rows (counts, rates, times, vmstat deltas) the workloads write.
mkquick() {
	mkdir -p "$1"
	cat >"$1/meta.json" <<META
{"schema_version": 1, "tool": {"name": "regionbench", "version": "0.1.0"},
 "command": "run", "suite": {"name": "quick", "text": ""}, "label": "q",
 "start_time": "2026-12-01T10:00:00Z", "end_time": "2026-12-01T10:01:00Z",
 "host": "h1", "kernel": {"release": "6.18.0", "version": "#1",
 "cmdline": "", "boot_id": null}, "page_size": 4096,
 "source": {"name": "kpageflags", "accuracy": {}}, "region_size_bytes": null,
 "interval_s": 1, "status": "complete", "samples": 60,
 "phases": ["pagetest", "fork-heavy", "page-cache", "frag"]}
META
	awk -v seed="$2" -v dir="$1" 'BEGIN {
		srand(seed)
		np = split("pagetest fork-heavy page-cache frag", ph, " ")
		split("pagetest fork-heavy page-cache-churn frag-churn", wl, " ")
		nm = split("pages pages_per_s pages_per_cpu_s ops ops_per_s " \
		    "ops_per_cpu_s wall_s cpu_s threads work_done work_planned " \
		    "progress vmstat_pgfault vmstat_pgmajfault " \
		    "vmstat_pgalloc_normal vmstat_compact_stall exit_code " \
		    "signal oom_kills", mt, " ")
		split("pages pages/s pages/cpu-s ops ops/s ops/cpu-s s s " \
		    "threads ops ops ratio events events pages events code " \
		    "signal kills", un, " ")
		R = dir "/regions.csv"
		print "node,region,zone,start_pfn,spanned_pages,present_pages," \
		    "managed_pages" > R
		for (r = 0; r < 32; r++)
			printf "0,%d,Normal,%d,65536,65536,65536\n", r,
			    r * 65536 > R
		S = dir "/samples.csv"
		print "t_s,phase,node,region,zone,present_pages,free_pages," \
		    "managed_pages,anon_pages,file_pages,slab_pages," \
		    "pgtable_pages,other_pages" > S
		P = dir "/placement.csv"
		print "t_s,phase,workload,pid,node,region,pages" > P
		W = dir "/workloads.csv"
		print "phase,workload,thread,metric,value,unit" > W
		E = dir "/events.csv"
		print "t_s,event,detail,phase" > E
		for (p = 1; p <= np; p++) {
			t0 = (p - 1) * 15
			printf "%d.000,phase_start,,%s\n", t0, ph[p] > E
			nreg = 2 + int(rand() * 3)
			for (i = 0; i < 15; i++) {
				t = t0 + i
				for (r = 0; r < 32; r++) {
					u = 3000 + int(rand() * 200)
					if (r < nreg)
						u += 40000 + int(rand() * 8000)
					a = int(u * 0.7)
					printf "%d.000,%s,0,%d,Normal,65536,%d," \
					    "65536,%d,%d,%d,%d,%d\n", t, ph[p],
					    r, 65536 - u, a, u - a - 300, 200,
					    50, 50 > S
					if (r < nreg)
						printf "%d.000,%s,%s,%d,0,%d,%d\n",
						    t, ph[p], wl[p], 1000 + p, r,
						    u - 3000 > P
				}
			}
			printf "%d.000,phase_end,,%s\n", t0 + 15, ph[p] > E
			for (m = 1; m <= nm; m++) {
				v = 100000 * (1 + (rand() - 0.5) * 0.04)
				if (un[m] == "ratio" || un[m] == "code" ||
				    un[m] == "signal" || un[m] == "kills")
					v = un[m] == "ratio" ? 1 : 0
				else if (un[m] == "threads")
					v = 2
				else if (un[m] == "s")
					v = 10 * (1 + (rand() - 0.5) * 0.04)
				else if (un[m] !~ /\//)
					v = int(v)
				printf "%s,%s,total,%s,%.4f,%s\n", ph[p], wl[p],
				    mt[m], v, un[m] > W
			}
		}
	}'
}

for i in 1 2 3; do
	mkquick "$WORK/base/$i" $((10 + i))
	mkquick "$WORK/cand/$i" $((20 + i))
done

rb compare "$WORK/base" "$WORK/cand" --format markdown
expect_rc 0 "compare --format markdown of two groups of quick runs"
size=$(wc -c <"$WORK/out")
[ "$size" -lt 60000 ]
ok $? "markdown under 60,000 characters ($size)"
for p in pagetest fork-heavy page-cache frag; do
	rows=$(grep -c "^| $p | " "$WORK/out")
	[ "$rows" -ge 10 ] && [ "$rows" -le 20 ]
	ok $? "phase $p: a headline set of 10 to 20 rows ($rows)"
done
! grep -q '\.0000 ' "$WORK/out"
ok $? "no count printed with decimals"
expect_out '^\| pagetest \| `placement.pagetest.regions.twmean` \| regions \| ↓ \|' \
    "the phase's own workload's placement"
! grep -q '^| pagetest | `placement.frag-churn' "$WORK/out"
ok $? "not the placement of a workload without pages in the phase"
expect_out '^\| frag \| `workload.frag-churn.pages_per_s` \| pages/s \| ↑ \| Hmean \| [0-9]+ \(' \
    "rates: harmonic mean, higher is better, a whole number"
expect_out '^\| frag \| `empty_bytes.twmean` \| MiB \| ↑ \| Amean \|' \
    "bytes in MiB"

rb compare "$WORK/base" "$WORK/cand"
expect_rc 0 "text"
lines=$(wc -l <"$WORK/out")
[ "$lines" -lt 100 ]
ok $? "text: under 100 lines ($lines)"
rb compare "$WORK/base" "$WORK/cand" --all --format markdown
expect_rc 0 "--all"
all=$(wc -c <"$WORK/out")
[ "$all" -gt "$size" ] && grep -q '`occupancy.n0r31.twmean`' "$WORK/out"
ok $? "--all: every metric and statistic ($all characters)"

done_testing
