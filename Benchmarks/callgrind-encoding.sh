#!/usr/bin/env bash
# Counts the instructions one encoding case spends per operation, with valgrind's callgrind:
# the steady measure where the encoding suite's nanoseconds move by ±20% on a busy machine.
#
#   Benchmarks/callgrind-encoding.sh "CASE NAME" ["CASE NAME" ...]
#
# CASE NAME is a row of `salvo-bench encoding` ("URLEncoding GET (query)", "floor: URLRequest
# with a precomputed query URL", ...). Runs each case under callgrind for 2,000 and 10,000
# operations (salvo-bench --encoding-child) and prints (I(10000) - I(2000)) / 8000: the
# marginal instructions per operation, start-up excluded. Profiles stay in a temporary
# directory, printed at the end, for callgrind_annotate. Uses callgrind.sh's release build in
# .build/callgrind (DWARF 4 debug information, which Debian 12's valgrind reads).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRATCH="$ROOT/.build/callgrind"
BENCH="$SCRATCH/release/salvo-bench"
[ "$#" -ge 1 ] || { echo "usage: $0 \"CASE NAME\" [...]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "callgrind-encoding.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
(cd "$ROOT" && swift build -c release --product salvo-bench --scratch-path "$SCRATCH" -Xcc -gdwarf-4 >&2) \
    || { echo "callgrind-encoding.sh: the release build of salvo-bench failed" >&2; exit 1; }
OUT="$(mktemp -d "${TMPDIR:-/tmp}/salvo-callgrind-encoding.XXXXXX")"

total() {
    local name="$1" count="$2" file
    file="$OUT/$(echo "$name" | tr -c 'A-Za-z0-9' '_')-$count.out"
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$file" "$BENCH" --encoding-child "$name" "$count" \
        > /dev/null 2> "$file.err"
    local instructions
    instructions="$(grep -sE '^(summary|totals):' "$file" | head -1 | awk '{ print $2 }')"
    if [ -z "$instructions" ]; then
        echo "callgrind-encoding.sh: valgrind counted nothing for \"$name\":" >&2
        tail -5 "$file.err" >&2
        exit 1
    fi
    echo "$instructions"
}

for name in "$@"; do
    small="$(total "$name" 2000)"
    large="$(total "$name" 10000)"
    echo "$name: $(( (large - small) / 8000 )) instructions per operation"
done
echo "(profiles in $OUT)"
