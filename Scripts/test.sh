#!/usr/bin/env bash
# Runs every test of Salvo, and the CMake build.
#
#   Scripts/test.sh [extra arguments for `swift test`, e.g. --filter ServerSmoke]
#
# 1. Scripts/setup.sh installs what is missing (as root on a fresh machine).
# 2. `swift format lint` with the rules in .swift-format.
# 3. `swift build --build-tests` and `swift build -c release`.
# 4. `swift test`. The tests start their own servers (httpbin, nginx, the
#    fault server) on loopback through
#    Tests/SalvoIntegrationTests/Support/TestServers.swift, and stop them at the end.
# 5. The CMake + Ninja build into .build/cmake.
#
# Exits non-zero if any step fails (a lint finding included), if a build
# prints a compiler warning (the package is kept warning-free;
# SALVO_ALLOW_WARNINGS=1 turns that check off while you work), or if a test
# was skipped: a test that cannot reach its server must fail, never skip.
# The full log of each step is kept in .build/test-logs/.
#
# Tests run serially in one process (no --parallel): --parallel runs each
# test in its own process, which would start the servers once per test. Tests
# that want concurrency make it themselves.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
LOGS="$ROOT/.build/test-logs"

"$ROOT/Scripts/setup.sh"
mkdir -p "$LOGS"

# Runs a step with its output both shown and kept; returns its status.
run_logged() {
    local log="$1"; shift
    printf '\n==> %s\n' "$*"
    set +e
    "$@" 2>&1 | tee "$log"
    local status=${PIPESTATUS[0]}
    set -e
    return "$status"
}

# Fails if the log holds compiler warnings (swiftc, clang, cmake).
check_warnings() {
    local log="$1" what="$2"
    if [[ "${SALVO_ALLOW_WARNINGS:-0}" == 1 ]]; then
        return 0
    fi
    if grep -E '(^|: )warning: |CMake Warning' "$log" >/dev/null; then
        printf '\ntest.sh: %s printed warnings:\n' "$what" >&2
        grep -E '(^|: )warning: |CMake Warning' "$log" | sort -u | head -40 >&2
        return 1
    fi
}

# Lint first: it takes about 2 s, so a style slip fails before minutes of
# building. The rules .swift-format turns on must hold everywhere (--strict
# makes any finding an error). --debug-disable-pretty-print (a hidden flag)
# skips the pretty printer's whitespace findings, which no setting turns off:
# the code aligns wrapped lines by hand, a layout swift-format never prints.
run_logged "$LOGS/lint.log" swift format lint --strict --debug-disable-pretty-print \
    --configuration .swift-format --recursive Sources Tests Benchmarks Fuzz Package.swift

# The engine is the only user of libcurl: SwiftPM would let Salvo import CCurl through
# SalvoEngine's dependencies, so the layering rule is checked here.
if grep -rlE '^\s*(@_exported |internal |public |package )?import (CCurl|CSalvoHeaders|CSalvoTLS)\b' Sources/Salvo Sources/SalvoBulk Sources/salvo; then
    printf '\ntest.sh: the files above import libcurl or its C shims; only Sources/SalvoEngine may\n' >&2
    exit 1
fi

run_logged "$LOGS/build.log" swift build --build-tests
check_warnings "$LOGS/build.log" "swift build"

# Release mode too: the optimizer has warnings of its own, and users ship it.
run_logged "$LOGS/build-release.log" swift build -c release
check_warnings "$LOGS/build-release.log" "swift build -c release"

# The test run must leave no process and no temporary file behind. It gets
# a private, empty TMPDIR (FileManager.temporaryDirectory, Python's tempfile
# and the test servers' directory all follow it), and both are checked after.
# --skip-build: the tests were built above, and a build would leave the
# compiler's own scratch directories in TMPDIR.
TEST_TMP="$ROOT/.build/test-tmp"
rm -rf "$TEST_TMP"
mkdir -p "$TEST_TMP"
TMPDIR="$TEST_TMP" run_logged "$LOGS/test.log" swift test --skip-build "$@"

# Any file counts, at any depth, except SwiftPM's own litter (its lock files
# "_<path>.lock" and the manifest loader's empty "TemporaryDirectory.*").
# Empty directories do not count: a library may keep one, as Alamofire keeps
# its multipart directory.
leftovers=$(find "$TEST_TMP" -mindepth 1 ! -type d \
                ! -path "$TEST_TMP/_*.lock" \
                ! -path "$TEST_TMP/TemporaryDirectory.*/.keep-directory")
if [[ -n "$leftovers" ]]; then
    printf '\ntest.sh: the tests left temporary files behind:\n%s\n' "$leftovers" >&2
    exit 1
fi
# Test servers run from Tests/Servers or in the private TMPDIR. Without pgrep (procps,
# installed by setup.sh) this check would pass without looking, so its absence fails.
command -v pgrep >/dev/null || { printf 'test.sh: pgrep is missing (apt-get install procps)\n' >&2; exit 1; }
if pgrep -af -- "$ROOT/Tests/Servers/|$TEST_TMP" >&2; then
    printf '\ntest.sh: the tests left the processes above running\n' >&2
    exit 1
fi
rm -rf "$TEST_TMP"

# XCTest prints "Test Case 'X.testY' skipped" and "Executed 12 tests, with
# 1 test skipped and 0 failures"; swift-testing "➜ Test foo() skipped: ...".
if grep -E 'with [1-9][0-9]* tests? skipped|Test .* skipped' "$LOGS/test.log" >/dev/null; then
    printf '\ntest.sh: some tests were skipped; a missing server must fail a test, not skip it:\n' >&2
    grep -E 'skipped' "$LOGS/test.log" | head -40 >&2
    exit 1
fi

# The benchmark suite, briefly, to prove it still runs (never to judge speed:
# figures on a shared CI machine mean nothing). It starts and stops its own nginx.
if [[ $# -eq 0 ]]; then
    run_logged "$LOGS/bench-quick.log" "$ROOT/.build/release/salvo-bench" --quick
fi

run_logged "$LOGS/docs.log" "$ROOT/Scripts/docs.sh"

# The CMake build: CMake-based projects embed Salvo this way; keep it working.
# A compiler found on PATH, or the toolchain's under /opt/swift.
SWIFTC="$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)"
run_logged "$LOGS/cmake.log" cmake -G Ninja -B "$ROOT/.build/cmake" -S "$ROOT" \
    -DCMAKE_Swift_COMPILER="$SWIFTC"
run_logged "$LOGS/ninja.log" ninja -C "$ROOT/.build/cmake"
check_warnings "$LOGS/cmake.log" "cmake"
check_warnings "$LOGS/ninja.log" "the CMake build"

printf '\ntest.sh: all builds and tests passed\n'
