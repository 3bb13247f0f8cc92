#!/bin/sh
# The drag echo through `dynbench link --delay-ms 75` (150 ms round trip), for the page (headless Chromium)
# and dynclient (a PTY): one JSON line each (docs/ARCHITECTURE.md, "The page" and "The terminal client").
# Builds the tests first unless --skip-build is given.
set -eu
cd "$(dirname "$0")/.."
[ "${1:-}" = "--skip-build" ] || swift build --build-tests >&2
DYN_TIMING=1 swift test --skip-build --filter DragEchoLinkMeasureTests 2>&1 | grep '^{' || {
    echo "drag-echo: no measurement printed (run: DYN_TIMING=1 swift test --skip-build --filter DragEchoLinkMeasureTests)" >&2
    exit 1
}
