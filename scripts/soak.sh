#!/usr/bin/env bash
# make soak: the whole end-to-end suite against a release dynserver with DYN_SOAK=1 and DYN_TIMING=1 — the long
# reliability variants (5 000 connects/disconnects, slowloris at 1 byte/s, 1 000 idle connections for a minute,
# a 1 000-body world with never-reading clients, 2 000 items piled at one point) and every wall-clock, rate and
# RSS threshold (shutdown within 2 s, snapshot and frame rates, pong spacing in ticks, fling speed, memory
# bounds). `make test` checks behaviour alone; its figures are judged here, where every test that has one runs
# (the whole suite, so none can be left out of a filter). Counts can be changed with the DYN_* variables the
# tests read.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
"$SWIFT" build -c release --product dynserver
"$SWIFT" build -c release --product dynclient
"$SWIFT" build --build-tests
DYN_SOAK=1 DYN_TIMING=1 DYNSERVER_BIN="$PWD/.build/release/dynserver" \
    "$SWIFT" test --skip-build --filter 'EndToEndTests\.EndToEnd'
