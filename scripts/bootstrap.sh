#!/usr/bin/env bash
# Makes sure this machine can build and test dyn: a Swift toolchain; libuv (libuv1-dev, through pkg-config),
# Node's http-parser (libhttp-parser-dev), wslay (libwslay-dev) and nettle (nettle-dev) to build; and, for
# `make test`, the real programs some tests drive: a headless Chromium (chromium), promtool (prometheus),
# redis-server (redis-server), redis-cli (redis-tools), setpriv (util-linux, which ties every child process of the test runner to
# the runner's life) and node (nodejs, whose `node --check` parses the page's scripts in web/). Missing
# Debian packages are installed with apt-get, one tool per apt-get call, so one package that cannot be had
# does not take the others out.
#
# Under CI=true a tool that is still missing afterwards is an error: bootstrap exits non-zero naming it, and
# the tests that need it fail instead of skipping. Elsewhere it says how to install it and those tests skip,
# saying the same. DYN_HIDE_TOOLS=chromium,redis-server (commas) makes tools count as missing without
# touching the machine, to check that both paths say what they should (the tests honour it too).
set -euo pipefail

say() { printf 'bootstrap: %s\n' "$*" >&2; }
in_ci() { case "${CI:-}" in true|TRUE|1|yes) return 0 ;; *) return 1 ;; esac; }

if ! command -v swift >/dev/null 2>&1; then
    say "swift is not on PATH. Install Swift 6 (https://www.swift.org/install/linux/) and try again."
    exit 1
fi

have_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1"; }
have_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/local/include/$1" ]; }
hidden() { case ",${DYN_HIDE_TOOLS:-}," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

missing=()   # needed to build: without them nothing works
have_pc libuv || missing+=(libuv1-dev pkg-config)
have_header http_parser.h || missing+=(libhttp-parser-dev)
have_header wslay/wslay.h || missing+=(libwslay-dev)
have_pc nettle || missing+=(nettle-dev)
have_header hiredis/adapters/libuv.h || missing+=(libhiredis-dev)   # --cluster: Redis through hiredis (docs/DEPLOY.md)
have_header curl/curl.h || have_header x86_64-linux-gnu/curl/curl.h || have_header aarch64-linux-gnu/curl/curl.h || missing+=(libcurl4-openssl-dev)   # Agones SDK calls

# The real programs tests drive: "tool:debian-package:command[|other command]". Keep in step with
# Tests/EndToEndTests/Support/ExternalTool.swift (`RequiredTool`).
tool_table=(
    "chromium:chromium:chromium|chromium-browser"
    "promtool:prometheus:promtool"
    "redis-server:redis-server:redis-server"
    "redis-cli:redis-tools:redis-cli"
    "setpriv:util-linux:setpriv"
    "node:nodejs:node|nodejs"
)
have_tool() {   # $1 tool name, $2 commands separated by |
    hidden "$1" && return 1
    local IFS='|' cmd
    for cmd in $2; do command -v "$cmd" >/dev/null 2>&1 && return 0; done
    return 1
}

sudo=""
can_apt=true
command -v apt-get >/dev/null 2>&1 || can_apt=false
if $can_apt && [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else can_apt=false; fi
fi
export DEBIAN_FRONTEND=noninteractive
updated=false
apt_install() {   # installs the packages given, after one `apt-get update`; fails if apt-get does
    $can_apt || return 1
    if ! $updated; then $sudo apt-get update -qq >/dev/null || true; updated=true; fi
    say "installing with apt-get: $*"
    $sudo apt-get install -y -qq "$@" >/dev/null
}

if [ ${#missing[@]} -gt 0 ]; then
    if ! apt_install "${missing[@]}"; then
        say "missing to build: ${missing[*]} (Debian package names) and apt-get could not install them."
        say "Install libuv, http-parser, wslay and nettle development files and pkg-config (macOS: brew install libuv http-parser wslay nettle)."
        exit 1
    fi
    pkg-config --exists libuv || { say "libuv1-dev installed but pkg-config still cannot find libuv"; exit 1; }
fi

unavailable=()
for entry in "${tool_table[@]}"; do
    IFS=':' read -r tool package commands <<<"$entry"
    have_tool "$tool" "$commands" && continue
    if hidden "$tool"; then
        say "$tool is hidden by DYN_HIDE_TOOLS: counted as missing."
    elif apt_install "$package" && have_tool "$tool" "$commands"; then
        continue
    else
        say "could not install $tool (Debian package $package)."
    fi
    unavailable+=("$tool:$package")
done

[ ${#unavailable[@]} -eq 0 ] && exit 0
for entry in "${unavailable[@]}"; do
    IFS=':' read -r tool package <<<"$entry"
    if in_ci; then
        say "ERROR: $tool is required under CI=true and is missing; install it with: apt-get install $package"
    else
        say "$tool is missing: the tests that drive it will be skipped; install it with: apt-get install $package"
    fi
done
in_ci && exit 1
exit 0
