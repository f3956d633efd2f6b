# Hand-made runs for the compare and gate tests, sourced after cli-lib.sh.
# mkrun DIR LABEL HOST K THROUGHPUT [REGION_SIZE]: two regions of 1000
# pages, four samples at t=0..3 in phase "run" (phase_end at 4).  Region 0
# always holds 600 used pages; region 1 holds 100 in the first K samples.
# So spread_index.twmean = 1 + K/4 and empty_regions.twmean = 1 - K/4.
mkrun() {
	_dir=$1 _label=$2 _host=$3 _k=$4 _thr=$5 _rsize=${6:-null}
	mkdir -p "$_dir"
	cat >"$_dir/meta.json" <<META
{"schema_version": 1, "tool": {"name": "regionbench", "version": "0.1.0"},
 "command": "run", "suite": null, "label": "$_label",
 "start_time": "2026-12-01T10:00:00Z", "end_time": "2026-12-01T10:00:04Z",
 "host": "$_host", "kernel": {"release": "6.18.0-$_label", "version": "#1",
 "cmdline": ""}, "page_size": 4096, "source": {"name": "kpageflags", "accuracy": {}},
 "region_size_bytes": $_rsize, "interval_s": 1, "status": "complete",
 "samples": 4, "phases": ["run"]}
META
	printf 'node,region,zone,start_pfn,spanned_pages,present_pages,managed_pages\n0,0,Normal,0,1000,1000,1000\n0,1,Normal,1000,1000,1000,1000\n' \
	    >"$_dir/regions.csv"
	{
		echo "t_s,phase,node,region,zone,present_pages,free_pages,managed_pages,anon_pages,file_pages,slab_pages,pgtable_pages,other_pages"
		for _t in 0 1 2 3; do
			echo "$_t.000,run,0,0,Normal,1000,400,1000,,,,,"
			if [ "$_t" -lt "$_k" ]; then _free=900; else _free=1000; fi
			echo "$_t.000,run,0,1,Normal,1000,$_free,1000,,,,,"
		done
	} >"$_dir/samples.csv"
	printf 'phase,workload,thread,metric,value,unit\nrun,pagetest,total,throughput,%s,ops/s\n' \
	    "$_thr" >"$_dir/workloads.csv"
	printf 't_s,event,detail,phase\n0.000,phase_start,,run\n4.000,phase_end,,run\n' \
	    >"$_dir/events.csv"
}

# mkgroup DIR LABEL HOST "K1 K2 K3" "T1 T2 T3": a run --repeat style group.
mkgroup() {
	_g=$1 _gl=$2 _gh=$3 _ks=$4 _ts=$5
	_i=0
	for _kk in $_ks; do
		_i=$((_i + 1))
		_tt=$(echo "$_ts" | cut -d' ' -f$_i)
		mkrun "$_g/$_i" "$_gl" "$_gh" "$_kk" "$_tt"
	done
}
