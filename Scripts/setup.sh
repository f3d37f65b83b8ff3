#!/usr/bin/env bash
# Installs what Salvo's build and tests need, and nothing that is already there.
#
#   Scripts/setup.sh
#
# 1. Debian packages (needs root; `apt-get update` runs only when one is
#    missing): libcurl and its headers for the CCurl module, nginx for the
#    test servers, Slurm and MUNGE for a one-node cluster in the tests, CMake
#    and Ninja for the CMake build, python3-venv.
# 2. A Python virtual environment at .build/testenv with httpbin and gunicorn
#    (pinned in Tests/Servers/requirements.txt). A virtual environment, not
#    system pip: Debian's python is "externally managed" and refuses it.
#
# Idempotent. When nothing changed since the last successful run (a stamp
# keyed on a hash of this script and the requirements) and every package is
# still installed, it returns in a fraction of a second.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.build/testenv"
REQUIREMENTS="$ROOT/Tests/Servers/requirements.txt"
STAMP="$VENV/.salvo-setup-stamp"

# libcurl4-openssl-dev, zlib1g-dev, libssl-dev: curl's headers and what its
#   pkg-config file names for static links.
# nginx-light: nginx with the http_v2 module (h2c tests).
# cmake, ninja-build: the CMake build of the package.
# pkg-config: SwiftPM and CMake find libcurl through it.
# python3, python3-venv: Debian's python, used for the test environment.
# curl, aria2: the curl tool and aria2c, outside baselines of salvo-bench's transfers suite
#   (libcurl's -dev package does not bring the curl tool).
# procps: pgrep, with which Scripts/test.sh checks that the tests left no server running; a
#   minimal Debian image lacks it, and the check would then pass without looking.
# openssl: the command, with which the test servers make a CA and a certificate for nginx's
#   TLS port (libssl-dev brings the library only).
# slurm-wlm, munge: a real one-node Slurm (slurmctld, slurmd, sbatch, squeue, scontrol, and
#   MUNGE for their authentication) that Tests/Servers/slurm.sh starts in a scratch folder, so
#   the Slurm array example runs under Slurm itself; slurm-wlm brings slurm-client, and munge
#   is named because the script runs munged directly.
# tinyproxy: a real HTTP proxy (CONNECT too) that the bulk tool's proxy tests start on a free
#   loopback port with a config of their own, reading its log to see what went through it.
# groff-base, man-db: groff and man, with which the tests check that the salvo(1) page
#   (Documentation/salvo.1) renders without a warning (`man -l`, `groff -ww -man`).
APT_PACKAGES=(libcurl4-openssl-dev zlib1g-dev libssl-dev nginx-light cmake ninja-build
              pkg-config python3 python3-venv curl aria2 procps openssl slurm-wlm munge tinyproxy
              groff-base man-db)

# Debian's interpreter, by path: a python3 earlier on PATH (pyenv, conda)
# may lack venv or differ between machines.
PYTHON=/usr/bin/python3

log() { printf 'setup: %s\n' "$*" >&2; }

missing_apt_packages() {
    local package
    for package in "${APT_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^ii'; then
            printf '%s\n' "$package"
        fi
    done
}

stamp_value() {
    cat "${BASH_SOURCE[0]}" "$REQUIREMENTS" | sha256sum | cut -d' ' -f1
}

# ---- fast path --------------------------------------------------------------
mapfile -t MISSING < <(missing_apt_packages)
if [[ ${#MISSING[@]} -eq 0 && -x "$VENV/bin/python" && -f "$STAMP" \
      && "$(cat "$STAMP")" == "$(stamp_value)" ]]; then
    exit 0
fi

# ---- Debian packages ----------------------------------------------------------
if [[ ${#MISSING[@]} -gt 0 ]]; then
    if [[ $(id -u) -ne 0 ]]; then
        log "missing Debian packages: ${MISSING[*]}"
        log "run this script as root (sudo $0), or: sudo apt-get install ${MISSING[*]}"
        exit 1
    fi
    log "installing ${MISSING[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # The tests run nginx, munged, slurmctld and slurmd as binaries with
    # configs of their own; the system services that installing the packages
    # would start are not wanted (nginx's start fails the install when port 80
    # is taken, and munged and the Slurm daemons would keep running with the
    # system's configuration). Debian's documented switch for that is
    # /usr/sbin/policy-rc.d exiting 101, which both invoke-rc.d and
    # deb-systemd-invoke obey; removed again unless it was there before.
    POLICY=/usr/sbin/policy-rc.d
    if [[ ! -e $POLICY ]]; then
        printf '#!/bin/sh\n# Temporary, from Salvo Scripts/setup.sh\nexit 101\n' > "$POLICY"
        chmod 755 "$POLICY"
        trap 'rm -f "$POLICY"' EXIT
    fi
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${MISSING[@]}" </dev/null
fi

# nginx-light has had the http_v2 module in every Debian release so far;
# check anyway, since the h2c tests cannot work without it.
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
if ! "$NGINX" -V 2>&1 | grep -q -- '--with-http_v2_module'; then
    log "this nginx has no http_v2 module; h2c tests need it"
    exit 1
fi

# ---- Python environment for httpbin ------------------------------------------
if [[ ! -x "$VENV/bin/python" ]]; then
    log "creating $VENV"
    mkdir -p "$(dirname "$VENV")"
    "$PYTHON" -m venv "$VENV"
fi
log "installing the test servers' Python packages"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS"
# Fail here, not in the middle of a test run, if the environment is broken.
"$VENV/bin/python" -c 'import httpbin, gunicorn' 2>/dev/null \
    || { log "httpbin or gunicorn does not import in $VENV"; exit 1; }

stamp_value > "$STAMP"
log "done"
