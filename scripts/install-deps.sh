#!/usr/bin/env bash
# Installs what Tessera needs on Debian/Ubuntu and is missing: C libraries and the tools tests call.
# The Swift toolchain itself must already be on PATH (https://www.swift.org/install/).
set -euo pipefail

# libzint-dev and libqrencode-dev: barcodes; zint (the CLI): the barcode benchmark's comparison.
# librsvg2-dev (with cairo) and fonts-dejavu-core: PNG pass previews.
# postgresql: the PostgresStore tests' throwaway server (scripts/postgres.sh).
# libengine-pkcs11-openssl: OpenSSL's pkcs11 engine, through which keys in a PKCS#11 module sign; softhsm2: the software
# module the PKCS#11 tests create a token in.
# procps: pgrep, with which scripts/test.sh ends a stalled run and everything it started.
packages=(libssl-dev openssl zlib1g-dev pkg-config ca-certificates libzint-dev libqrencode-dev zint librsvg2-dev fonts-dejavu-core
    postgresql libengine-pkcs11-openssl softhsm2 procps)
command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1 || packages+=(python3 python3-pip)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing: ${missing[*]}"
    # shellcheck source=scripts/apt-install.sh
    . "$(dirname "$0")/apt-install.sh"
    apt_install "${missing[@]}"
fi

# shellcheck source=scripts/pip-install.sh
. "$(dirname "$0")/pip-install.sh"

if ! command -v swift >/dev/null 2>&1; then
    echo "error: swift is not on PATH; install the Swift toolchain first (https://www.swift.org/install/)" >&2
    exit 1
fi

# The barcode tests read every rendered barcode back with zxing-cpp (from PyPI), a decoder independent of zint and
# libqrencode; Pillow opens the PNGs for it.
if ! python3 -c "import zxingcpp, PIL" >/dev/null 2>&1; then
    echo "==> installing zxing-cpp and pillow (barcode tests)"
    pip_install 'zxing-cpp>=3.1,<4' 'pillow>=11,<14'
fi

# The Google Wallet tests check every template's class and object against Google's discovery document (shipped in
# google-api-python-client) and verify save links' JWTs with PyJWT, implementations independent of Tessera's.
if ! python3 -c "import googleapiclient, jwt, cryptography" >/dev/null 2>&1; then
    echo "==> installing google-api-python-client, PyJWT and cryptography (Google Wallet tests)"
    pip_install 'google-api-python-client>=2.150,<3' 'PyJWT[crypto]>=2.8,<3' 'cryptography>=42,<49'
fi

# The OpenAPI fuzzing test runs schemathesis (from PyPI) against a tessera serve child.
if ! command -v st >/dev/null 2>&1 || ! python3 -c "import schemathesis" >/dev/null 2>&1; then
    echo "==> installing schemathesis (OpenAPI fuzzing test)"
    pip_install 'schemathesis>=4.30,<5'
fi
