#!/usr/bin/env bash
# Campaign benchmark for docs/benchmarks.md: one campaign changes a field of every pass, with a lock-screen message,
# on a store of PASSES passes and DEVICES devices holding four passes each; its pushes go over HTTP/2 with TLS to a
# loopback APNs stand-in (nghttpd), whose own ceiling h2load measures in the same run.
#
#   scripts/bench-campaign.sh [sqlite|postgres|all]      (default all)
#
# SQLite: one `tessera serve` process. PostgreSQL: two processes on one database, sharing the campaign.
# Reported per store:
#   - the POST's answer time; when every pass had changed and when every device had its push (from the start of the
#     POST); pushes per second as a share of the stand-in's h2load ceiling;
#   - device list requests (wrk, PROBE_CONNECTIONS connections) answered while the campaign runs: p99;
#   - the server's largest resident set (VmRSS, sampled every 0.2 s) from its start to the end of the fetch storm;
#   - then FETCHES device fetches of the changed passes (each signed on its first fetch) at CONNECTIONS connections,
#     as a share of `tessera-bench sign`'s all-core rate measured in the same run;
#   - the storm's ceiling on this machine: fetches of 1,000 cached passes at the same connections, and from them and
#     the signing rate, the most changed passes per second that a signature plus a fetch allow;
#   - before: the same change as one `PATCH /api/v1/passes/...` per pass (a fresh copy of the same store) and the
#     pushes those queue (SKIP_PATCH=1 leaves it out).
# Environment: BIN (release binaries, default .build/release), PASSES (default 100,000), DEVICES (default 250,000),
# CONNECTIONS (default 64), FETCHES (default PASSES), PROBE_CONNECTIONS (default 4), PROBE_SECONDS (default 30),
# BENCH_POSTGRES_PORT (default 54339), APNS_CONNECTIONS (the servers' --apns-connections, default 1 as theirs). PostgreSQL is seeded by scripts/bench-seed-postgres.sh: always 100,000 passes.
# SQLite: KEEP_SEED=FILE keeps a copy of the seeded store; SEED=FILE starts from a copy of such a file instead of seeding
# (it must hold PASSES passes and DEVICES devices). The run's working folder is removed at the end (KEEP_WORK=1 keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-all}"
bin="${BIN:-.build/release}"
passes="${PASSES:-100000}"
devices="${DEVICES:-250000}"
connections="${CONNECTIONS:-64}"
fetches="${FETCHES:-$passes}"
probe_connections="${PROBE_CONNECTIONS:-4}"
probe_seconds="${PROBE_SECONDS:-30}"
case "$mode" in sqlite|postgres|all) ;; *) echo "usage: $0 [sqlite|postgres|all]" >&2; exit 2 ;; esac

missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nghttpd >/dev/null || missing+=(nghttp2-server)
command -v h2load >/dev/null || missing+=(nghttp2-client)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "==> installing ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
if [ ! -x "$bin/tessera" ] || [ ! -x "$bin/tessera-bench" ]; then
    swift build -c release --product tessera >&2
    swift build -c release --product tessera-bench >&2
fi

work="$(mktemp -d /tmp/tessera-bench-campaign-XXXXXX)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"; }
trap cleanup EXIT
wait_for() { for _ in $(seq 1 300); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.2; done; echo "no answer from $1" >&2; return 1; }
now() { date +%s.%N; }

# Credentials made for this run: development Pass Type ID certificate, issuer token, APNs token key, stand-in TLS.
"$bin/tessera" certs dev --out "$work/certs" >/dev/null
credentials=(--cert "$work/certs/pass.pem" --key "$work/certs/pass.key" --wwdr "$work/certs/wwdr.pem")
openssl rand -hex 24 >"$work/admin-token"
token="$(cat "$work/admin-token")"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/apns.p8" 2>/dev/null
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$work/standin.key" -out "$work/standin.pem" 2>/dev/null
mkdir -p "$work/htdocs"
apns_port=18443
# nghttpd writes each upload (every push's body) to a new file in /tmp before echoing it: a file created, written,
# read and unlinked per push, on the disk the server's database is on. That made the stand-in a second writer on the
# benchmark's disk, its rate the disk's (13-17 µs of its CPU per push on a tmpfs against 44-400 µs there, measured).
# APNs shares no disk with the server, so where it can (root, `unshare -m`) the stand-in gets a tmpfs of its own as
# /tmp in a mount namespace of its own; its key and certificate are opened before the mount.
standin_tmpfs=no
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
    unshare -m --propagation private sh -c 'exec 3<"$1" 4<"$2"
        mount -t tmpfs -o size=256m tmpfs /tmp && mkdir /tmp/htdocs &&
        exec nghttpd --echo-upload -d /tmp/htdocs "$3" /dev/fd/3 /dev/fd/4' \
        sh "$work/standin.key" "$work/standin.pem" "$apns_port" >"$work/nghttpd.log" 2>&1 &
    standin_tmpfs=yes
else
    echo "the APNs stand-in writes each push to a file in /tmp on this run (a tmpfs of its own needs root and unshare)" >&2
    nghttpd --echo-upload -d "$work/htdocs" "$apns_port" "$work/standin.key" "$work/standin.pem" >"$work/nghttpd.log" 2>&1 &
fi
pids+=($!)
sleep 0.5
apns_connections="${APNS_CONNECTIONS:-1}"
apns_flags=(--apns-auth token --apns-p8 "$work/apns.p8" --apns-key-id BENCHKEY01 --apns-team-id TESSERA123
            --apns-host localhost --apns-port "$apns_port" --apns-ca-file "$work/standin.pem"
            --apns-connections "$apns_connections")

# The stand-in's ceiling: h2load sending what a pass push is (an empty JSON body, a provider token, the topic) for 10 s
# after a second's warm-up. nghttpd echoes each upload back, so it does the work of reading every push.
printf '{}' >"$work/push.json"
h2load_rate() {
    h2load -D 10 --warm-up-time 1 -c "$1" -m "$2" -t 1 -d "$work/push.json" -H "apns-topic: pass.dev.tessera.demo" \
        -H "authorization: bearer $(head -c 150 /dev/zero | tr '\0' a)" -H "apns-push-type: alert" \
        "https://localhost:$apns_port/3/device/$(printf '%064x' 1)" 2>&1 |
        awk '/^finished in/ {gsub(",", "", $4); print $4}'
}
ceiling="$(h2load_rate 4 100)"
one_connection="$(h2load_rate 1 32)"
echo "APNs stand-in (nghttpd, one worker, /tmp on a tmpfs of its own: $standin_tmpfs) ceiling by h2load: $ceiling pushes/s (4 connections x 100 streams); one connection x 32 streams: $one_connection pushes/s" >&2
# The APNs client's own ceiling against the same stand-in, 32 in flight as the dispatcher sends them, with nothing
# else running: the dispatcher cannot go faster than this.
client_line="$("$bin/tessera-bench" apns --port "$apns_port" --ca-file "$work/standin.pem" --p8 "$work/apns.p8" \
    --pushes 30000 --concurrency $((32 * apns_connections)) --connections "$apns_connections" | tail -1)"
client_rate="$(echo "$client_line" | sed -E 's/.*\| ([0-9]+)\/s.*/\1/')"
client_cpu="$(echo "$client_line" | sed -E 's/.* ([0-9]+) µs CPU per push.*/\1/')"
echo "APNs client alone (tessera-bench apns, 32 in flight): $client_rate pushes/s, $client_cpu µs CPU per push" >&2

# The all-core signing rate, with no server running.
sign_rate="$("$bin/tessera-bench" sign --seconds 5 | awk -F'|' '/signed passes, [0-9]+ threads \(wall clock\)/ {gsub(/ /, "", $3); print $3}')"
echo "tessera-bench sign, all cores: $sign_rate passes/s" >&2

# wrk scripts: device lists (bench-wrk-scripts.sh's list.lua), the fetch storm and the PATCH requests. The storm and
# the PATCHes cover passes OFFSET..OFFSET+COUNT-1 once each across the threads, every thread stopping after its share
# and leaving a file MARKER-<thread> (wrk itself runs to its duration; SIGINT ends it early with its report).
DEVICES="$devices" . "$(dirname "$0")/bench-wrk-scripts.sh" "$work"
each_pass_once() {  # each_pass_once FILE METHOD PATH_FORMAT AUTH_FORMAT BODY
    cat >"$1" <<LUA
counter = 0
setup = function(thread) thread:set("tid", counter); counter = counter + 1 end
init = function(args)
  offset, count, threads, marker = tonumber(args[1]), tonumber(args[2]), tonumber(args[3]), args[4]
  sent, received, share, finished = 0, 0, math.ceil(count / threads), false
end
request = function()
  local i = offset + (tid + sent * threads) % count
  sent = sent + 1
  return wrk.format("$2", string.format("$3", i),
    { ["Authorization"] = string.format("$4", i), ["Content-Type"] = "application/json" }, $5)
end
response = function(status, headers, body)
  received = received + 1
  if received >= share and not finished then
    finished = true
    io.open(marker .. "-" .. tid, "w"):close()
    wrk.thread:stop()
  end
end
LUA
}
each_pass_once "$work/fetch.lua" GET "/v1/passes/pass.dev.tessera.demo/B%07d" "ApplePass benchtoken%022d" nil
each_pass_once "$work/patch.lua" PATCH "/api/v1/passes/pass.dev.tessera.demo/B%07d" "Bearer $token" \
    "'{\"data\":{\"fields\":{\"doors\":\"2026-12-05T19:30-08:00\"}}}'"
# Device fetches cycling over the first ARG2 passes (from ARG1) without end: once each is signed, every fetch is served
# from the bundle cache. The storm's ceiling on this machine is measured with it (below).
cat >"$work/cycle.lua" <<'LUA'
counter = 0
setup = function(thread) thread:set("tid", counter); counter = counter + 1 end
init = function(args) offset, count, threads, sent = tonumber(args[1]), tonumber(args[2]), tonumber(args[3]), 0 end
request = function()
  local i = offset + (tid + sent * threads) % count
  sent = sent + 1
  return wrk.format("GET", string.format("/v1/passes/pass.dev.tessera.demo/B%07d", i),
    { ["Authorization"] = string.format("ApplePass benchtoken%022d", i) }, nil)
end
LUA

# Largest VmRSS and largest RssAnon (kB) of the given processes, sampled until the file $work/stop-rss exists. VmRSS
# also counts the pages of the SQLite file a process has mapped (SQLite's mmap_size: the OS's page cache, shared and
# reclaimable); RssAnon is the memory of the process's own.
sample_rss() {
    local out="$1"; shift
    rm -f "$work/stop-rss"; echo "0 0" >"$out"
    while [ ! -e "$work/stop-rss" ]; do
        for pid in "$@"; do awk '/^VmRSS/ {rss = $2} /^RssAnon/ {anon = $2} END {if (rss) print rss, anon}' "/proc/$pid/status" 2>/dev/null || true; done |
            awk -v file="$out" 'BEGIN {getline line <file; split(line, m, " ")} $1 > m[1] {m[1] = $1} $2 > m[2] {m[2] = $2} END {print m[1], m[2] >file}'
        sleep 0.2
    done
}

# Runs wrk against each base URL with an equal share of `total` passes and of the connections, all at once; prints
# "requests rate p99_ms errors seconds".
each_pass_wrk() {
    local script="$1" total="$2"; shift 2
    local share=$((total / $#)) conns=$((connections / $#)) index=0 runs=() outputs=() started markers
    markers="$(mktemp -d "$work/markers-XXXXXX")"
    started="$(now)"
    for base in "$@"; do
        wrk -t 2 -c "$conns" -d 900s --timeout 10s --latency -s "$script" "$base" -- $((index * share)) "$share" 2 "$markers/$index" \
            >"$work/wrk-$(basename "$script" .lua)-$index.txt" 2>&1 & runs+=($!)
        outputs+=("$work/wrk-$(basename "$script" .lua)-$index.txt"); index=$((index + 1))
    done
    while [ "$(find "$markers" -type f | wc -l)" -lt $((2 * $#)) ] && kill -0 "${runs[@]}" 2>/dev/null; do sleep 0.05; done
    kill -INT "${runs[@]}" 2>/dev/null || true
    wait "${runs[@]}" || true
    wrk_summary "$(echo "$(now) - $started" | bc)" "${outputs[@]}"
}
wrk_summary() {
    python3 - "$@" <<'EOF'
import re, sys
seconds, files = float(sys.argv[1]), sys.argv[2:]
requests = errors = 0; p99 = 0.0
def ms(value, unit): return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
for name in files:
    text = open(name).read()
    requests += int(re.search(r"(\d+) requests in", text).group(1))
    m = re.search(r"99%\s+([\d.]+)(us|ms|s)", text); p99 = max(p99, ms(*m.groups()))
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text); errors += int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    errors += sum(map(int, m.groups())) if m else 0
print(requests, f"{requests / seconds:.0f}", f"{p99:.2f}", errors, f"{seconds:.1f}")
EOF
}

# The fetch storm's ceiling on this machine: the same device fetch at the same connections, of 1,000 passes whose
# bundles are signed and cached (3 s of warm-up signs them, then 10 s measured). A fetch of a changed pass is at least
# a signature and such a cached fetch, each of which alone fills the machine at its own rate, so no storm can serve
# more than 1 / (1 / signing rate + 1 / cached rate) changed passes per second here. Prints "rate p99_ms".
cached_fetch_rate() {
    local conns=$((connections / $#)) runs=() outputs=() index=0
    for base in "$@"; do
        wrk -t 2 -c "$conns" -d 3s -s "$work/cycle.lua" "$base" -- 0 1000 2 >/dev/null 2>&1 & runs+=($!)
    done
    wait "${runs[@]}"; runs=()
    for base in "$@"; do
        wrk -t 2 -c "$conns" -d 10s --timeout 10s --latency -s "$work/cycle.lua" "$base" -- 0 1000 2 \
            >"$work/wrk-cached-$index.txt" 2>&1 & runs+=($!)
        outputs+=("$work/wrk-cached-$index.txt"); index=$((index + 1))
    done
    wait "${runs[@]}"
    wrk_summary 10 "${outputs[@]}" | awk '{print $2, $3}'
}

# Pushes APNs accepted, summed over the servers' /metrics.
pushes_delivered() {
    local total=0 count
    for base in "$@"; do
        count="$(curl -fs "$base/metrics" | awk '/^tessera_apns_pushes_total\{.*result="delivered"/ {print $2}' | head -1)"
        total=$((total + ${count:-0}))
    done
    echo "$total"
}

# The campaign: POST, then follow GET /api/v1/campaigns/{id} every 0.1 s; prints what the report needs.
follow_campaign() {
    python3 - "$1" "$token" "$passes" <<'EOF'
import json, sys, time, urllib.error, urllib.request
base, token, passes = sys.argv[1], sys.argv[2], int(sys.argv[3])
headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
body = json.dumps({"select": {"template": "event-ticket"}, "data": {"fields": {"doors": "2026-12-05T19:30-08:00"}},
                   "message": "Doors now open at 19:30: the show moved by an hour"}).encode()
start = time.monotonic()
print(f"campaign posted at {time.time():.2f} (Unix time)", file=sys.stderr)
request = urllib.request.Request(f"{base}/api/v1/campaigns", data=body, headers=headers, method="POST")
try:
    with urllib.request.urlopen(request) as response:
        status, campaign = response.status, json.load(response)
except urllib.error.HTTPError as error:
    sys.exit(f"POST /api/v1/campaigns answered {error.code}: {error.read().decode()}")
post_ms = (time.monotonic() - start) * 1000
changed_at = pushed_at = None
while time.monotonic() - start < 900:
    with urllib.request.urlopen(urllib.request.Request(f"{base}/api/v1/campaigns/{campaign['id']}", headers=headers)) as r:
        campaign = json.load(r)
    elapsed = time.monotonic() - start
    if changed_at is None and campaign["state"] in ("done", "failed", "cancelled"):
        changed_at = elapsed
        print(f"campaign {campaign['state']} at {time.time():.2f} (Unix time)", file=sys.stderr)
    if campaign["state"] == "done" and campaign["pushesSent"] >= campaign["pushesQueued"]:
        pushed_at = elapsed
        break
    time.sleep(0.1)
print(status, f"{post_ms:.1f}", campaign["state"], campaign["matched"], campaign["changed"], campaign["failed"],
      campaign["pushesQueued"], campaign["pushesSent"],
      f"{changed_at:.1f}" if changed_at is not None else "-", f"{pushed_at:.1f}" if pushed_at is not None else "-")
EOF
}

# One store's run: the campaign with the device probe and RSS sampling, then the fetch storm, then the PATCH figure on
# a fresh copy (started by the caller's `start_patch_servers`). Arguments: label, server PIDs (comma-separated), bases.
run_store() {
    local label="$1" server_pids="$2"; shift 2
    local rss_file="$work/rss-$label" probes=() probe_outputs=() index=0
    IFS=, read -r -a server_pid_list <<<"$server_pids"
    # Each server reads its templates once; the first read of a template pins the passes stored without a template
    # version to it (the seeded ones, like passes stored before an upgrade). Done here, so the POST measures the
    # steady state, and timed, since it is what a first campaign after an upgrade would wait for.
    local pin_start pin_ms
    pin_start=$(date +%s%N)
    for base in "$@"; do curl -fs -H "Authorization: Bearer $token" "$base/api/v1/templates" >/dev/null; done
    pin_ms=$(( ($(date +%s%N) - pin_start) / 1000000 ))
    sample_rss "$rss_file" "${server_pid_list[@]}" & local sampler=$!
    for base in "$@"; do
        wrk -t 1 -c "$((probe_connections / $# > 0 ? probe_connections / $# : 1))" -d "${probe_seconds}s" --latency \
            -s "$work/list.lua" "$base" >"$work/probe-$label-$index.txt" 2>&1 & probes+=($!)
        probe_outputs+=("$work/probe-$label-$index.txt"); index=$((index + 1))
    done
    sleep 1
    read -r status post_ms state matched changed failed queued sent changed_at pushed_at < <(follow_campaign "$1") || true
    [ -n "${status:-}" ] || { echo "the campaign could not be followed (above)" >&2; exit 1; }
    wait "${probes[@]}"
    read -r probe_requests probe_rate probe_p99 probe_errors _ < <(wrk_summary "$probe_seconds" "${probe_outputs[@]}")
    local delivered push_rate share
    delivered="$(pushes_delivered "$@")"
    push_rate="$(python3 -c "print(f'{$sent / max($pushed_at - 0, 0.001):.0f}' if '$pushed_at' != '-' else '-')" 2>/dev/null || echo -)"
    share="$(python3 -c "print(f'{100 * $push_rate / $ceiling:.1f} %')" 2>/dev/null || echo -)"
    read -r fetch_requests fetch_rate fetch_p99 fetch_errors fetch_seconds < <(each_pass_wrk "$work/fetch.lua" "$fetches" "$@")
    touch "$work/stop-rss"; wait "$sampler"
    local rss_mb fetch_share cached_rate cached_p99 storm_ceiling
    read -r cached_rate cached_p99 < <(cached_fetch_rate "$@")
    local rss_kb anon_kb
    read -r rss_kb anon_kb <"$rss_file"
    rss_mb=$((rss_kb / 1024))
    fetch_share="$(python3 -c "print(f'{100 * $fetch_rate / $sign_rate:.1f} %')")"
    storm_ceiling="$(python3 -c "c = 1 / (1 / $sign_rate + 1 / $cached_rate); print(f'{c:.0f}/s = {100 * c / $sign_rate:.1f} % of signing; the storm reached {100 * $fetch_rate / c:.1f} % of it')")"
    echo
    echo "### $label: campaign over $matched passes, $devices devices ($(nproc) cores)"
    echo
    echo "| figure | measured | target |"
    echo "| --- | ---: | --- |"
    echo "| templates read first on every server (pins the $passes seeded passes, stored without a template version) | $pin_ms ms | |"
    echo "| POST /api/v1/campaigns answered | $post_ms ms (HTTP $status) | < 100 ms |"
    echo "| every pass changed (from the POST) | $changed_at s ($changed changed, $failed failed, state $state) | < 15 s |"
    echo "| every device pushed (from the POST) | $pushed_at s ($sent of $queued pushes sent; APNs stand-in accepted $delivered) | < 60 s |"
    echo "| pushes per second / stand-in ceiling ($ceiling/s; its /tmp on a tmpfs of its own: $standin_tmpfs) | $push_rate / $share | >= 50 % |"
    # Tessera holds a campaign's pushes until its last batch (one push per device, after all of its passes; see
    # docs/architecture.md), so none goes before the last pass changed: even pushes sent at the stand-in's ceiling from
    # then on make at most this. (A server pushing each device as soon as its own passes changed is not bound by it.)
    echo "| the most pushes per second from the POST with the pushes held until every pass changed, then sent at the ceiling | $(python3 -c "c = $ceiling; best = $sent / ($changed_at + $sent / c); print(f'{best:.0f}/s = {100 * best / c:.1f} %')" 2>/dev/null || echo -) | |"
    # A campaign's pushes go out once every pass changed (each device once, after all of its passes): their own rate.
    echo "| pushes per second after every pass changed | $(python3 -c "print(f'{$sent / max($pushed_at - $changed_at, 0.001):.0f}/s over {$pushed_at - $changed_at:.1f} s')" 2>/dev/null || echo -) | |"
    echo "| the APNs client's own ceiling, nothing else running (tessera-bench apns, 32 in flight per connection, $apns_connections connections) | $client_rate/s = $(python3 -c "print(f'{100 * $client_rate / $ceiling:.1f} %')") of the stand-in's, $client_cpu µs CPU per push | |"
    echo "| device list p99 during the campaign ($probe_connections connections, $probe_seconds s) | $probe_p99 ms ($probe_requests requests, $probe_rate/s, $probe_errors errors) | < 50 ms |"
    echo "| fetch storm: changed passes served ($fetch_requests at $connections connections) | $fetch_rate/s in $fetch_seconds s, p99 $fetch_p99 ms, $fetch_errors errors | |"
    echo "| fetch rate / tessera-bench sign all cores ($sign_rate/s) | $fetch_share | >= 80 %, p99 < 100 ms, 0 errors |"
    echo "| fetches of signed bundles (1000 passes cached, $connections connections, 10 s) | $cached_rate/s, p99 $cached_p99 ms | |"
    echo "| the storm's ceiling here: 1 / (1 / signing + 1 / cached fetch) | $storm_ceiling | |"
    echo "| largest resident set of a server process | $rss_mb MB (of its own memory, RssAnon: at most $((anon_kb / 1024)) MB) | < 1024 MB |"
}

# The before figure: one PATCH per pass with today's API, then the pushes those queue, on servers already started on a
# fresh copy of the store. Arguments: label, bases.
run_patches() {
    local label="$1"; shift
    local before started last_change count previous
    before="$(pushes_delivered "$@")"
    started="$(now)"
    read -r patch_requests patch_rate patch_p99 patch_errors patch_seconds < <(each_pass_wrk "$work/patch.lua" "$passes" "$@")
    previous=-1; last_change="$(now)"
    while true; do
        count="$(pushes_delivered "$@")"
        if [ "$count" != "$previous" ]; then previous="$count"; last_change="$(now)"; fi
        [ "$(echo "$(now) - $last_change > 5" | bc)" = 1 ] && break
        sleep 0.2
    done
    echo "| before: $patch_requests PATCH requests ($connections connections) | $patch_seconds s ($patch_rate/s, p99 $patch_p99 ms, $patch_errors errors) | |"
    echo "| before: pushes those queued, all delivered after (from the first PATCH) | $((previous - before)) pushes, $(echo "$last_change - $started" | bc | xargs printf '%.1f') s | |"
}

# Each server runs in a session of its own, as a service manager starts it, not in the session of the load generators:
# with the kernel's automatic process groups (Debian's default), processes of one session share one group's CPU, and
# two PostgreSQL servers sharing theirs with the wrk probes answered the device list with a p99 of 0.5-1.3 s with no
# campaign running, against 3 ms each in a session of its own (docs/benchmarks.md).
serve() {  # serve PORT DATABASE LOG [extra environment...]
    local port="$1" database="$2" log="$3"; shift 3
    setsid env "$@" "$bin/tessera" serve --port "$port" --database "$database" --templates PassTemplates "${credentials[@]}" \
        --admin-token-file "$work/admin-token" "${apns_flags[@]}" --log-level warning >"$log" 2>&1 &
    pids+=($!); last_pid=$!
    wait_for "http://127.0.0.1:$port/health"
}

if [ "$mode" = sqlite ] || [ "$mode" = all ]; then
    if [ -n "${SEED:-}" ]; then
        cp "$SEED" "$work/campaign.sqlite"
    else
        "$bin/tessera-bench" seed --sqlite "$work/campaign.sqlite" --passes "$passes" --devices "$devices" >&2
        [ -z "${KEEP_SEED:-}" ] || cp "$work/campaign.sqlite" "$KEEP_SEED"
    fi
    cp "$work/campaign.sqlite" "$work/patch.sqlite"
    serve 18101 "sqlite:$work/campaign.sqlite" "$work/serve-sqlite.log"; server=$last_pid
    run_store "SQLite, one server process" "$server" http://127.0.0.1:18101
    kill "$server"; wait "$server" 2>/dev/null || true
    if [ "${SKIP_PATCH:-0}" != 1 ]; then
        serve 18102 "sqlite:$work/patch.sqlite" "$work/serve-sqlite-patch.log"; server=$last_pid
        run_patches "SQLite" http://127.0.0.1:18102
        kill "$server"; wait "$server" 2>/dev/null || true
    fi
fi

if [ "$mode" = postgres ] || [ "$mode" = all ]; then
    export TESSERA_POSTGRES_PORT="${BENCH_POSTGRES_PORT:-54339}"
    url="$(TESSERA_POSTGRES_SHARED_BUFFERS="$(awk '/MemTotal/ {print int($2 / 1024 / 4)}' /proc/meminfo)MB" scripts/postgres.sh)"
    socket="host=$(scripts/postgres.sh socket-dir)"
    loops=$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))
    databases=(tessera_campaign)
    [ "${SKIP_PATCH:-0}" = 1 ] || databases+=(tessera_campaign_patch)
    for database in "${databases[@]}"; do
        psql "${url%/*}/postgres" -qc "DROP DATABASE IF EXISTS $database" -c "CREATE DATABASE $database" >&2
        serve 18103 "${url%/*}/$database?$socket" "$work/serve-pg-migrate.log"
        kill "$last_pid"; wait "$last_pid" 2>/dev/null || true
        scripts/bench-seed-postgres.sh "${url%/*}/$database" "$((devices * 4))"
    done
    serve 18103 "${url%/*}/tessera_campaign?$socket" "$work/serve-pg-1.log" TESSERA_EVENT_LOOP_THREADS="$loops"; first=$last_pid
    serve 18104 "${url%/*}/tessera_campaign?$socket" "$work/serve-pg-2.log" TESSERA_EVENT_LOOP_THREADS="$loops"; second=$last_pid
    run_store "PostgreSQL, two server processes" "$first,$second" http://127.0.0.1:18103 http://127.0.0.1:18104
    kill "$first" "$second"; wait "$first" "$second" 2>/dev/null || true
    if [ "${SKIP_PATCH:-0}" != 1 ]; then
        serve 18105 "${url%/*}/tessera_campaign_patch?$socket" "$work/serve-pg-patch-1.log" TESSERA_EVENT_LOOP_THREADS="$loops"; first=$last_pid
        serve 18106 "${url%/*}/tessera_campaign_patch?$socket" "$work/serve-pg-patch-2.log" TESSERA_EVENT_LOOP_THREADS="$loops"; second=$last_pid
        run_patches "PostgreSQL" http://127.0.0.1:18105 http://127.0.0.1:18106
        kill "$first" "$second"; wait "$first" "$second" 2>/dev/null || true
    fi
fi
