#!/usr/bin/env bash
# Builds the DocC documentation of Salvo and SalvoBulk.
#
#   Scripts/docs.sh
#
# 1. `swift build --target SalvoBulk` (Salvo too), in the ordinary debug configuration, so
#    after Scripts/test.sh's own build nothing is compiled again.
# 2. swift-symbolgraph-extract reads each module's public symbols, and their doc comments,
#    from the built modules into .build/docs/symbol-graphs/<Module>. Salvo's graph keeps
#    the engine's public types it re-exports (TransferMetrics, HTTPVersionPolicy,
#    CurlError) and leaves out Foundation, which it re-exports too. (The compiler's own
#    -emit-symbol-graph would change the build's flags, so recompile, and would take in all
#    of Foundation.)
# 3. Scripts/check-doc-comments.py fails if a public or open declaration has no doc comment,
#    or one that does not open with a summary line.
# 4. `docc convert` turns each catalog (Sources/<Module>/<Module>.docc) and its graphs into
#    .build/docs/<Module>.doccarchive, ready for a static web server: serve
#    .build/docs/<Module>.doccarchive at /<Module>/ and open /<Module>/documentation/<module>.
#    Every DocC warning (a link that does not resolve, a documented parameter the
#    signature does not have) fails the script.
#
# Uses only the toolchain's own tools: docc and swift-symbolgraph-extract beside `swift`
# (DOCC overrides the first), and python3 for the comment check.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="$ROOT/.build/docs"

SWIFT="$(command -v swift || echo /opt/swift/usr/bin/swift)"
TOOLS="$(dirname "$(readlink -f "$SWIFT")")"
DOCC="${DOCC:-$TOOLS/docc}"
EXTRACT="$TOOLS/swift-symbolgraph-extract"
for tool in "$DOCC" "$EXTRACT"; do
    [[ -x "$tool" ]] || { printf 'docs.sh: %s is missing from the toolchain\n' "$tool" >&2; exit 1; }
done

swift build --target SalvoBulk
BIN="$(swift build --show-bin-path)"
TRIPLE="$(basename "$(dirname "$BIN")")"

# The module maps of the C modules Salvo imports internally, which loading it needs
# (as in Tests/ClientCode/check.sh).
INCLUDES=(-I "$BIN/Modules" -I Sources/CCurl -I Sources/CSalvoHeaders/include
          -I Sources/CSalvoTLS/include -I Sources/CZlib -I Sources/CCrypto)

# extract MODULE DIR [FLAGS...]: MODULE's public symbol graphs into DIR.
extract() {
    local module="$1" dir="$2"; shift 2
    rm -rf "$dir"
    mkdir -p "$dir"
    "$EXTRACT" -module-name "$module" -target "$TRIPLE" "${INCLUDES[@]}" \
        -minimum-access-level public -emit-extension-block-symbols \
        -output-dir "$dir" "$@"
}

MODULES=(Salvo SalvoBulk)
for module in "${MODULES[@]}"; do
    reexports=()
    [[ "$module" == Salvo ]] && reexports=(-experimental-allowed-reexported-modules=SalvoEngine)
    extract "$module" "$OUT/symbol-graphs/$module" "${reexports[@]}"
    # Without the comments a declaration inherits from a protocol, for the check.
    extract "$module" "$OUT/symbol-graphs-own/$module" "${reexports[@]}" -skip-inherited-docs
done

python3 "$ROOT/Scripts/check-doc-comments.py" "$OUT"/symbol-graphs-own/*

status=0
for module in "${MODULES[@]}"; do
    printf '==> docc convert %s\n' "$module"
    rm -rf "$OUT/$module.doccarchive"
    log="$OUT/$module.log"
    set +e
    "$DOCC" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$OUT/symbol-graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.salvo.$module" \
        --output-path "$OUT/$module.doccarchive" \
        --transform-for-static-hosting --hosting-base-path "$module" \
        --warnings-as-errors 2>&1 | tee "$log"
    result=${PIPESTATUS[0]}
    set -e
    if [[ $result -ne 0 ]] || grep -E '(^|: )(warning|error): ' "$log" >/dev/null; then
        printf 'docs.sh: DocC reported problems with %s (see %s)\n' "$module" "$log" >&2
        status=1
    fi
done
[[ $status -eq 0 ]] || exit 1

for module in "${MODULES[@]}"; do
    printf 'docs.sh: %s\n' "$OUT/$module.doccarchive"
done
