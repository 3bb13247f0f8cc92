#!/usr/bin/env bash
# One `swift test` run of `make test` under an outer watchdog (docs: README, "make test"):
#   scripts/test-run.sh LIMIT_SECONDS FILTER [more swift test arguments]
# Swift Testing's `.timeLimit` cannot stop a test stuck in a blocking call, so nothing inside the runner
# ends a hung run. Here `timeout` sends SIGTERM to the runner's whole process group after LIMIT_SECONDS (and
# SIGKILL 10 s later); the children the tests start die with the runner (setpriv --pdeathsig, see
# Tests/EndToEndTests/Support/ChildProcess.swift). On a timeout the script names every test and suite that
# Swift Testing reported started but not finished: the one that hung. It reads them from Swift Testing's event
# stream (--event-stream-output-path, written as the run goes; the console output is buffered and dies with a
# killed runner). Its exit status is the run's (124 after a timeout). The run's console output and events are
# kept in .build/test-runs/ (for CI's log).
set -uo pipefail
cd "$(dirname "$0")/.."
LIMIT="$1"; FILTER="$2"; shift 2
SWIFT="${SWIFT:-swift}"
mkdir -p .build/test-runs
NAME=".build/test-runs/$(printf '%s' "$FILTER" | tr -c 'A-Za-z0-9' '_' | cut -c1-60)"
LOG="$NAME.log"
EVENTS="$NAME.events.jsonl"
rm -f "$EVENTS"

started=$(date +%s)
timeout --kill-after=10 "$LIMIT" "$SWIFT" test --skip-build --filter "$FILTER" \
    --event-stream-output-path "$EVENTS" --event-stream-version 0 "$@" 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
echo "test-run: --filter '$FILTER' ended with status $status after $(( $(date +%s) - started )) s (limit $LIMIT s)"

if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "test-run: --filter '$FILTER' HUNG: killed after $LIMIT s. Started and never finished:" >&2
    # One JSON record per line: {"kind":"event","payload":{…,"kind":"testStarted",…,"testID":"…"},…}.
    sed -nE 's/.*"kind":"(testStarted|testEnded|testSkipped)".*"testID":"([^"]*)".*/\1 \2/p' "$EVENTS" 2>/dev/null \
        | sed 's#\\/#/#g' | awk '
            $1 == "testStarted" { if (!($2 in open)) order[++n] = $2; open[$2] = 1 }
            $1 == "testEnded" || $1 == "testSkipped" { delete open[$2] }
            END { for (i = 1; i <= n; i++) if (order[i] in open) { print "  " order[i]; delete open[order[i]] } }
        ' >&2
    exit 124
fi
exit "$status"
