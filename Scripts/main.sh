#!/usr/bin/env bash
# Runs Salvo's main job.
#
#   Scripts/main.sh [arguments for the job]
#
# Installs what is missing first (Scripts/setup.sh; as root on a fresh
# machine). For now the main job is the example program Sources/salvo,
# built in release mode; the benchmark suite replaces it when it lands.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

"$ROOT/Scripts/setup.sh"
exec swift run -c release salvo "$@"
