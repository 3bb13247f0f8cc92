#!/usr/bin/env bash
# make sanitize: (1) builds dynserver with AddressSanitizer into .build-asan and runs the end-to-end suite
# against it (DYNSERVER_BIN); (2) runs the debug dynserver under valgrind with some client traffic, then
# SIGTERM: any memory error or definite leak fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"

echo "sanitize: building dynserver with AddressSanitizer (.build-asan)"
"$SWIFT" build --product dynserver --sanitize=address --scratch-path .build-asan
ASAN_BIN="$PWD/.build-asan/debug/dynserver"

echo "sanitize: end-to-end suite against $ASAN_BIN"
"$SWIFT" build --build-tests
# The tests delete each server's stderr, so ASan reports go to files of their own. LeakSanitizer runs when
# a server exits normally (the SIGTERM tests); any report fails the run. DYN_SANITIZED=1 tells the
# reliability suites not to judge speed and RSS (ASan is slower and quarantines freed memory).
REPORTS=$(mktemp -d /tmp/dynserver-asan.XXXXXX)
set +e
ASAN_OPTIONS="detect_leaks=1:log_path=$REPORTS/asan" DYN_SANITIZED=1 DYNSERVER_BIN="$ASAN_BIN" \
    "$SWIFT" test --skip-build --filter EndToEndTests
SUITE=$?
set -e
if ls "$REPORTS"/asan* >/dev/null 2>&1; then
    echo "sanitize: AddressSanitizer reports:" >&2
    cat "$REPORTS"/asan* >&2
    exit 1
fi
rm -rf "$REPORTS"
[ "$SUITE" -eq 0 ] || { echo "sanitize: the end-to-end suite failed against the ASan server" >&2; exit "$SUITE"; }

echo "sanitize: valgrind on the debug dynserver"
if ! command -v valgrind >/dev/null 2>&1; then
    echo "sanitize: installing valgrind"
    (apt-get update -qq && apt-get install -y -qq valgrind) >/dev/null
fi
"$SWIFT" build --product dynserver
LOG=$(mktemp /tmp/dynserver-valgrind.XXXXXX)
OUT=$(mktemp /tmp/dynserver-valgrind-out.XXXXXX)
valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=9 --log-file="$LOG" \
    .build/debug/dynserver --port 0 --scene default >"$OUT" 2>/dev/null &
PID=$!
for _ in $(seq 1 600); do grep -q "listening on" "$OUT" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's/.*listening on .*:\([0-9]*\)$/\1/p' "$OUT")
[ -n "$PORT" ] || { echo "sanitize: dynserver did not start under valgrind" >&2; kill "$PID"; cat "$LOG"; exit 1; }

# Traffic: joins, commands of every kind, bad lines, a drag left open by a client that vanishes.
for round in 1 2 3; do
    exec 3<>"/dev/tcp/127.0.0.1/$PORT"
    printf '%s\n' '{"type":"hello","name":"valgrind","id":1}' '{"type":"ping","t":1,"id":2}' \
        '{"type":"tap","x":400,"y":300,"id":3}' '{"type":"spawn","shape":"ellipse","width":30,"height":30,"x":300,"y":100,"id":4}' \
        '{"type":"spawn","shape":"polygon","points":[[0,-20],[20,10],[-20,10]],"x":500,"y":100,"id":5}' \
        '{"type":"gravity","angle":1.2,"magnitude":0.5}' '{"type":"collision","mode":"items"}' \
        '{"type":"drag","phase":"begin","x":400,"y":300,"id":6}' '{"type":"drag","phase":"move","x":420,"y":280}' \
        'not json' '{"type":"tap","x":1e999,"y":1}' '[1,2]' '{"type":"nope"}' >&3
    sleep 1
    timeout 2 head -c 200000 <&3 >/dev/null || true
    exec 3>&-
done
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
printf '%s\n' '{"type":"scene","name":"attachment"}' '{"type":"snap","body":1,"x":100,"y":100}' >&3
sleep 1
kill -TERM "$PID"
set +e
wait "$PID"
STATUS=$?
set -e
exec 3>&-
grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost" "$LOG" || true
if [ "$STATUS" -ne 0 ]; then
    echo "sanitize: valgrind reported errors or definite leaks (exit $STATUS); log: $LOG" >&2
    exit 1
fi
rm -f "$LOG" "$OUT"
echo "sanitize: OK (ASan suite green, valgrind clean)"
