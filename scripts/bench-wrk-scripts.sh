#!/usr/bin/env bash
# Writes the wrk request scripts the benchmarks use into the folder given as $1 (sourced by bench-server.sh and
# bench-ab.sh): random devices and passes with the names `tessera-bench seed` uses.
work="$1"
cat >"$work/common.lua" <<'EOF'
local counter = 0
init = function(args) math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1e6) + tonumber(tostring({}):sub(8), 16) % 100000) end
EOF
cat >"$work/hello.lua" <<'EOF'
EOF
# The device requests of one kind (passes, or Wallet orders), with the names the seeds use:
# device_scripts PREFIX DEVICE_PREFIX PATH_WORD TYPE_IDENTIFIER ITEM_PREFIX SCHEME TOKEN_PREFIX
# DEVICES: how many seeded devices the list requests pick from (default 250,000: 1,000,000 registrations, four each).
device_scripts() {
    local prefix="$1" device="$2" word="$3" type="$4" item="$5" scheme="$6" token="$7" file since
    cat "$work/common.lua" >"$work/${prefix}list.lua"; cat >>"$work/${prefix}list.lua" <<LUA
request = function()
  return wrk.format("GET", string.format("/v1/devices/${device}%08d/registrations/${type}", math.random(0, $(( ${DEVICES:-250000} - 1 )))))
end
LUA
    for file in download download304; do
        since=""
        [ "$file" = download304 ] && since=', ["If-Modified-Since"] = os.date("!%a, %d %b %Y %H:%M:%S GMT")'
        cat "$work/common.lua" >"$work/${prefix}${file}.lua"; cat >>"$work/${prefix}${file}.lua" <<LUA
request = function()
  local i = math.random(0, 999)
  return wrk.format("GET", string.format("/v1/${word}/${type}/${item}%07d", i),
    { ["Authorization"] = string.format("${scheme} ${token}%022d", i)${since} })
end
LUA
    done
}
device_scripts "" dev passes pass.dev.tessera.demo B ApplePass benchtoken
# Wallet orders: the same requests under /v1/orders and the order type identifier (seeded by scripts/bench-server.sh).
device_scripts order- odev orders order.dev.tessera.demo O AppleOrder ordertoken
cat "$work/common.lua" >"$work/session.lua"; cat >>"$work/session.lua" <<'EOF'
local prefix = nil
request = function()
  prefix = prefix or string.format("%08x", math.random(0, 2147483647))
  counter = counter + 1
  return wrk.format("POST", "/checkout/v1/sessions",
    { ["Content-Type"] = "application/json", ["Idempotency-Key"] = string.format("bench-%s-%d", prefix, counter) },
    '{"items":[{"sku":"TSHIRT","quantity":2},{"sku":"TICKET-GA","quantity":1}],"shippingMethod":"standard","couponCode":"SAVE10"}')
end
EOF
cat "$work/common.lua" >"$work/register.lua"; cat >>"$work/register.lua" <<'EOF'
local prefix = nil
request = function()
  prefix = prefix or string.format("%05d", math.random(0, 99999))
  counter = counter + 1
  local i = math.random(0, 99999)
  return wrk.format("POST",
    string.format("/v1/devices/new%s%08d/registrations/pass.dev.tessera.demo/B%07d", prefix, counter, i),
    { ["Authorization"] = string.format("ApplePass benchtoken%022d", i), ["Content-Type"] = "application/json" },
    '{"pushToken":"00aa11bb22cc33dd44ee55ff66778899"}')
end
EOF

