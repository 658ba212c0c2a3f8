#!/usr/bin/env bash
# Installs what Tessera needs on Debian/Ubuntu and is missing: C libraries and the tools tests call.
# The Swift toolchain itself must already be on PATH (https://www.swift.org/install/).
set -euo pipefail

# libzint-dev and libqrencode-dev: barcodes; zint (the CLI): the barcode benchmark's comparison.
# librsvg2-dev (with cairo) and fonts-dejavu-core: PNG pass previews.
# postgresql: the PostgresStore tests' throwaway server (scripts/postgres.sh).
# libengine-pkcs11-openssl: OpenSSL's pkcs11 engine, through which keys in a PKCS#11 module sign; softhsm2: the software
# module the PKCS#11 tests create a token in.
packages=(libssl-dev openssl zlib1g-dev pkg-config ca-certificates libzint-dev libqrencode-dev zint librsvg2-dev fonts-dejavu-core
    postgresql libengine-pkcs11-openssl softhsm2)
command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1 || packages+=(python3 python3-pip)

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

# The barcode tests read every rendered barcode back with zxing-cpp (from PyPI), a decoder independent of zint and
# libqrencode; Pillow opens the PNGs for it.
if ! python3 -c "import zxingcpp, PIL" >/dev/null 2>&1; then
    echo "==> installing zxing-cpp and pillow (barcode tests)"
    python3 -m pip install --quiet zxing-cpp pillow 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages zxing-cpp pillow
fi

# The Google Wallet tests check every template's class and object against Google's discovery document (shipped in
# google-api-python-client) and verify save links' JWTs with PyJWT, implementations independent of Tessera's.
if ! python3 -c "import googleapiclient, jwt, cryptography" >/dev/null 2>&1; then
    echo "==> installing google-api-python-client, PyJWT and cryptography (Google Wallet tests)"
    python3 -m pip install --quiet google-api-python-client 'PyJWT[crypto]' cryptography 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages google-api-python-client 'PyJWT[crypto]' cryptography
fi

# The OpenAPI fuzzing test runs schemathesis (from PyPI) against a tessera serve child.
if ! command -v st >/dev/null 2>&1 || ! python3 -c "import schemathesis" >/dev/null 2>&1; then
    echo "==> installing schemathesis (OpenAPI fuzzing test)"
    python3 -m pip install --quiet schemathesis 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages schemathesis
fi
