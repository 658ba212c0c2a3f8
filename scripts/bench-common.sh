# Shared set-up of the server benchmarks (sourced, not run): release binaries, a work folder whose background
# processes stop when the script ends, and development certificates with an admin token.
#
#   . scripts/bench-common.sh; bench_setup console      # sets bin, work, token; `pids+=($!)` after each background job

bench_setup() {
    bin="${BIN:-.build/release}"
    if [ ! -x "$bin/tessera" ] || [ ! -x "$bin/tessera-bench" ]; then
        swift build -c release --product tessera >&2
        swift build -c release --product tessera-bench >&2
    fi
    work="$(mktemp -d "/tmp/tessera-bench-$1-XXXXXX")"
    pids=()
    trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
    "$bin/tessera" certs dev --out "$work/certs" >/dev/null
    openssl rand -hex 24 >"$work/admin-token"
    token="$(cat "$work/admin-token")"
}
