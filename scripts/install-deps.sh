#!/usr/bin/env bash
# Installs what Tessera needs on Debian/Ubuntu and is missing: C libraries and the tools tests call.
# The Swift toolchain itself must already be on PATH (https://www.swift.org/install/).
set -euo pipefail

packages=(libssl-dev openssl zlib1g-dev pkg-config ca-certificates)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "error: swift is not on PATH; install the Swift toolchain first (https://www.swift.org/install/)" >&2
    exit 1
fi
