#!/usr/bin/env bash
# Makes sure this machine can build dyn: a Swift toolchain and libuv (libuv1-dev, found through pkg-config).
set -euo pipefail

say() { printf 'bootstrap: %s\n' "$*" >&2; }

if ! command -v swift >/dev/null 2>&1; then
    say "swift is not on PATH. Install Swift 6 (https://www.swift.org/install/linux/) and try again."
    exit 1
fi

if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libuv; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    say "libuv was not found by pkg-config and apt-get is not available."
    say "Install libuv's development files (Debian/Ubuntu: libuv1-dev, macOS: brew install libuv) and pkg-config."
    exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
        say "libuv1-dev is missing and installing it needs root (no sudo here)."
        exit 1
    fi
fi

say "libuv not found by pkg-config: installing libuv1-dev and pkg-config with apt-get"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq libuv1-dev pkg-config >/dev/null
pkg-config --exists libuv || { say "libuv1-dev installed but pkg-config still cannot find libuv"; exit 1; }
say "installed libuv $(pkg-config --modversion libuv)"
