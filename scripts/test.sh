#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, then `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
swift test "$@"
