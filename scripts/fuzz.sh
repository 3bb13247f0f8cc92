#!/usr/bin/env bash
# make fuzz [SECONDS=N] [FUZZ_TARGETS="wire packed http websocket"]: builds the libFuzzer targets with AddressSanitizer
# and runs each for N seconds (default 60); FUZZ_RUNS=N instead runs N executions from a fixed seed (make test):
#   wire       framing + client decoding + round trips (fuzz/FuzzWire.swift)
#   packed     the packed frame decoder: hostile frames refused without a change, re-encoding (fuzz/FuzzPacked.swift)
#   http       the HTTP request path: http-parser and RFC 9112's rules on top, handshake checks (fuzz/FuzzHTTP.swift)
#   websocket  the WebSocket frame path: a server endpoint on wslay fed a client's bytes (fuzz/FuzzWebSocket.swift)
#
# Inputs: fuzz/corpus (wire), fuzz/corpus-http, fuzz/corpus-websocket (the committed seeds, read only). New
# interesting inputs go to fuzz/corpus-new/TARGET (git-ignored); crashes, leaks and timeouts are written to
# fuzz-out/ (git-ignored) and fail the run.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_TO_RUN="${1:-${FUZZ_SECONDS:-60}}"
TARGETS="${FUZZ_TARGETS:-wire packed http websocket}"
OUT=.build-fuzz
SWIFTC="${SWIFTC:-swiftc}"
mkdir -p "$OUT" fuzz-out

# Each target compiles the sources it needs and its entry into one module (no libuv). lld avoids gold's
# "cannot export local symbol __asan_*" warnings.
LINKER=()
if command -v ld.lld >/dev/null 2>&1 || [ -x "$(dirname "$(command -v "$SWIFTC")")/ld.lld" ]; then LINKER=(-use-ld=lld); fi
C_MODULES=(-I Sources/CHTTPParser -I Sources/CWslay -I Sources/CNettle)

# A target is rebuilt only when a source it compiles (or this script) is newer than its binary, so the short
# pass of `make test` pays for the -sanitize=fuzzer build once per change, not once per run.
up_to_date() {   # $1 binary
    [ -x "$1" ] && [ -z "$(find Sources/NetProtocol fuzz/*.swift scripts/fuzz.sh -newer "$1" -name '*.swift' -o -newer "$1" -name 'fuzz.sh' | head -1)" ]
}

build() {
    local target="$1" bin="$OUT/fuzz-$1"
    if up_to_date "$bin"; then echo "$bin"; return; fi
    echo "fuzz: building $bin" >&2
    case "$target" in
    wire)
        "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzWire "${LINKER[@]}" "${C_MODULES[@]}" \
            Sources/NetProtocol/Wire/*.swift Sources/NetProtocol/Bytes/*.swift fuzz/FuzzWire.swift -o "$bin" ;;
    packed)
        "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzPacked "${LINKER[@]}" "${C_MODULES[@]}" \
            Sources/NetProtocol/Wire/*.swift Sources/NetProtocol/Bytes/*.swift fuzz/FuzzPacked.swift -o "$bin" ;;
    http)
        "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzHTTP "${LINKER[@]}" "${C_MODULES[@]}" \
            Sources/NetProtocol/HTTP/*.swift Sources/NetProtocol/WebSocket/WebSocketHandshake.swift fuzz/FuzzHTTP.swift -o "$bin" ;;
    websocket)
        "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzWebSocket "${LINKER[@]}" "${C_MODULES[@]}" \
            Sources/NetProtocol/WebSocket/*.swift Sources/NetProtocol/HTTP/*.swift Sources/NetProtocol/Wire/*.swift Sources/NetProtocol/Bytes/*.swift \
            fuzz/FuzzWebSocket.swift -o "$bin" ;;
    *) echo "fuzz: unknown target $target (wire, packed, http, websocket)" >&2; exit 2 ;;
    esac
    echo "$bin"
}

# `make test`'s pass (FUZZ_RUNS=N): N executions per target from a fixed seed (-seed=1) on the committed seeds
# only, new inputs to a scratch directory: the same inputs on every run and machine, judged by a count, never
# by how many executions a loaded machine fits into some seconds. `make fuzz` explores: time-bound, random
# seed, the growing fuzz/corpus-new.
RUNS="${FUZZ_RUNS:-}"
# A crash is reported by libFuzzer (with its reproducer); Swift's own backtracer, which cannot read memory under
# AddressSanitizer, would only hang the run.
export SWIFT_BACKTRACE=enable=no
for target in $TARGETS; do
    BIN="$(build "$target")"
    SEEDS=fuzz/corpus
    [ "$target" = wire ] || SEEDS="fuzz/corpus-$target"
    if [ -n "$RUNS" ]; then
        NEW=$(mktemp -d /tmp/dyn-fuzz-new.XXXXXX)
        LIMITS=(-runs="$RUNS" -seed=1)
        echo "fuzz: running $target for $RUNS executions (seed 1) on $SEEDS"
    else
        NEW="fuzz/corpus-new/$target"
        LIMITS=(-max_total_time="$SECONDS_TO_RUN")
        echo "fuzz: running $target for ${SECONDS_TO_RUN}s on $SEEDS (+ $NEW)"
    fi
    mkdir -p "$NEW"
    LOG="$OUT/fuzz-$target.log"
    set +e
    "$BIN" "${LIMITS[@]}" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="fuzz-out/$target-" "$NEW" "$SEEDS" 2>&1 | tee "$LOG" | grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|==[0-9]+==|Done|stat::|Fatal error"
    STATUS=${PIPESTATUS[0]}
    set -e
    if [ "$STATUS" -ne 0 ]; then
        echo "fuzz: $target FAILED (exit $STATUS); reproducer in fuzz-out/, full log in $LOG" >&2
        exit "$STATUS"
    fi
    echo "fuzz: $target OK, $(grep -E '^stat::number_of_executed_units' "$LOG" | awk '{print $2}') executions, $(ls "$NEW" | wc -l) new inputs"
    [ -z "$RUNS" ] || rm -rf "$NEW"
done
