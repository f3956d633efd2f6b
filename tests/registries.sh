# Each registry lists what is built (docs/architecture.md section 9): every
# workload, region source, chart and command defined in a source file is
# named by its registry list, so a file added without its registry line
# fails here.  A definition is found by its symbol (workload_NAME,
# src_NAME_ops, chart_NAME_def, cmd_NAME_entry), whatever its .name
# field holds, and looked up as X(NAME) in the list its table is built
# from.
. "$top_srcdir/tests/cli-lib.sh"

# defined KIND PREFIX SUFFIX FILES...: the NAME of every "const struct KIND
# PREFIXNAMESUFFIX = {" in FILES, one a line.
defined() {
	kind=$1 prefix=$2 suffix=$3
	shift 3
	sed -n "s/^const struct $kind $prefix\\([a-z0-9_]*\\)$suffix = {.*/\\1/p" \
	    "$@"
}

# listed LIST HEADER: the NAMEs of the X(NAME) lines of #define LIST(X).
listed() {
	awk -v list="$1" '
		$0 ~ "^#define " list "\\(X\\)" { inside = 1; next }
		inside {
			if (match($0, /X\([a-z0-9_]+\)/))
				print substr($0, RSTART + 2, RLENGTH - 3)
			if ($0 !~ /\\$/)
				inside = 0
		}' "$2"
}

# check WHAT KIND PREFIX SUFFIX LIST HEADER MIN FILES...: every definition
# is in the list, every list entry has a definition, and at least MIN
# definitions were found.
check() {
	what=$1 kind=$2 prefix=$3 suffix=$4 list=$5 header=$6 min=$7
	shift 7
	listed "$list" "$top_srcdir/$header" >"$WORK/$list"
	defined "$kind" "$prefix" "$suffix" "$@" >"$WORK/$list.defined"
	n=0
	while read -r name; do
		grep -qx "$name" "$WORK/$list"
		ok $? "$what $name ($prefix$name$suffix) is in $list"
		n=$((n + 1))
	done <"$WORK/$list.defined"
	[ "$n" -ge "$min" ]
	ok $? "the $what definitions were found ($n)"
	while read -r name; do
		grep -qx "$name" "$WORK/$list.defined"
		ok $? "$list entry $name has its definition $prefix$name$suffix"
	done <"$WORK/$list"
}

check workload workload_desc workload_ "" WORKLOAD_LIST \
    workloads/workload.h 4 "$top_srcdir"/workloads/*.c
check "region source" source_ops src_ _ops SOURCE_LIST lib/source.h 4 \
    "$top_srcdir"/lib/src-*.c
check command command_entry cmd_ _entry COMMAND_LIST bench/command.h 13 \
    "$top_srcdir"/bench/*.c
check chart chart_def chart_ _def CHART_LIST analyze/chart-run.h 6 \
    "$top_srcdir"/analyze/chart-*.c

done_testing
