#!/usr/bin/env bash
# make soak: the long reliability variants against a release dynserver — 5 000 connects/disconnects,
# slowloris at 1 byte/s, 1 000 idle connections for a minute, 1 000-body world with never-reading
# clients, 2 000 items piled at one point. Counts can be changed with the DYN_* variables the tests read.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
"$SWIFT" build -c release --product dynserver
"$SWIFT" build --build-tests
DYN_SOAK=1 DYNSERVER_BIN="$PWD/.build/release/dynserver" \
    "$SWIFT" test --skip-build --filter "ReliabilityChurnTests|ReliabilitySlowClientTests|ReliabilityPhysicsExtremesTests"
