#!/usr/bin/env bash
# One command from a fresh clone: install what is missing, build, and run the main job on the embedded
# defaults: a development certificate chain, one signed pass per template in out/, each verified, then
# `tessera serve` on the embedded SQLite store (./data/tessera.sqlite) with the development credentials.
#
#   scripts/setup.sh              # ... and keep the server running (Ctrl-C stops it)
#   scripts/setup.sh --no-serve   # stop after the passes (for scripts and CI)
set -euo pipefail
cd "$(dirname "$0")/.."
serve=1
[ "${1:-}" = "--no-serve" ] && serve=0

scripts/install-deps.sh

echo "==> building tessera (release)"
swift build -c release --product tessera
tessera="$(swift build -c release --show-bin-path)/tessera"

certs=dev-certs
if [ ! -f "$certs/pass.p12.password" ]; then
    echo "==> creating a development certificate chain in $certs/ (not for production)"
    rm -rf "$certs"
    "$tessera" certs dev --out "$certs"
fi

mkdir -p out
status=0
for template in PassTemplates/*/; do
    name="$(basename "$template")"
    data=()
    [ -f "docs/examples/$name.data.json" ] && data=(--data "docs/examples/$name.data.json")
    echo "==> $name"
    "$tessera" pass create --template "$template" "${data[@]}" \
        --p12 "$certs/pass.p12" --p12-password-file "$certs/pass.p12.password" --wwdr "$certs/wwdr.pem" \
        --output "out/$name.pkpass"
    "$tessera" pass verify "out/$name.pkpass" --wwdr "$certs/wwdr.pem" --root "$certs/root.pem" || status=1
done
echo "==> passes in out/: $(ls out/*.pkpass | tr '\n' ' ')"
[ $status -ne 0 ] && exit $status
[ $serve -eq 0 ] && exit 0

# The server: the issuer API's token is generated once into dev-certs/admin-token (never printed in logs).
[ -f "$certs/admin-token" ] || (umask 077; head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$certs/admin-token")
port="${TESSERA_PORT:-8080}"
echo "==> tessera serve on http://127.0.0.1:$port (SQLite: data/tessera.sqlite); pushes are off until APNs is configured"
echo "    create a pass:  curl -X POST http://127.0.0.1:$port/api/v1/passes -H \"Authorization: Bearer \$(cat $certs/admin-token)\" \\"
echo "                      -H 'Content-Type: application/json' -d '{\"template\":\"event-ticket\",\"data\":{\"fields\":{\"seat\":\"14C\"}}}'"
exec "$tessera" serve --port "$port" --database sqlite:data/tessera.sqlite --templates PassTemplates \
    --p12 "$certs/pass.p12" --p12-password-file "$certs/pass.p12.password" --wwdr "$certs/wwdr.pem" \
    --admin-token-file "$certs/admin-token"
