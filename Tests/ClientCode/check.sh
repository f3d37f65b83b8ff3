#!/bin/sh
# Type-checks client code written as for Alamofire (SeedRouter.swift by default) in a given
# Swift language mode against the Salvo module that `swift build` produced.
#
# usage: Tests/ClientCode/check.sh [BUILD_DIR [FILE [MODE]]]
#   BUILD_DIR  the directory holding Modules/Salvo.swiftmodule; .build/debug by default.
#   FILE       the client code to check; SeedRouter.swift here by default.
#   MODE       the language mode, 5 or 6; 5 by default.
#   SWIFTC     the compiler to use; `swiftc` on PATH by default.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=${1:-"$root/.build/debug"}
file=${2:-"$here/SeedRouter.swift"}
mode=${3:-5}
swiftc=${SWIFTC:-swiftc}

if [ ! -f "$build_dir/Modules/Salvo.swiftmodule" ]; then
    echo "check.sh: no Salvo module in $build_dir/Modules; run swift build first" >&2
    exit 2
fi

# Salvo and SalvoEngine import CCurl, CSalvoHeaders, CSalvoTLS, CZlib and CCrypto internally; the client
# needs their module maps to load Salvo's module.
exec "$swiftc" -typecheck -swift-version "$mode" \
    -I "$build_dir/Modules" \
    -I "$root/Sources/CCurl" \
    -I "$root/Sources/CSalvoHeaders/include" \
    -I "$root/Sources/CSalvoTLS/include" \
    -I "$root/Sources/CZlib" \
    -I "$root/Sources/CCrypto" \
    "$file"
