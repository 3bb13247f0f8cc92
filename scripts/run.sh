#!/usr/bin/env bash
# `make run`: start dynserver in the background, attach dynclient in the foreground, stop the server when
# the client exits (however it exits).
set -euo pipefail
bin="${BIN:-.build/release}"
host="${HOST:-127.0.0.1}"
port="${PORT:-7700}"
# The server's HTTP port (browser page, /metrics) is the TCP port + 1 unless HTTP_PORT says otherwise.
http_port="${HTTP_PORT:-$((port + 1))}"
scene="${SCENE:-default}"
log="${LOG:-${TMPDIR:-/tmp}/dynserver.$$.log}"
out="$(mktemp)"

"$bin/dynserver" --host "$host" --port "$port" --http-port "$http_port" --scene "$scene" >"$out" 2>"$log" &
server=$!
cleanup() {
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -f "$out"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for _ in $(seq 1 100); do
    grep -q '^dynserver listening on ' "$out" && break
    if ! kill -0 "$server" 2>/dev/null; then
        # The server says which listener failed: the TCP port or the HTTP one.
        if grep -q 'cannot listen for HTTP' "$log"; then
            busy="HTTP port $http_port"
        else
            busy="port $port"
        fi
        echo "dynserver did not start (is $busy in use? try: make run PORT=$((port + 10))). Its log:" >&2
        cat "$log" >&2
        exit 1
    fi
    sleep 0.1
done
echo "$(cat "$out") — server log: $log" >&2
"$bin/dynclient" --host "$host" --port "$port" "$@"
