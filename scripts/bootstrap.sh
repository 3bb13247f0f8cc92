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

missing=()
have_pc libuv || missing+=(libuv1-dev pkg-config)
have_header http_parser.h || missing+=(libhttp-parser-dev)
have_header wslay/wslay.h || missing+=(libwslay-dev)
have_pc nettle || missing+=(nettle-dev)
# Test tools: the browser test drives headless Chromium; the metrics test runs `promtool check metrics`.
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)

[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    say "missing: ${missing[*]} (Debian package names), and apt-get is not available."
    say "Install libuv, http-parser, wslay and nettle development files and pkg-config (macOS: brew install libuv http-parser wslay nettle)."
    exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
        say "missing ${missing[*]}, and installing them needs root (no sudo here)."
        exit 1
    fi
fi

say "installing with apt-get: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
pkg-config --exists libuv || { say "libuv1-dev installed but pkg-config still cannot find libuv"; exit 1; }
say "installed: ${missing[*]}"
