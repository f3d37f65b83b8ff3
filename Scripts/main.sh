#!/usr/bin/env bash
# Runs Salvo's main job: the bulk download tool `salvo`.
#
#   Scripts/main.sh                      the loopback default (below)
#   Scripts/main.sh URL ...              salvo on real input: every argument goes to salvo,
#   Scripts/main.sh -i list.txt -c ...     e.g. Scripts/main.sh --help
#   Scripts/main.sh bench [ARGS]         the benchmark suite salvo-bench (Benchmarks/README.md)
#   Scripts/main.sh dispatch|encoding|transfers [ARGS]   salvo-bench with that suite, as before
#
# Every form first installs what is missing (Scripts/setup.sh; as root on a fresh machine)
# and builds in release mode. SALVO_SCRATCH_PATH picks SwiftPM's build directory (default
# .build, so the tool is .build/release/salvo).
#
# The loopback default: a local nginx on 127.0.0.1 serves a generated set of 1000 files of
# 100 KiB and 4 of 64 MiB (made once into .build/main-job-data, with a SHA256SUMS list);
# salvo fetches all of them from an aria2 input list carrying each file's sha-256, with its
# progress display on a terminal, and its summary; `sha256sum -c` then checks every file.
# Then the same set again, each row labelled with what it guarantees: curl --parallel
# --parallel-max 16 followed by sha256sum -c and a flush of each file (salvo's guarantees by
# hand), aria2c with the same checksums (when installed), salvo --no-fsync without checksums
# and plain curl --parallel (neither verifies nor flushes). Wall and CPU times are printed side
# by side, with the like-for-like ratios. The output directories are removed and nginx is
# stopped at the end, however the script ends short of SIGKILL (nginx dies with it even then).
# Exit status: salvo's when it failed, 1 when a file did not verify, else 0.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SCRATCH="${SALVO_SCRATCH_PATH:-$ROOT/.build}"
case "$SCRATCH" in /*) ;; *) SCRATCH="$ROOT/$SCRATCH" ;; esac

log() { printf 'main.sh: %s\n' "$*" >&2; }

# Build output goes to standard error, so salvo's own standard output (--json, a manifest
# on -) stays clean for a pipe.
build() { swift build -c release --scratch-path "$SCRATCH" --product "$1" >&2; }

# ---- the benchmark, and the tool on real input --------------------------------
case "${1-}" in
    bench)
        shift
        "$ROOT/Scripts/setup.sh"
        # The transfers suite runs the salvo tool from beside salvo-bench.
        build salvo-bench
        build salvo
        exec "$SCRATCH/release/salvo-bench" "$@" ;;
    dispatch|encoding|transfers)
        "$ROOT/Scripts/setup.sh"
        build salvo-bench
        build salvo
        exec "$SCRATCH/release/salvo-bench" "$@" ;;
esac
if [[ $# -gt 0 ]]; then
    "$ROOT/Scripts/setup.sh"
    build salvo
    exec "$SCRATCH/release/salvo" "$@"
fi

# ---- the loopback default -----------------------------------------------------
SMALL_COUNT=1000
SMALL_SIZE=$((100 * 1024))
LARGE_COUNT=4
LARGE_SIZE=$((64 * 1024 * 1024))
CURL_PARALLEL=16
DATA="$SCRATCH/main-job-data"
# The layout, in the stamp: a change here regenerates the set.
LAYOUT="v1 $SMALL_COUNT x $SMALL_SIZE, $LARGE_COUNT x $LARGE_SIZE"

"$ROOT/Scripts/setup.sh"
build salvo
SALVO="$SCRATCH/release/salvo"
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

# The data set: pseudo-random bytes, different in every file, generated once.
if [[ "$(cat "$DATA/.complete" 2>/dev/null)" != "$LAYOUT" ]]; then
    log "generating the data set in $DATA (once)"
    rm -rf "$DATA"
    mkdir -p "$DATA"
    /usr/bin/python3 - "$DATA" "$SMALL_COUNT" "$SMALL_SIZE" "$LARGE_COUNT" "$LARGE_SIZE" <<'PY'
import os, random, sys
data, small_count, small_size, large_count, large_size = sys.argv[1], *map(int, sys.argv[2:])
generator = random.Random(0x5A1F0)
def write(name, size):
    with open(os.path.join(data, name), "wb") as file:
        for offset in range(0, size, 1 << 20):
            file.write(generator.randbytes(min(1 << 20, size - offset)))
for index in range(large_count):
    write(f"large-{index}.bin", large_size)
for index in range(small_count):
    write(f"small-{index:04d}.bin", small_size)
PY
    (cd "$DATA" && sha256sum -- large-*.bin small-*.bin > SHA256SUMS)
    printf '%s\n' "$LAYOUT" > "$DATA/.complete"
fi

RUN="$(mktemp -d "$SCRATCH/main-job-run.XXXXXX")"
NGINX_PID=""
cleanup() {
    if [[ -n "$NGINX_PID" ]]; then
        kill "$NGINX_PID" 2>/dev/null || true
        wait "$NGINX_PID" 2>/dev/null || true
    fi
    rm -rf "$RUN"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A minimal nginx of our own: one process (no master), every file it writes in $RUN, the
# data set as its root, sendfile. setpriv --pdeathsig: it gets SIGKILL if this script dies
# without running its trap.
mkdir -p "$RUN/nginx"
start_nginx() {
    local port="$1"
    cat > "$RUN/nginx/nginx.conf" <<EOF
master_process off;
daemon off;
pid $RUN/nginx/nginx.pid;
error_log $RUN/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    server_tokens off;
    sendfile on;
    tcp_nodelay on;
    keepalive_timeout 60s;
    keepalive_requests 100000;
    default_type application/octet-stream;
    client_body_temp_path $RUN/nginx/client_body;
    proxy_temp_path $RUN/nginx/proxy;
    fastcgi_temp_path $RUN/nginx/fastcgi;
    uwsgi_temp_path $RUN/nginx/uwsgi;
    scgi_temp_path $RUN/nginx/scgi;
    server {
        listen 127.0.0.1:$port backlog=4096;
        root $DATA;
    }
}
EOF
    setpriv --pdeathsig KILL -- "$NGINX" -p "$RUN/nginx" -e "$RUN/nginx/error.log" -c "$RUN/nginx/nginx.conf" \
        </dev/null >/dev/null 2>>"$RUN/nginx/stderr" &
    NGINX_PID=$!
    local _
    for _ in $(seq 100); do
        if curl -fsS -o /dev/null "http://127.0.0.1:$port/SHA256SUMS" 2>/dev/null; then return 0; fi
        kill -0 "$NGINX_PID" 2>/dev/null || break
        sleep 0.05
    done
    kill "$NGINX_PID" 2>/dev/null || true
    wait "$NGINX_PID" 2>/dev/null || true
    NGINX_PID=""
    return 1
}
# The port is picked free, then bound by nginx: someone may take it in between, so try again.
PORT=""
for _ in 1 2 3 4 5; do
    candidate="$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    if start_nginx "$candidate"; then PORT="$candidate"; break; fi
done
if [[ -z "$PORT" ]]; then
    log "nginx did not start: $(tail -n 5 "$RUN/nginx/error.log" "$RUN/nginx/stderr" 2>/dev/null)"
    exit 1
fi
BASE="http://127.0.0.1:$PORT"

# The aria2 input lists (with and without each file's sha-256) for salvo and aria2c, and a
# config file for curl, in the same order (the large files first, so they are not the tail
# of the run).
while read -r sum name; do
    printf '%s/%s\n  checksum=sha-256=%s\n' "$BASE" "$name" "$sum" >> "$RUN/urls.txt"
    printf '%s/%s\n' "$BASE" "$name" >> "$RUN/plain-urls.txt"
    printf 'url = "%s/%s"\noutput = "%s"\n' "$BASE" "$name" "$name" >> "$RUN/curl.cfg"
done < "$DATA/SHA256SUMS"
FILES=$((SMALL_COUNT + LARGE_COUNT))
TOTAL_BYTES=$((SMALL_COUNT * SMALL_SIZE + LARGE_COUNT * LARGE_SIZE))
printf 'salvo main job: %d files (%d x 100 KiB, %d x 64 MiB; %d MiB) from nginx at %s\n\n' \
    "$FILES" "$SMALL_COUNT" "$LARGE_COUNT" $((TOTAL_BYTES / 1048576)) "$BASE"

# The set is read once before any tool runs, so each finds it in the page cache: the one
# that went first would otherwise pay for nginx reading it from the disk (the machine may have
# reclaimed it since it was generated).
cat "$DATA"/large-*.bin "$DATA"/small-*.bin > /dev/null

# Times: bash's `time` keyword, wall and the CPU (user, system) of everything it ran.
TIMEFORMAT='%3R %3U %3S'
exec 4>&2

verify() {  # DIR LABEL: every file of the set, and nothing else, with the right digest
    local count
    count="$(find "$1" -type f | wc -l)"
    if (cd "$1" && sha256sum -c --quiet --strict "$DATA/SHA256SUMS") && [[ "$count" -eq "$FILES" ]]; then
        printf 'sha256sum -c: all %d files of %s verified\n' "$FILES" "$2"
        return 0
    fi
    printf 'sha256sum -c: %s FAILED verification (%d files in its directory, %d expected)\n' "$2" "$count" "$FILES"
    return 1
}

# Each row: a tool, or a tool and what gives it the same guarantees by hand, timed as one.
# Rows are compared with the row that guarantees the same (the table says what each does).
ROWS=()
row_status=()
run_row() {  # KEY LABEL GUARANTEES COMMAND...: times COMMAND into $RUN/KEY.time
    local key="$1" label="$2" guarantees="$3"
    shift 3
    mkdir -p "$RUN/$key"
    printf '\n== %s  [%s]\n' "$label" "$guarantees"
    local status=0
    { time "$@" 2>&4; } 2> "$RUN/$key.time" || status=$?
    printf '%s exited with %d\n' "$label" "$status"
    ROWS+=("$key|$label|$guarantees")
    row_status+=("$status")
    return 0
}

# salvo, as it runs by default: every file checked against its sha-256 and flushed to the
# disk before its rename. On a terminal its progress display shows; off one, its line per file
# goes to a log and only the failures and the summary are shown.
salvo_default() {
    if [[ -t 1 ]]; then
        "$SALVO" -i "$RUN/urls.txt" -d "$RUN/salvo"
    else
        local status=0
        "$SALVO" -i "$RUN/urls.txt" -d "$RUN/salvo" > "$RUN/salvo.log" || status=$?
        grep -v '^done  ' "$RUN/salvo.log" || true
        printf '(%d "done" lines not shown)\n' "$(grep -c '^done  ' "$RUN/salvo.log" || true)"
        return "$status"
    fi
}
run_row salvo "salvo -i urls.txt" "sha-256 verified, flushed" salvo_default
salvo_status="${row_status[0]}"
salvo_verified=0
verify "$RUN/salvo" salvo || salvo_verified=1
rm -rf "$RUN/salvo"

# curl with the same guarantees by hand: the files, then sha256sum -c, then each file flushed
# (coreutils sync with file names fsyncs each one, as salvo does).
curl_checked() {
    curl --parallel --parallel-max "$CURL_PARALLEL" --fail --silent --show-error --no-progress-meter \
        --output-dir "$RUN/curl-checked" --config "$RUN/curl.cfg" || return
    (cd "$RUN/curl-checked" && sha256sum -c --quiet --strict "$DATA/SHA256SUMS" && sync -- *)
}
run_row curl-checked "curl --parallel + sha256sum -c + sync" "sha-256 verified, flushed" curl_checked
verify "$RUN/curl-checked" "curl + sha256sum -c + sync" || true
rm -rf "$RUN/curl-checked"

# aria2c with the same checksums (it checks each file's sha-256 once it is complete; it does
# not flush), when installed.
if command -v aria2c > /dev/null; then
    run_row aria2c "aria2c -j $CURL_PARALLEL -i urls.txt" "sha-256 verified, not flushed" \
        aria2c --no-conf=true -i "$RUN/urls.txt" -d "$RUN/aria2c" -j "$CURL_PARALLEL" --allow-overwrite=true \
        --auto-file-renaming=false --file-allocation=none --quiet=true
    verify "$RUN/aria2c" aria2c || true
    rm -rf "$RUN/aria2c"
fi

# salvo with curl's guarantees: no checksums given, nothing flushed.
run_row salvo-plain "salvo --no-fsync -i plain-urls.txt" "not verified, not flushed" \
    "$SALVO" --no-fsync --quiet -i "$RUN/plain-urls.txt" -d "$RUN/salvo-plain"
verify "$RUN/salvo-plain" "salvo --no-fsync" || true
rm -rf "$RUN/salvo-plain"

# curl alone.
run_row curl "curl --parallel --parallel-max $CURL_PARALLEL" "not verified, not flushed" \
    curl --parallel --parallel-max "$CURL_PARALLEL" --fail --silent --show-error --no-progress-meter \
    --output-dir "$RUN/curl" --config "$RUN/curl.cfg"
curl_verified=0
verify "$RUN/curl" curl || curl_verified=1
rm -rf "$RUN/curl"

printf '\n'
{
    for index in "${!ROWS[@]}"; do
        IFS='|' read -r key label guarantees <<< "${ROWS[$index]}"
        read -r wall user sys < "$RUN/$key.time"
        printf '%s|%s|%s|%s|%s|%s|%s\n' "$key" "$label" "$guarantees" "$wall" "$user" "$sys" "${row_status[$index]}"
    done
} | awk -F'|' -v bytes="$TOTAL_BYTES" '
{
    key[NR] = $1; label[NR] = $2; guarantee[NR] = $3; wall[NR] = $4; cpu[NR] = $5 + $6; status[NR] = $7
    row[$1] = NR
}
END {
    printf "%-40s %-30s %8s %8s %8s\n", "", "guarantees", "wall s", "CPU s", "MiB/s"
    for (i = 1; i <= NR; i++)
        printf "%-40s %-30s %8.3f %8.3f %8.0f%s\n", label[i], guarantee[i], wall[i], cpu[i], (wall[i] > 0 ? bytes / 1048576 / wall[i] : 0),
            status[i] == 0 ? "" : "  (failed: exit " status[i] ")"
    printf "\nlike for like (wall x, CPU x):\n"
    compare("salvo", "curl-checked", "salvo / (curl + sha256sum -c + sync), both verified and flushed")
    compare("salvo", "aria2c", "salvo / aria2c, both verified (aria2c does not flush)")
    compare("salvo-plain", "curl", "salvo --no-fsync / curl, neither verified nor flushed")
}
function compare(mine, theirs, text) {
    if (!(mine in row) || !(theirs in row)) return
    a = row[mine]; b = row[theirs]
    if (wall[b] > 0 && cpu[b] > 0)
        printf "  %-70s %6.2f %6.2f\n", text, wall[a] / wall[b], cpu[a] / cpu[b]
}'

[[ $curl_verified -eq 0 ]] || log "warning: the curl baseline did not complete; its times mean little"
if [[ $salvo_status -ne 0 ]]; then
    log "salvo failed (exit status $salvo_status)"
    exit "$salvo_status"
fi
if [[ $salvo_verified -ne 0 ]]; then
    log "salvo's files did not verify"
    exit 1
fi
