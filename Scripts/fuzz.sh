#!/usr/bin/env bash
# Builds Salvo's libFuzzer targets and runs them (see Fuzz/README.md).
#
#   Scripts/fuzz.sh [TARGET ...] [-- extra libFuzzer arguments]
#
# TARGET is any of: headers query form resume names (all five when none is named).
#
# 1. Builds .build/fuzz/salvo-fuzz with swiftc: every Sources/Salvo/**/*.swift and
#    Sources/SalvoEngine/*.swift file and Fuzz/*.swift compiled as ONE module (so the harnesses see Salvo's internal types),
#    -O, -sanitize=fuzzer,address, Swift 6 mode. No SwiftPM, no shared scratch path. The
#    build is skipped when the binary is newer than every source and the flags are unchanged.
# 2. Runs each target with -runs=$FUZZ_RUNS on its corpus, .build/fuzz/corpus/<target>
#    (kept between runs), seeded from Fuzz/seeds/<target>. Crash inputs land in
#    .build/fuzz/artifacts/<target>/, logs in .build/fuzz/logs/<sanitizers>/<target>.log.
# 3. Prints, per target, libFuzzer's last lines ("Done N runs in S second(s)" and the final
#    coverage and exec/s), and exits non-zero if the build failed or any target crashed.
#
# Environment:
#   FUZZ_RUNS=N          inputs per target (default 10000000)
#   FUZZ_MAX_TIME=S      also stop each target after S seconds (-max_total_time; unset: no limit)
#   FUZZ_JOBS=N          targets run at once (default 1)
#   FUZZ_SANITIZE=LIST   -sanitize= value (default fuzzer,address; "fuzzer" alone is faster)
#   FUZZ_NICE=N          nice level for the build and the runs (default 19)
#   FUZZ_REBUILD=1       rebuild even when the binary looks current
# Needs only the Swift toolchain and the -dev packages Scripts/setup.sh installs
# (libcurl4-openssl-dev, zlib1g-dev, libssl-dev).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

ALL_TARGETS=(headers query form resume names)
FUZZ_RUNS="${FUZZ_RUNS:-10000000}"
FUZZ_JOBS="${FUZZ_JOBS:-1}"
FUZZ_SANITIZE="${FUZZ_SANITIZE:-fuzzer,address}"
FUZZ_NICE="${FUZZ_NICE:-19}"
OUT="$ROOT/.build/fuzz"

targets=()
extra=()
while (($#)); do
    if [[ "$1" == "--" ]]; then
        shift
        extra=("$@")
        break
    fi
    case " ${ALL_TARGETS[*]} " in
        *" $1 "*) targets+=("$1") ;;
        *) echo "fuzz.sh: unknown target '$1' (targets: ${ALL_TARGETS[*]})" >&2; exit 2 ;;
    esac
    shift
done
((${#targets[@]})) || targets=("${ALL_TARGETS[@]}")

max_len() {
    case "$1" in
        resume|names) echo 2048 ;;
        *) echo 4096 ;;
    esac
}

# --- Build -------------------------------------------------------------------------------

mkdir -p "$OUT"
SRC="$OUT/src-${FUZZ_SANITIZE//,/-}"   # a snapshot of the sources: a file edited mid-build would fail the build
# Every C system-library module Salvo imports (Sources/C*/module.modulemap: CCurl, CZlib,
# ...); their module maps name the libraries to link, and -lcurl -lz are given as well.
c_modules=()
for dir in Sources/C*/; do
    [[ -f "$dir/module.modulemap" ]] && c_modules+=("$(basename "$dir")")
done
# C targets with code of their own (Sources/C*/include/module.modulemap and *.c files, such as
# CSalvoHeaders): their headers are found through include/, their .c files compiled by clang.
c_targets=()
for dir in Sources/C*/; do
    [[ -f "$dir/include/module.modulemap" ]] && c_targets+=("$(basename "$dir")")
done
flags=(-O -gline-tables-only -sanitize="$FUZZ_SANITIZE" -parse-as-library -swift-version 6
       -module-name Salvo -package-name Salvo -module-cache-path "$OUT/module-cache" -lcurl -lz)
for module in "${c_modules[@]}"; do flags+=(-I "$SRC/$module"); done
for target in "${c_targets[@]}"; do flags+=(-I "$SRC/$target/include"); done
# One binary per sanitizer set: salvo-fuzz-fuzzer-address, salvo-fuzz-fuzzer, ...
BIN="$OUT/salvo-fuzz-${FUZZ_SANITIZE//,/-}"
stamp="$BIN.flags"
# The C modules' inline functions are compiled by the Clang importer, which instruments them
# for ASan only when told so itself.
[[ ",$FUZZ_SANITIZE," == *",address,"* ]] && flags+=(-Xcc -fsanitize=address)
# The C targets' .c files get the same sanitizers, with libFuzzer's coverage but not its main.
c_flags=(-O1 -gline-tables-only -fsanitize="${FUZZ_SANITIZE//fuzzer/fuzzer-no-link}")

needs_build=1
if [[ "${FUZZ_REBUILD:-0}" != 1 && -x "$BIN" && -f "$stamp" && -f "$SRC.stamp" && "$(cat "$stamp")" == "${flags[*]}" ]]; then
    newer="$(find Sources/Salvo Sources/SalvoEngine "${c_modules[@]/#/Sources/}" "${c_targets[@]/#/Sources/}" Fuzz -newer "$SRC.stamp" \( -name '*.swift' -o -name '*.h' -o -name '*.c' -o -name '*.modulemap' \) -print -quit)"
    [[ -z "$newer" ]] && needs_build=0
fi
if ((needs_build)); then
    rm -rf "$SRC" "$SRC.stamp" "$BIN"
    mkdir -p "$SRC"
    touch "$SRC.stamp"   # taken before the copy: a later edit makes the next run rebuild
    cp -R Sources/Salvo Sources/SalvoEngine "${c_modules[@]/#/Sources/}" "${c_targets[@]/#/Sources/}" "$SRC/"
    cp -R Fuzz "$SRC/Fuzz"
    mapfile -t sources < <(find "$SRC/Salvo" "$SRC/SalvoEngine" -name '*.swift' | LC_ALL=C sort)
    mapfile -t harness < <(find "$SRC/Fuzz" -maxdepth 1 -name '*.swift' | LC_ALL=C sort)
    objects=()
    for target in "${c_targets[@]}"; do
        for file in "$SRC/$target"/*.c; do
            object="$SRC/$target/$(basename "$file" .c).o"
            if ! clang "${c_flags[@]}" -I "$SRC/$target/include" -c "$file" -o "$object" >>"$BIN.c-build.log" 2>&1; then
                echo "fuzz.sh: compiling $file failed, see $BIN.c-build.log" >&2
                exit 1
            fi
            objects+=("$object")
        done
    done
    echo "fuzz.sh: building $BIN (${#sources[@]} Salvo sources + ${#harness[@]} harness files)"
    start=$SECONDS
    if ! nice -n "$FUZZ_NICE" swiftc "${flags[@]}" "${sources[@]}" "${harness[@]}" "${objects[@]}" -o "$BIN.tmp" >"$BIN.build.log" 2>&1; then
        grep -E "error:" "$BIN.build.log" | head -n 20 >&2 || true
        echo "fuzz.sh: build failed, see $BIN.build.log" >&2
        exit 1
    fi
    mv "$BIN.tmp" "$BIN"
    echo "${flags[*]}" >"$stamp"
    echo "fuzz.sh: built in $((SECONDS - start))s"
else
    echo "fuzz.sh: $BIN is current"
fi

# --- Run ---------------------------------------------------------------------------------

LOGS="$OUT/logs/${FUZZ_SANITIZE//,/-}"
mkdir -p "$LOGS"
run_target() {
    local target="$1"
    local corpus="$OUT/corpus/$target" artifacts="$OUT/artifacts/$target/"
    mkdir -p "$corpus" "$artifacts"
    local dirs=("$corpus")
    [[ -d "Fuzz/seeds/$target" ]] && dirs+=("Fuzz/seeds/$target")
    # Swift's runtime and Foundation keep caches alive to exit: leak reports would be noise.
    # SWIFT_BACKTRACE=enable=no: Swift's own crash handler reads the stack in a way ASan
    # reports as a stack-buffer-underflow, hiding the real crash; libFuzzer prints the stack.
    SALVO_FUZZ_TARGET="$target" SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}" ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
        nice -n "$FUZZ_NICE" "$BIN" -runs="$FUZZ_RUNS" -max_len="$(max_len "$target")" \
        -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$artifacts" \
        ${FUZZ_MAX_TIME:+-max_total_time="$FUZZ_MAX_TIME"} \
        ${extra[@]+"${extra[@]}"} "${dirs[@]}" >"$LOGS/$target.log" 2>&1
}

declare -A pids=()
declare -A status=()
for target in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= FUZZ_JOBS)); do wait -n || true; done
    echo "fuzz.sh: running $target (-runs=$FUZZ_RUNS), log $LOGS/$target.log"
    run_target "$target" &
    pids[$target]=$!
done
for target in "${targets[@]}"; do
    if wait "${pids[$target]}"; then status[$target]=0; else status[$target]=$?; fi
done

failed=0
for target in "${targets[@]}"; do
    log="$LOGS/$target.log"
    echo "== $target (exit ${status[$target]})"
    grep -E "^Done [0-9]+ runs in" "$log" || true
    grep -E "^#[0-9]+[[:space:]]+DONE" "$log" | tail -n 1 || true
    grep -E "^stat::(number_of_executed_units|average_exec_per_sec):" "$log" || true
    if ((status[$target] != 0)); then
        failed=1
        grep -E "^==[0-9]+==ERROR|Fatal error|Precondition failed|deadly signal|SUMMARY|Test unit written to|^artifact_prefix" "$log" | head -n 8 || true
        echo "   FAILED: see $log"
    fi
done
exit "$failed"
