#!/usr/bin/env bash
# scripts/autobahn.sh [CASES]: runs the Autobahn|Testsuite fuzzing client (517 RFC 6455 cases) against a
# dynserver's /ws and counts the cases that are right at the protocol level.
#
# dynserver does not echo (each text frame is a command of docs/PROTOCOL.md), so Autobahn marks every
# echo case FAILED: what is judged here is the closing behaviour — the case's close verdict is OK (or
# INFORMATIONAL), or the server echoed the client's own Close status in a clean closing handshake (the
# client closes with 1001 after waiting in vain for its echo). Needs `wstest` (PyPI autobahntestsuite 0.8.2,
# Python 2.7: `python2.7 -m virtualenv /tmp/ab27 && /tmp/ab27/bin/pip install autobahntestsuite==0.8.2`);
# set WSTEST to its path. CASES is Autobahn's case pattern list as JSON (default all: ["*"]).
set -euo pipefail
cd "$(dirname "$0")/.."
WSTEST="${WSTEST:-$(command -v wstest || echo /tmp/ab27/bin/wstest)}"
[ -x "$WSTEST" ] || { echo "autobahn: no wstest (set WSTEST; see the header of this script)" >&2; exit 2; }
CASES="${1:-[\"*\"]}"
SERVER="${DYNSERVER_BIN:-.build/debug/dynserver}"
OUT="$(mktemp -d /tmp/dyn-autobahn.XXXXXX)"
PORT="${AUTOBAHN_PORT:-7841}"
# The rate limit would answer a flood of frames with rate_limited; Autobahn judges framing, not commands.
"$SERVER" --port 0 --http-port "$PORT" --scene empty --rate 100000 --burst 100000 >"$OUT/server.out" 2>"$OUT/server.err" &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q "http on" "$OUT/server.out" 2>/dev/null && break; sleep 0.1; done
cat >"$OUT/spec.json" <<SPEC
{"outdir": "$OUT/report", "servers": [{"agent": "dynserver", "url": "ws://127.0.0.1:$PORT/ws"}],
 "cases": $CASES, "exclude-cases": [], "exclude-agent-cases": {}}
SPEC
echo "autobahn: running $CASES against ws://127.0.0.1:$PORT/ws (report in $OUT/report)"
"$WSTEST" -m fuzzingclient -s "$OUT/spec.json" >"$OUT/wstest.log" 2>&1
python3 - "$OUT/report" <<'PY'
import json, sys, collections
report = sys.argv[1]
cases = json.load(open(f"{report}/index.json"))["dynserver"]
right, wrong, verdicts = 0, [], collections.Counter()
for case, summary in cases.items():
    detail = json.load(open(f"{report}/{summary['reportfile']}"))
    verdicts[summary["behaviorClose"]] += 1
    echoed = detail.get("localCloseCode") == detail.get("remoteCloseCode") and detail.get("wasClean")
    if summary["behaviorClose"] in ("OK", "INFORMATIONAL", "UNIMPLEMENTED") or (summary["behaviorClose"] == "WRONG CODE" and echoed):
        right += 1
    else:
        wrong.append((case, summary["behaviorClose"], detail.get("localCloseCode"), detail.get("remoteCloseCode")))
print(f"autobahn: {right} of {len(cases)} cases right at the protocol level (close verdicts: {dict(verdicts)})")
for case in sorted(wrong): print("autobahn: not right:", *case)
sys.exit(1 if wrong else 0)
PY
