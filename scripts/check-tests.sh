#!/usr/bin/env bash
# Static checks of the test suite that `make test` runs first (docs: README, "make test"):
# - every test has a time limit: a `.timeLimit` on its `@Test`, or on an `@Suite` of its file;
# - no force-unwrap of a decoded server value in the end-to-end suites (use `try #require`);
# - no wall-clock threshold that load can break outside `Reliability.measuresTiming` (`DYN_TIMING`, `make
#   soak`): an `#expect` bounding an elapsed time from above, or a rate from below, must name measuresTiming.
#   (A lower bound on an elapsed time, as a rate limit's, can only be met more easily on a loaded machine.)
set -euo pipefail
cd "$(dirname "$0")/.."
status=0

while IFS= read -r file; do
    if grep -nE '@Test\b' "$file" | grep -v 'timeLimit' >/dev/null && ! grep -qE '@Suite\(.*\.timeLimit' "$file"; then
        echo "check-tests: $file: a @Test without a time limit (and no @Suite time limit in the file)" >&2
        grep -nE '@Test\b' "$file" | grep -v 'timeLimit' | head -3 >&2
        status=1
    fi
done < <(grep -rlE '@Test\b' Tests --include='*.swift')

# `f()!`, `a[i]!` in the end-to-end suites, where such values come from the server (the test's own enums,
# `Departure(rawValue:)`, excepted).
if grep -rnE '[])]!([].,) ]|$)' Tests/EndToEndTests --include='*.swift' | grep -v '!=' | grep -v 'rawValue:'; then
    echo "check-tests: force-unwrap of a server value above: use try #require" >&2
    status=1
fi

# Rates and elapsed times judged outside DYN_TIMING.
if grep -rnE '#expect\(.*(\b(elapsed|exitSeconds|seconds|span)\b *<|\b(rate|fps|perSecond)\b *>)' Tests/EndToEndTests --include='*.swift' \
        | grep -v 'measuresTiming'; then
    echo "check-tests: a wall-clock threshold above is not under Reliability.measuresTiming (DYN_TIMING)" >&2
    status=1
fi
exit $status
