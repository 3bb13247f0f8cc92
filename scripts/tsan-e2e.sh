#!/usr/bin/env bash
# The room, fleet and replay end-to-end suites against a ThreadSanitizer dynserver (part of `make test`):
# the places where the server's threads meet (the step pool, the Agones client, the fleet's Redis link).
# Builds dynserver with --sanitize=thread into its own scratch path (.build-tsan, reused between runs), runs
# the suites with DYNSERVER_BIN pointing at it (dynclient stays the normal build) and DYN_SANITIZED=1 (no
# speed or RSS judged: TSan is several times slower). The tests delete each server's stderr, so reports go
# to files of their own; any report fails the run and is printed with its stacks.
#   scripts/tsan-e2e.sh [LIMIT_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
LIMIT="${1:-900}"
FILTER="${TSAN_FILTER:-EndToEndTests\.EndToEnd/(Room[A-Za-z]*Tests|FleetTests|AgonesTests|RecordReplayTests|ClusterMetricsTests)}"

echo "tsan: building dynserver with ThreadSanitizer (.build-tsan)"
"$SWIFT" build --product dynserver --sanitize=thread --scratch-path .build-tsan 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] ' || true
TSAN_BIN="$PWD/.build-tsan/debug/dynserver"
[ -x "$TSAN_BIN" ] || { echo "tsan: no ThreadSanitizer dynserver at $TSAN_BIN" >&2; exit 1; }

REPORTS=$(mktemp -d /tmp/dynserver-tsan.XXXXXX)
set +e
TSAN_OPTIONS="log_path=$REPORTS/tsan:halt_on_error=0:second_deadlock_stack=1" DYN_SANITIZED=1 \
    DYNSERVER_BIN="$TSAN_BIN" DYNCLIENT_BIN="$PWD/.build/debug/dynclient" \
    scripts/test-run.sh "$LIMIT" "$FILTER"
SUITE=$?
set -e
if ls "$REPORTS"/tsan* >/dev/null 2>&1; then
    echo "tsan: ThreadSanitizer reports (dynserver):" >&2
    cat "$REPORTS"/tsan* >&2
    echo "tsan: $(grep -h -c '^WARNING: ThreadSanitizer' "$REPORTS"/tsan* | paste -sd+ | bc) reports in $REPORTS" >&2
    exit 1
fi
rm -rf "$REPORTS"
[ "$SUITE" -eq 0 ] || { echo "tsan: the suites failed against the ThreadSanitizer server" >&2; exit "$SUITE"; }
echo "tsan: OK (room, fleet and replay suites green against a ThreadSanitizer dynserver, no reports)"
