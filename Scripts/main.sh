#!/usr/bin/env bash
# Runs Salvo's main job: the benchmark suite on its loopback default.
#
#   Scripts/main.sh [arguments for salvo-bench, e.g. dispatch --quick]
#
# Installs what is missing first (Scripts/setup.sh; as root on a fresh
# machine), builds in release mode, then runs salvo-bench, which starts its
# own nginx on loopback and compares Salvo with raw libcurl and URLSession in
# the same run. The bulk download tool replaces it as the main job when it lands.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

"$ROOT/Scripts/setup.sh"
swift build -c release --product salvo-bench
exec "$ROOT/.build/release/salvo-bench" "$@"
