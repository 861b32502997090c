#!/usr/bin/env bash
# Installs what iaplens needs on a fresh Debian machine with Swift: the system libraries it links, and with
# --tests what the tests need besides (Chromium for the HTML report).
# Safe to run again: it only installs what is missing.
set -euo pipefail

# libcurl4-openssl-dev and ca-certificates: fetch and consumption talk HTTPS to Apple through libcurl.
packages=(libssl-dev libsqlite3-dev libcsv-dev zlib1g-dev libisal-dev libjemalloc-dev libpq-dev libcurl4-openssl-dev ca-certificates)
# The tests also render the HTML reports in a real headless browser (and the charts' font), and recompute fourteen
# report files in Python (scripts/recompute-reports.py).
[ "${1:-}" = "--tests" ] && packages+=(chromium fonts-dejavu-core python3)
missing=()
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: swift is not on PATH (expected /opt/swift/usr/bin)" >&2; exit 1; }
