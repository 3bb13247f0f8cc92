#!/usr/bin/env bash
# Says on stderr why `swift build -c release` is about to do work, before it does (`make run`, `make release`):
# no release build yet, the sources (Sources, web, Plugins, Package.swift, Package.resolved) newer than the
# binaries, or system headers the build includes (libuv, http-parser, wslay, nettle, hiredis, curl) newer than
# them, as when apt-get upgraded a package meanwhile. Silent when nothing changed: the build is then a no-op.
set -uo pipefail
bin="${1:-.build/release}/dynserver"
say() { printf 'make: %s\n' "$*" >&2; }
if [ ! -e "$bin" ]; then
    say "building in release: no release build yet (the first one takes a few minutes)"
    exit 0
fi
changed=$(find Sources web Plugins Package.swift Package.resolved -newer "$bin" -type f 2>/dev/null | head -5)
if [ -n "$changed" ]; then
    say "building in release: changed since the last build: $(echo $changed)"
    exit 0
fi
headers=$(find /usr/include/uv.h /usr/include/uv /usr/include/http_parser.h /usr/include/wslay /usr/include/nettle \
    /usr/include/hiredis /usr/include/curl /usr/include/x86_64-linux-gnu/curl /usr/include/aarch64-linux-gnu/curl \
    -newer "$bin" -type f 2>/dev/null | head -3)
if [ -n "$headers" ]; then
    say "building in release: system headers newer than the last build (a package was installed or upgraded): $(echo $headers)"
fi
exit 0
