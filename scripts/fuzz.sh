#!/usr/bin/env bash
# make fuzz [SECONDS=N]: builds the libFuzzer target for the wire codec (framing + client decoding +
# round trips, fuzz/FuzzWire.swift) with AddressSanitizer and runs it for N seconds (default 60).
#
# Inputs: fuzz/corpus (the committed seeds, read only). New interesting inputs go to fuzz/corpus-new
# (git-ignored); crashes, leaks and timeouts are written to fuzz-out/ (git-ignored) and fail the run.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_TO_RUN="${1:-${FUZZ_SECONDS:-60}}"
OUT=.build-fuzz
BIN="$OUT/fuzz-wire"
SWIFTC="${SWIFTC:-swiftc}"
mkdir -p "$OUT" fuzz/corpus-new fuzz-out

# Wire needs no libuv and no other module: compile its sources and the entry into one module. lld avoids
# gold's "cannot export local symbol __asan_*" warnings.
LINKER=()
if command -v ld.lld >/dev/null 2>&1 || [ -x "$(dirname "$(command -v "$SWIFTC")")/ld.lld" ]; then LINKER=(-use-ld=lld); fi
echo "fuzz: building $BIN"
"$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzWire "${LINKER[@]}" \
    Sources/NetProtocol/Wire/*.swift fuzz/FuzzWire.swift -o "$BIN"

echo "fuzz: running for ${SECONDS_TO_RUN}s on fuzz/corpus (+ fuzz/corpus-new)"
LOG="$OUT/fuzz.log"
set +e
"$BIN" -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix=fuzz-out/ fuzz/corpus-new fuzz/corpus 2>&1 | tee "$LOG" | grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|==[0-9]+==|Done|stat::" 
STATUS=${PIPESTATUS[0]}
set -e
if [ "$STATUS" -ne 0 ]; then
    echo "fuzz: FAILED (exit $STATUS); reproducer in fuzz-out/, full log in $LOG" >&2
    exit "$STATUS"
fi
echo "fuzz: OK, $(grep -E '^stat::number_of_executed_units' "$LOG" | awk '{print $2}') executions in ${SECONDS_TO_RUN}s, corpus $(ls fuzz/corpus-new | wc -l) new inputs"
