#!/usr/bin/env bash
# Counts the instructions one dispatch client spends per request, with valgrind's callgrind:
# the steady measure on a noisy machine, where wall-clock ratios move by ±0.15 between runs.
#
#   Benchmarks/callgrind.sh [CLIENT] [h1|h2c] [IN_FLIGHT]
#
# CLIENT is any of salvo-bench's dispatch clients (salvo, salvo-async, salvo-decodable,
# curl-poll, curl-epoll, curl-headers, ...; default salvo). Runs the client twice under callgrind, for 2,000 and for
# 10,000 requests, against the test harness's nginx (Tests/Servers/testservers.py), and prints
# (I(10000) - I(2000)) / 8000: the marginal instructions per request, start-up excluded (about
# ±500 from run to run; 1,000 and 4,000 requests gave ±1,500). The profiles stay in a temporary
# directory, printed at the end, for callgrind_annotate.
#
# For a Salvo client it then prints Salvo's own instructions per request: its count minus the C
# driver's that sends the same bytes (curl-headers: Alamofire's default headers; curl-poll for
# salvo-bare) minus Foundation's HTTPURLResponse initializer (inclusive), which reading
# `response.response` costs. That measures the C driver too, doubling the run time. It also
# shows how much of Salvo's share is Foundation work Alamofire's behaviour asks for (reading
# the configuration's HTTPCookieStorage, posting the request notifications), not subtracted.
#
# The child runs with SWIFT_DETERMINISTIC_HASHING=1: Swift seeds its hashing per process, and
# Foundation's HTTPURLResponse looks up Content-Length, Content-Type and Content-Disposition by
# walking its header dictionary in hash order, so the realistic row's count moved by thousands
# of instructions from one process to the next. It asks for no timing after the requests
# (SALVO_BENCH_REQUESTS_ONLY=1), which would otherwise be counted too, nor the time of each
# request, whose clock readings the Swift and C clients make differently.
#
# Builds its own release salvo-bench into .build/callgrind (the first time, a few minutes), with
# C code's debug information in DWARF 4: Debian 12's valgrind 3.19 gives up on the DWARF 5 that
# the toolchain's clang writes by default for the C targets. Needs the test venv
# (Scripts/setup.sh) and valgrind (apt-get install valgrind).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLIENT="${1:-salvo}"
PROTOCOL="${2:-h1}"
INFLIGHT="${3:-16}"
SCRATCH="$ROOT/.build/callgrind"
BENCH="$SCRATCH/release/salvo-bench"
PYTHON="$ROOT/.build/testenv/bin/python"

command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
(cd "$ROOT" && swift build -c release --product salvo-bench --scratch-path "$SCRATCH" -Xcc -gdwarf-4 >&2) \
    || { echo "callgrind.sh: the release build of salvo-bench failed" >&2; exit 1; }
[ -x "$PYTHON" ] || { echo "callgrind.sh: run Scripts/setup.sh first (test servers' venv)" >&2; exit 1; }

OUT="$(mktemp -d "${TMPDIR:-/tmp}/salvo-callgrind.XXXXXX")"
# The servers run while their standard input stays open (--watch-stdin), and stop when it
# closes, also if this script is killed.
exec 3> >(exec "$PYTHON" "$ROOT/Tests/Servers/testservers.py" --watch-stdin > "$OUT/servers.json" 2> "$OUT/servers.err")
for _ in $(seq 100); do
    [ -s "$OUT/servers.json" ] && break
    sleep 0.1
done
[ -s "$OUT/servers.json" ] || { echo "callgrind.sh: the test servers did not start: $(cat "$OUT/servers.err")" >&2; exit 1; }
SERVER="nginx"
[ "$PROTOCOL" = "h2c" ] && SERVER="nginxH2C"
URL="$("$PYTHON" -c "import json,sys; print(json.load(open(sys.argv[1]))['servers'][sys.argv[2]]['url'])" "$OUT/servers.json" "$SERVER")"

# The decoding row reads a JSON object; every other row /small (same file headers).
RESOURCE="small"
[ "$CLIENT" = "salvo-decodable" ] && RESOURCE="small.json"

total() {
    SALVO_BENCH_REQUESTS_ONLY=1 SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$OUT/$CLIENT-$1.out" "$BENCH" --child "$CLIENT" \
        --url "$URL/$RESOURCE" --protocol "$PROTOCOL" --count "$1" --inflight "$INFLIGHT" --warmup 200 \
        > /dev/null 2> "$OUT/$CLIENT-$1.err"
    local count
    count="$(grep -sE '^(summary|totals):' "$OUT/$CLIENT-$1.out" | head -1 | awk '{ print $2 }')"
    if [ -z "$count" ]; then
        echo "callgrind.sh: valgrind counted nothing for $1 requests:" >&2
        tail -5 "$OUT/$CLIENT-$1.err" >&2
        exit 1
    fi
    echo "$count"
}

# Instructions spent inside one function (inclusive) in a profile: 0 when it was not called.
inclusive() {
    callgrind_annotate --inclusive=yes --threshold=100 "$OUT/$2-$1.out" 2>/dev/null \
        | awk -v symbol="$3" 'found == "" && index($0, symbol) { found = $1; gsub(",", "", found) }
                               END { print (found == "" ? 0 : found) }'
}

# A function's inclusive instructions per request: between the two runs, as the totals.
marginal() {
    echo $(( ($(inclusive 10000 "$1" "$2") - $(inclusive 2000 "$1" "$2")) / 8000 ))
}

CLIENT_RUN="$CLIENT"
small="$(total 2000)"
large="$(total 10000)"
per_request=$(( (large - small) / 8000 ))
echo "$CLIENT, $PROTOCOL, $INFLIGHT in flight: $per_request instructions per request (profiles in $OUT)"

# For the Salvo rows: Salvo's own share, net of the C driver that sends the same bytes
# (curl-headers, or curl-poll for salvo-bare) and of Foundation's HTTPURLResponse initializer,
# which reading `response.response` costs and Salvo cannot change. SALVO_CALLGRIND_OWN=0 skips it.
case "$CLIENT" in
salvo*)
    if [ "${SALVO_CALLGRIND_OWN:-1}" != 0 ]; then
        BASELINE="curl-headers"
        [ "$CLIENT" = "salvo-bare" ] && BASELINE="curl-poll"
        INITIALIZER='HTTPURLResponseC3url10statusCode11httpVersion12headerFields'
        foundation=$(marginal "$CLIENT" "$INITIALIZER")
        # A row that never reads `response.response` builds none (salvo-noread, salvo-bare).
        [ "$foundation" -gt 0 ] || echo "callgrind.sh: no HTTPURLResponse initializer in the profile; counted as 0" >&2
        CLIENT="$BASELINE"
        c_small="$(total 2000)"
        c_large="$(total 10000)"
        c_per_request=$(( (c_large - c_small) / 8000 ))
        echo "$BASELINE (the C driver, the same bytes sent): $c_per_request instructions per request"
        echo "Foundation's HTTPURLResponse initializer: $foundation instructions per request"
        echo "Salvo's own: $(( per_request - c_per_request - foundation )) instructions per request ($CLIENT_RUN, $PROTOCOL, $INFLIGHT in flight)"
        # Foundation calls inside that share which Alamofire's behaviour makes, as URLSession
        # makes them for Alamofire: reading the configuration's cookie storage, and posting
        # the request notifications. Shown, not subtracted.
        COOKIES='HTTPCookieStorageC7cookies3for'
        POSTS='NotificationCenterC5_post_7subject7message'
        cookies=$(marginal "$CLIENT_RUN" "$COOKIES")
        posts=$(marginal "$CLIENT_RUN" "$POSTS")
        echo "  of which Foundation's HTTPCookieStorage.cookies(for:) $cookies and NotificationCenter posts $posts"
    fi
    ;;
esac
exec 3>&-
