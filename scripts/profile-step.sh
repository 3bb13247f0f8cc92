#!/usr/bin/env bash
# make profile: where a physics step's time goes. Runs a release dynbench under callgrind, collecting only
# inside DynamicAnimator.step(), and prints the instructions per stage (exclusive counts of the functions
# each stage is made of; docs/ARCHITECTURE.md, "Where the time goes"). Instruction counts do not depend on
# the machine's load. Arguments go to `dynbench physics` (default: pyramid 40, 200 steps, all awake).
set -euo pipefail
# CALLGRIND_OUT=FILE summarises an existing profile instead of making one.
out="${CALLGRIND_OUT:-}"
[ -n "$out" ] && out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--scene pyramid --size 40 --steps 200 --no-sleep)
if [ -z "$out" ]; then
    command -v valgrind >/dev/null || { echo "profile-step: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
    "$SWIFT" build -c release --product dynbench >&2
    out="$(mktemp -d)/callgrind.out"
    valgrind --tool=callgrind --callgrind-out-file="$out" \
        --toggle-collect='$s8Dynamics15DynamicAnimatorC4stepyyF' .build/release/dynbench physics "${args[@]}" >&2
fi
steps=200
for ((k = 0; k < ${#args[@]}; k++)); do [ "${args[$k]}" = --steps ] && steps="${args[$((k + 1))]}"; done
callgrind_annotate --inclusive=no --auto=no --threshold=100 "$out" | awk -v steps="$steps" -v file="$out" '
function stage(f) {
    if (f ~ /solveContacts|solveChunk|LanePair|LaneBodies/) return "contact solve (gather, scatter, lanes)"
    if (f ~ /warmStartContacts/) return "contact warm start"
    if (f ~ /prepareContacts|ContactSolverV7prepare|makeConstraint|ContactColouring|ContactChunk/) return "contact prepare, colouring"
    if (f ~ /Restitution/) return "restitution"
    if (f ~ /Joints|JointSolver/) return "joints"
    if (f ~ /integrateVelocities|integratePositions/) return "integrate"
    if (f ~ /PhysicsWorldV5solve|loadSolverBodies/) return "solver bodies (load)"
    if (f ~ /updateContacts|updateManifold|buildAwakeContacts|destroyContact|createContact|PairMap|addContact|PairTable|ProxyPair/) return "contact update, pair map"
    if (f ~ /collide|Manifold|clip/) return "narrow phase"
    if (f ~ /BroadPhase|DynamicTree|createContactsForNewPairs/) return "broad phase pairs"
    if (f ~ /prepareProxies|updateGeometry/) return "proxies"
    if (f ~ /Islands|V4root|V5union/) return "islands"
    if (f ~ /finalizeBodies|confine/) return "finalize bodies"
    if (f ~ /Field/) return "fields"
    if (f ~ /Trig|ExpLog/) return "sine, cosine"
    if (f ~ /mem(cpy|move|set)|malloc|free|swift_(retain|release|beginAccess|endAccess|allocObject|arrayInit|isUniquely|bridgeObject)|_int_/) return "runtime (copies, allocation, refcounts)"
    return "other"
}
/PROGRAM TOTALS/ { gsub(/,/, "", $1); total = $1; next }
/^ *[0-9,]+ \(/ {
    n = $1; gsub(/,/, "", n)
    line = $0; sub(/^ *[0-9,]+ \([ 0-9.]+%\) +/, "", line); sub(/ \[.*$/, "", line)
    i = index(line, ":"); if (i > 0) line = substr(line, i + 1)
    cost[stage(line)] += n
}
END {
    printf "%.1f M instructions per step (%d steps, %s)\n", total / steps / 1e6, steps, file
    for (s in cost) printf "%5.1f%%  %s\n", 100 * cost[s] / total, s | "sort -rn"
}'
