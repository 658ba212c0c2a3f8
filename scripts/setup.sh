#!/usr/bin/env bash
# One command from a fresh clone: install what is missing, build, and run the main job on the embedded
# defaults: a development certificate chain, one signed pass per template in out/, each verified.
set -euo pipefail
cd "$(dirname "$0")/.."

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
exit $status
