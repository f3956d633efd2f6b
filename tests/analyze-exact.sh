# Figures at the edge of floating point: a series whose samples are all
# equal reduces to exactly that value, and groups whose means differ only
# by rounding are reported as no change, never as a significant one.
. "$top_srcdir/tests/cli-lib.sh"
. "$top_srcdir/tests/analyze-lib.sh"

# mkconst DIR USED: mkrun's run with region 0 holding USED of 1000 pages in
# seven samples at irregular times (phase_end at 3.7 s).  Summed naively,
# 0.003 x 7 / 7 is 0.0029999999999999996 and so is the time-weighted mean
# (Python: sum(0.003 * dt) / sum(dt) over these intervals).
mkconst() {
	mkrun "$1" const h1 0 1000
	{
		echo "t_s,phase,node,region,zone,present_pages,free_pages,managed_pages,anon_pages,file_pages,slab_pages,pgtable_pages,other_pages"
		for _t in 0.000 0.300 0.700 1.100 1.900 2.300 3.100; do
			echo "$_t,run,0,0,Normal,1000,$((1000 - $2)),1000,,,,,"
			echo "$_t,run,0,1,Normal,1000,1000,1000,,,,,"
		done
	} >"$1/samples.csv"
	printf 't_s,event,detail,phase\n0.000,phase_start,,run\n3.700,phase_end,,run\n' \
	    >"$1/events.csv"
}

if ! command -v python3 >/dev/null 2>&1; then
	skip_all "python3 is needed to read the JSON figures exactly"
fi

mkconst "$WORK/a/1" 3
mkconst "$WORK/a/2" 3
mkconst "$WORK/a/3" 3
mkconst "$WORK/b/1" 3
mkconst "$WORK/b/2" 3
mkconst "$WORK/b/3" 3

rb analyze "$WORK/a/1" --format json
expect_rc 0 "analyze a constant series"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["phases"]["run"]
bad = [k for k in ("min", "mean", "max", "final", "twmean")
       if d["occupancy.n0r0." + k]["value"] != 0.003]
sys.exit(1 if bad else 0)' "$WORK/out"
ok $? "every reduction of a constant 0.003 series is exactly 0.003"

rb compare "$WORK/a" "$WORK/b" --format json
expect_rc 0 "compare two constant groups"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["metrics"]:
    c = m["groups"][1]
    if c["change_pct"] != 0 or c["significant"] is not False or \
       c["p_value"] is not None:
        sys.exit(1)' "$WORK/out"
ok $? "equal groups: every change is 0, none tested, none significant"

rb compare "$WORK/a" "$WORK/b" --all
expect_rc 0 "compare as text"
expect_out '^p-value +occupancy\.n0r0\.twmean +ratio +same' \
    "the p-value column says the groups are the same"
grep '^Amean' "$WORK/out" | grep -q '\*'
[ $? -ne 0 ]
ok $? "nothing marked significant"

done_testing
