#!/usr/bin/env bash
# Passes signed per second with the key in a PKCS#11 module (a SoftHSM token made here), next to the same passes
# signed with the key in a file and `openssl speed rsa2048`, in one run of `tessera-bench sign`.
#   BIN=.build/release scripts/bench-pkcs11.sh [extra tessera-bench sign flags, e.g. --rounds 3 --seconds 5]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}

missing=()
for package in softhsm2 libengine-pkcs11-openssl; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing: ${missing[*]}" >&2
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
module=""
for candidate in /usr/lib/softhsm/libsofthsm2.so /usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so /usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so; do
    [ -e "$candidate" ] && { module=$candidate; break; }
done
[ -n "$module" ] || { echo "error: SoftHSM's module not found" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$BIN/tessera" certs dev --out "$work/certs" --pass-type-id pass.dev.tessera.demo >/dev/null
mkdir -p "$work/tokens"
printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$work/tokens" > "$work/softhsm2.conf"
export SOFTHSM2_CONF="$work/softhsm2.conf"
pin=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
printf '%s\n' "$pin" > "$work/pin"
softhsm2-util --init-token --free --label bench --pin "$pin" --so-pin "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')" >/dev/null
openssl pkcs8 -topk8 -nocrypt -in "$work/certs/pass.key" -out "$work/pass.pk8"
softhsm2-util --import "$work/pass.pk8" --token bench --label pass-key --id 01 --pin "$pin" >/dev/null
rm -f "$work/pass.pk8"

echo "module: $module ($(dpkg-query -W -f='${Version}' softhsm2 2>/dev/null || echo '?')), engine: libengine-pkcs11-openssl $(dpkg-query -W -f='${Version}' libengine-pkcs11-openssl 2>/dev/null || echo '?')"
"$BIN/tessera-bench" sign --pkcs11-key "pkcs11:token=bench;object=pass-key" --pkcs11-module "$module" \
    --pkcs11-pin-file "$work/pin" --pkcs11-cert "$work/certs/pass.pem" --pkcs11-wwdr "$work/certs/wwdr.pem" "$@"
