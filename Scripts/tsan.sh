#!/usr/bin/env bash
# Runs the concurrency-heavy tests under ThreadSanitizer.
#
#   Scripts/tsan.sh [extra arguments for `swift test`, e.g. --skip ChaosTests]
#
# 1. Scripts/setup.sh, if the test servers' environment (.build/testenv) is missing.
# 2. `swift build --build-tests --sanitize=thread` with SALVO_TSAN=1 into .build/tsan, its
#    own scratch path, so it never disturbs the normal .build/debug. SALVO_TSAN=1 makes
#    Package.swift define SALVO_TSAN_LOCKS, which swaps Synchronization.Mutex for a
#    pthread-based Mutex TSan can see (Sources/Salvo/Support/TSanMutex.swift): TSan cannot
#    see the kernel hand a contended Synchronization.Mutex to its waiter, and reports every
#    contended critical section as a race.
# 3. `swift test --sanitize=thread` on ChaosTests and ConcurrencyTests (the filter also
#    matches DownloadConcurrencyTests); SALVO_TSAN_FILTER replaces that filter. The tests
#    start their own servers, as in Scripts/test.sh.
#
# Exits non-zero if the build or a test fails, or if the output holds any
# "WARNING: ThreadSanitizer". Logs: .build/test-logs/tsan-build.log and tsan.log.
# Suppressions, if ever needed, go in Scripts/tsan.supp (one comment per entry saying why
# the report is not ours); the file is used when it exists. SALVO_JOBS=N passes -j N to the
# build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
LOGS="$ROOT/.build/test-logs"
SCRATCH="$ROOT/.build/tsan"
FILTER="${SALVO_TSAN_FILTER:-ChaosTests|ConcurrencyTests}"

if [[ ! -d "$ROOT/.build/testenv" ]]; then
    "$ROOT/Scripts/setup.sh"
fi
mkdir -p "$LOGS"

export SALVO_TSAN=1
tsan_options="halt_on_error=0 second_deadlock_stack=1"
if [[ -f "$ROOT/Scripts/tsan.supp" ]]; then
    tsan_options+=" suppressions=$ROOT/Scripts/tsan.supp"
fi
export TSAN_OPTIONS="$tsan_options${TSAN_OPTIONS:+ $TSAN_OPTIONS}"

jobs=()
if [[ -n "${SALVO_JOBS:-}" ]]; then
    jobs=(-j "$SALVO_JOBS")
fi

printf '==> SALVO_TSAN=1 swift build --build-tests --sanitize=thread --scratch-path %s\n' "$SCRATCH"
set +e
swift build --build-tests --sanitize=thread --scratch-path "$SCRATCH" "${jobs[@]}" 2>&1 \
    | tee "$LOGS/tsan-build.log"
status=${PIPESTATUS[0]}
set -e
if [[ $status -ne 0 ]]; then
    printf '\ntsan.sh: the build failed (%s)\n' "$LOGS/tsan-build.log" >&2
    exit "$status"
fi

printf '\n==> SALVO_TSAN=1 swift test --sanitize=thread --filter %q %s\n' "$FILTER" "$*"
set +e
swift test --skip-build --sanitize=thread --scratch-path "$SCRATCH" \
    --filter "$FILTER" "$@" 2>&1 | tee "$LOGS/tsan.log"
status=${PIPESTATUS[0]}
set -e

reports=$(grep -c 'WARNING: ThreadSanitizer' "$LOGS/tsan.log" || true)
if [[ $reports -gt 0 ]]; then
    printf '\ntsan.sh: %s ThreadSanitizer report(s); see %s\n' "$reports" "$LOGS/tsan.log" >&2
    grep -A2 'WARNING: ThreadSanitizer' "$LOGS/tsan.log" | grep -E '#0 ' \
        | sed -E 's/ \(.*//' | sort | uniq -c | sort -rn | head -20 >&2
    exit 1
fi
if [[ $status -ne 0 ]]; then
    printf '\ntsan.sh: swift test failed (%s); see %s\n' "$status" "$LOGS/tsan.log" >&2
    exit "$status"
fi
printf '\ntsan.sh: no ThreadSanitizer reports\n'
