#!/usr/bin/env bash
# Makes sure this machine can build and test dyn: a Swift toolchain; libuv (libuv1-dev, through pkg-config),
# Node's http-parser (libhttp-parser-dev), wslay (libwslay-dev) and nettle (nettle-dev) to build; and, for
# `make test`, a headless Chromium (chromium) and promtool (prometheus). Missing Debian packages are installed
# with apt-get, saying which.
set -euo pipefail

say() { printf 'bootstrap: %s\n' "$*" >&2; }

if ! command -v swift >/dev/null 2>&1; then
    say "swift is not on PATH. Install Swift 6 (https://www.swift.org/install/linux/) and try again."
    exit 1
fi

have_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1"; }
have_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/local/include/$1" ]; }

missing=()   # needed to build: without them nothing works
have_pc libuv || missing+=(libuv1-dev pkg-config)
have_header http_parser.h || missing+=(libhttp-parser-dev)
have_header wslay/wslay.h || missing+=(libwslay-dev)
have_pc nettle || missing+=(nettle-dev)
have_header hiredis/adapters/libuv.h || missing+=(libhiredis-dev)   # --cluster: Redis through hiredis (docs/DEPLOY.md)
have_header curl/curl.h || have_header x86_64-linux-gnu/curl/curl.h || have_header aarch64-linux-gnu/curl/curl.h || missing+=(libcurl4-openssl-dev)   # Agones SDK calls
tools=()     # needed by two test suites only: the browser test drives headless Chromium, the metrics test
             # runs `promtool check metrics`; without them those tests are skipped, saying why
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || tools+=(chromium)
command -v promtool >/dev/null 2>&1 || tools+=(prometheus)

[ ${#missing[@]} -eq 0 ] && [ ${#tools[@]} -eq 0 ] && exit 0

cannot() {
    if [ ${#missing[@]} -gt 0 ]; then
        say "missing to build: ${missing[*]} (Debian package names); $1."
        say "Install libuv, http-parser, wslay and nettle development files and pkg-config (macOS: brew install libuv http-parser wslay nettle)."
        exit 1
    fi
    say "not installed: ${tools[*]} ($1); the browser and promtool tests will be skipped."
    exit 0
}

command -v apt-get >/dev/null 2>&1 || cannot "apt-get is not available"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else cannot "installing needs root and there is no sudo"; fi
fi

export DEBIAN_FRONTEND=noninteractive
say "installing with apt-get: ${missing[*]} ${tools[*]}"
$sudo apt-get update -qq >/dev/null || true
if [ ${#missing[@]} -gt 0 ]; then
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    pkg-config --exists libuv || { say "libuv1-dev installed but pkg-config still cannot find libuv"; exit 1; }
fi
if [ ${#tools[@]} -gt 0 ]; then
    $sudo apt-get install -y -qq "${tools[@]}" >/dev/null || say "could not install ${tools[*]}: the browser and promtool tests will be skipped"
fi
say "installed: ${missing[*]} ${tools[*]}"
