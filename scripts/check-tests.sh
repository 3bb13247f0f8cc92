#!/usr/bin/env bash
# Static checks of the test suite that `make test` runs first (docs: README, "make test"):
# - every test has a time limit: a `.timeLimit` in its own `@Test`, or in the `@Suite` of the very type that
#   holds it (checked per suite, not per file: a second suite in a file needs its own);
# - no force-unwrap of a decoded server value in the end-to-end suites (use `try #require`);
# - no wall-clock threshold outside `Reliability.measuresTiming` (`DYN_TIMING`, `make soak`), found by shape:
#   an `#expect` that compares a value read from a clock (`Date()`, `timeIntervalSince…`, `DispatchTime`,
#   `ContinuousClock`, or a variable assigned from one, or a rate divided by one) must sit inside an
#   `if Reliability.measuresTiming {` block or begin with `!Reliability.measuresTiming ||`; merely mentioning
#   measuresTiming elsewhere on the line exempts nothing. (A lower bound on an elapsed time, as a rate limit's,
#   can only be met more easily on a loaded machine: `>`/`>=` on an elapsed time is allowed.)
# - every child process of the tests goes through the one launcher (ChildProcess.launch / ChildProcess.run);
# - every program the tests run is in bootstrap's tool table and in `RequiredTool`.
#   scripts/check-tests.sh --filters 'FILTER' ...   (after the build): every test `swift test list` knows is
#   reached by one of `make test`'s --filter patterns, so a new suite can never be silently left out.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0

if [ "${1:-}" = "--filters" ]; then
    shift
    listed=$(swift test --skip-build list 2>/dev/null) || { echo "check-tests: swift test list failed (build first)" >&2; exit 1; }
    [ -n "$listed" ] || { echo "check-tests: swift test list printed no tests" >&2; exit 1; }
    pattern=$(printf '%s|' "$@"); pattern="${pattern%|}"
    missed=$(printf '%s\n' "$listed" | grep -vE "$pattern" || true)
    if [ -n "$missed" ]; then
        echo "check-tests: tests no --filter of make test reaches (put the suite under one of: $*):" >&2
        printf '%s\n' "$missed" | head -20 >&2
        exit 1
    fi
    echo "check-tests: all $(printf '%s\n' "$listed" | wc -l) tests are reached by make test's filters"
    exit 0
fi

# Time limits, per suite. A test's suite is the innermost type declared at a smaller indentation before it.
while IFS= read -r file; do
    awk -v file="$file" '
        function indent(s) { match(s, /^ */); return RLENGTH }
        /^[[:space:]]*@Suite/ { pending = pending $0; if ($0 !~ /\)[[:space:]]*((public|private|fileprivate|internal|final) )*(struct|class|enum|actor) /) next }
        /^[[:space:]]*(@Suite.*\)[[:space:]]*)?((public|private|fileprivate|internal|final) )*(struct|class|enum|actor|extension) / {
            n = indent($0)
            while (depth > 0 && ind[depth] >= n) depth--
            depth++; ind[depth] = n; lim[depth] = (pending ~ /timeLimit/) ? 1 : 0
            # An extension or a type without @Suite is no suite: it neither gives nor removes a limit.
            if (pending == "" ) lim[depth] = (depth > 1 ? lim[depth - 1] : 0)
            pending = ""; next
        }
        /^[[:space:]]*@Test/ { attr = $0; at = NR; collecting = 1; tind = indent($0) }
        collecting && NR > at { attr = attr $0 }
        collecting && /func / {
            collecting = 0
            while (depth > 0 && ind[depth] >= tind) depth--
            suiteLimit = (depth > 0) ? lim[depth] : 0
            if (attr !~ /timeLimit/ && !suiteLimit) {
                printf "check-tests: %s:%d: a @Test without a time limit, in a suite without one\n", file, at > "/dev/stderr"
                bad = 1
            }
        }
        !/^[[:space:]]*@Suite/ && !/^[[:space:]]*$/ && !/^[[:space:]]*\/\// { if ($0 !~ /^[[:space:]]*@/) pending = "" }
        END { exit bad }
    ' "$file" || status=1
done < <(grep -rlE '@Test\b' Tests --include='*.swift')

# `f()!`, `a[i]!` in the end-to-end suites, where such values come from the server (the test's own enums,
# `Departure(rawValue:)`, excepted).
if grep -rnE '[])]!([].,) ]|$)' Tests/EndToEndTests --include='*.swift' | grep -v '!=' | grep -v 'rawValue:'; then
    echo "check-tests: force-unwrap of a server value above: use try #require" >&2
    status=1
fi

# Wall-clock thresholds outside DYN_TIMING, by shape.
while IFS= read -r file; do
    awk -v file="$file" '
        # A clock read that measures (a deadline, `timeIntervalSinceNow` or `addingTimeInterval`, is a condition).
        function clock(s) {
            return s ~ /Date\(\)|timeIntervalSince[^N]|timeIntervalSince\(|DispatchTime|ContinuousClock|SuspendingClock|uptimeNanoseconds|clock_gettime|\.elapsed([^A-Za-z0-9_]|$)/ \
                && s !~ /timeIntervalSinceNow|addingTimeInterval|deadline|timeout:/
        }
        function mentionsTimed(s,   v) {
            for (v in timed) if (s ~ ("(^|[^A-Za-z0-9_.])" v "([^A-Za-z0-9_]|$)")) return 1
            return 0
        }
        function clocky(s) { return clock(s) || mentionsTimed(s) }
        {
            line = $0
            # Comments and string literals say nothing about what is compared.
            code = $0; sub(/\/\/.*$/, "", code); gsub(/"([^"\\]|\\.)*"/, "\"\"", code)
            # Braces: remember the depth at which an `if Reliability.measuresTiming {` block opened.
            if (code ~ /if[[:space:]]+Reliability\.measuresTiming[[:space:]]*(&&[^{]*)?\{/) guardAt[++guards] = depth + 1
            opens = gsub(/\{/, "{", line); closes = gsub(/\}/, "}", line)
            # A variable assigned from a clock is a clock value; one computed from such a value by arithmetic
            # (an elapsed time, a rate) is one too.
            if (code ~ /(let|var)[[:space:]]+[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(:[^=]*)?=[^=]/) {
                name = code; sub(/^.*(let|var)[[:space:]]+/, "", name); sub(/[^A-Za-z0-9_].*$/, "", name)
                rhs = code; sub(/^[^=]*=/, "", rhs)
                if (name != "" && (clock(rhs) || (mentionsTimed(rhs) && rhs ~ /[-\/]|timeIntervalSince/))) timed[name] = 1
            }
            if (code ~ /#expect\(/ && code ~ /[<>]/ && clocky(code) && $0 !~ /check-tests: not a threshold/) {
                guarded = (guards > 0) || (code ~ /#expect\([[:space:]]*!Reliability\.measuresTiming[[:space:]]*\|\|/)
                # An upper bound on a clock value, or a lower bound on a rate.
                upper = (code ~ /<[^<]/ || code ~ /(rate|fps|perSecond|Rate)[^,]*>/)
                if (!guarded && upper) {
                    printf "check-tests: %s:%d: a wall-clock threshold outside Reliability.measuresTiming: %s\n", file, NR, $0 > "/dev/stderr"
                    bad = 1
                }
            }
            depth += opens - closes
            while (guards > 0 && depth < guardAt[guards]) guards--
        }
        END { exit bad }
    ' "$file" || status=1
done < <(find Tests/EndToEndTests -name '*.swift')

# Every child process through the launcher (tied to the runner's life, killed at its timeout).
if grep -rnE '\.run\(\)' Tests --include='*.swift' | grep -vE 'Support/ChildProcess\.swift|loop\.run\(\)|\.run\(\) *\{'; then
    echo "check-tests: a process started outside ChildProcess.launch/run above" >&2
    status=1
fi

# Every outside program the tests run is a RequiredTool and in bootstrap's table.
for tool in $(grep -ohE 'ExternalTool\.find\("[a-z-]+"\)' Tests -r --include='*.swift' | sed -E 's/.*"([a-z-]+)".*/\1/' | sort -u); do
    if ! grep -q "\"$tool:" scripts/bootstrap.sh || ! grep -q "name: \"$tool\"" Tests/EndToEndTests/Support/ExternalTool.swift; then
        echo "check-tests: the tests run $tool, which is not in bootstrap's tool table and RequiredTool" >&2
        status=1
    fi
done
exit $status
