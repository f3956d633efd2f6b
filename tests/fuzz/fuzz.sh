#!/bin/sh
# make fuzz: build every libFuzzer harness (tests/fuzz/fuzz-*.c) with clang
# and -fsanitize=fuzzer,address,undefined, build its seed corpus from the
# fixtures and test data, and run each for FUZZ_SECONDS.  Kept out of
# make check: it needs clang and minutes of CPU.
#
# Environment (set by the fuzz target in tests/local.mk):
#   FUZZ_CC        clang            FUZZ_SECONDS  seconds per harness
#   FUZZ_CPPFLAGS  -I and -D flags  FUZZ_LIBS     libraries to link
#   FUZZ_SOURCES   library sources  FUZZ_TARGETS  harness names (default all)
#   FUZZ_OUT       build directory  top_srcdir
#   FUZZ_FLAGS     more libFuzzer flags (e.g. -fork=1 -ignore_crashes=1)
# Crashes land in $FUZZ_OUT/artifacts; the exit status is 1 if any.
set -u
: "${FUZZ_CC:=clang}" "${FUZZ_SECONDS:=60}" "${FUZZ_OUT:=build-fuzz}"
: "${FUZZ_CPPFLAGS:=}" "${FUZZ_LIBS:=}" "${FUZZ_SOURCES:=}"
: "${top_srcdir:=.}" "${FUZZ_FLAGS:=}"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS="-g -O1 -fno-omit-frame-pointer -pthread $SAN"
src=$top_srcdir

if ! command -v "$FUZZ_CC" >/dev/null 2>&1; then
	echo "fuzz: $FUZZ_CC not found (apt-get install clang)" >&2
	exit 3
fi
mkdir -p "$FUZZ_OUT/obj" "$FUZZ_OUT/seeds" "$FUZZ_OUT/corpus" \
    "$FUZZ_OUT/artifacts" || exit 3

# The library sources, instrumented for coverage, in one archive so each
# harness links only what it uses.
newest_header=$(ls -t "$src"/lib/*.h "$src"/analyze/*.h "$src"/bench/*.h \
    "$src"/workloads/*.h config.h 2>/dev/null | head -1)
objs=""
for s in $FUZZ_SOURCES; do
	case $s in bench/cmd-*) continue ;; *.c) ;; *) continue ;; esac
	o="$FUZZ_OUT/obj/$(echo "$s" | tr / -).o"
	objs="$objs $o"
	if [ ! -f "$o" ] || [ "$src/$s" -nt "$o" ] ||
	    [ "$newest_header" -nt "$o" ]; then
		echo "  CC (fuzz) $s"
		$FUZZ_CC $CFLAGS -fsanitize=fuzzer-no-link $FUZZ_CPPFLAGS \
		    -DPKGDATADIR="\"$src/bench\"" \
		    -DPKGLIBEXECDIR="\"$src/bench\"" -c "$src/$s" -o "$o" ||
		    exit 1
	fi
done
rm -f "$FUZZ_OUT/librb-fuzz.a"
ar rcs "$FUZZ_OUT/librb-fuzz.a" $objs || exit 1

targets=${FUZZ_TARGETS:-$(cd "$src/tests/fuzz" && ls fuzz-*.c |
    sed 's/^fuzz-//; s/\.c$//')}
for t in $targets; do
	echo "  CCLD (fuzz) fuzz-$t"
	$FUZZ_CC $CFLAGS -fsanitize=fuzzer $FUZZ_CPPFLAGS \
	    -I"$src/tests/fuzz" "$src/tests/fuzz/fuzz-$t.c" \
	    "$FUZZ_OUT/librb-fuzz.a" $FUZZ_LIBS -o "$FUZZ_OUT/fuzz-$t" ||
	    exit 1
done

# Seed corpora: real files of every kernel format, the known-bad inputs,
# and the regression inputs kept under tests/data/hardening.
"$src/tests/fuzz/make-corpus.sh" "$src" "$FUZZ_OUT/seeds" || exit 1

[ "$FUZZ_SECONDS" -gt 0 ] || exit 0
status=0
for t in $targets; do
	mkdir -p "$FUZZ_OUT/corpus/$t"
	echo "  FUZZ fuzz-$t for ${FUZZ_SECONDS}s (log $FUZZ_OUT/$t.log)"
	"$FUZZ_OUT/fuzz-$t" -max_total_time="$FUZZ_SECONDS" -timeout=10 \
	    -rss_limit_mb=2048 -close_fd_mask=2 -print_final_stats=1 $FUZZ_FLAGS \
	    -artifact_prefix="$FUZZ_OUT/artifacts/$t-" \
	    "$FUZZ_OUT/corpus/$t" "$FUZZ_OUT/seeds/$t" \
	    >"$FUZZ_OUT/$t.log" 2>&1
	rc=$?
	grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::new_units_added)' \
	    "$FUZZ_OUT/$t.log" | sed 's/^/    /'
	if [ "$rc" -ne 0 ]; then
		echo "  fuzz-$t FAILED (exit $rc): see $FUZZ_OUT/$t.log and" \
		    "$FUZZ_OUT/artifacts/" >&2
		status=1
	fi
done
exit $status
