#!/usr/bin/env bash
# Builds iaplens in release mode and installs the one self-contained binary (the SQL models are built into it)
# as <prefix>/bin/iaplens. Usage: scripts/install.sh [--prefix /usr/local]
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="$2"; shift 2 ;;
        *) echo "install: unknown option $1 (usage: scripts/install.sh [--prefix DIR])" >&2; exit 2 ;;
    esac
done
swift build -c release --product iaplens
mkdir -p "$prefix/bin"
install -m 755 "$(swift build -c release --show-bin-path)/iaplens" "$prefix/bin/iaplens"
echo "installed $prefix/bin/iaplens ($("$prefix/bin/iaplens" --version))"
