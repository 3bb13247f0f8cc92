#!/usr/bin/env bash
# make soak: the long reliability variants against a release dynserver — 5 000 connects/disconnects,
# slowloris at 1 byte/s, 1 000 idle connections for a minute, 1 000-body world with never-reading
# clients, 2 000 items piled at one point — and every speed, rate, CPU and RSS threshold (DYN_TIMING=1): the
# suites below check only behaviour under `make test`, their figures are judged here, on a release server.
# Counts can be changed with the DYN_* variables the tests read.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
"$SWIFT" build -c release --product dynserver
"$SWIFT" build --build-tests
DYN_SOAK=1 DYN_TIMING=1 DYNSERVER_BIN="$PWD/.build/release/dynserver" \
    "$SWIFT" test --skip-build --filter "EdgeSlowClientsTests|EdgeWebSocketCloseTests|ReliabilityChurnTests|ReliabilitySlowClientTests|ReliabilityPhysicsExtremesTests|ReliabilityFloodTests|SlowClientTests|TickRateTests"
