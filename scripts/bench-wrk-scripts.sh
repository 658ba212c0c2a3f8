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
# DEVICES: how many seeded devices the list requests pick from (default 250,000: 1,000,000 registrations, four each).
cat "$work/common.lua" >"$work/list.lua"; cat >>"$work/list.lua" <<EOF
request = function()
  return wrk.format("GET", string.format("/v1/devices/dev%08d/registrations/pass.dev.tessera.demo", math.random(0, $(( ${DEVICES:-250000} - 1 )))))
end
EOF
cat "$work/common.lua" >"$work/download.lua"; cat >>"$work/download.lua" <<'EOF'
request = function()
  local i = math.random(0, 999)
  return wrk.format("GET", string.format("/v1/passes/pass.dev.tessera.demo/B%07d", i),
    { ["Authorization"] = string.format("ApplePass benchtoken%022d", i) })
end
EOF
cat "$work/common.lua" >"$work/download304.lua"; cat >>"$work/download304.lua" <<'EOF'
request = function()
  local i = math.random(0, 999)
  return wrk.format("GET", string.format("/v1/passes/pass.dev.tessera.demo/B%07d", i),
    { ["Authorization"] = string.format("ApplePass benchtoken%022d", i),
      ["If-Modified-Since"] = os.date("!%a, %d %b %Y %H:%M:%S GMT") })
end
EOF
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

# Wallet orders: the same shapes under /v1/orders and the order type identifier (seeded by scripts/bench-server.sh).
cat "$work/common.lua" >"$work/order-list.lua"; cat >>"$work/order-list.lua" <<EOF2
request = function()
  return wrk.format("GET", string.format("/v1/devices/odev%08d/registrations/order.dev.tessera.demo", math.random(0, $(( ${DEVICES:-250000} - 1 )))))
end
EOF2
cat "$work/common.lua" >"$work/order-download.lua"; cat >>"$work/order-download.lua" <<'EOF2'
request = function()
  local i = math.random(0, 999)
  return wrk.format("GET", string.format("/v1/orders/order.dev.tessera.demo/O%07d", i),
    { ["Authorization"] = string.format("AppleOrder ordertoken%022d", i) })
end
EOF2
cat "$work/common.lua" >"$work/order-download304.lua"; cat >>"$work/order-download304.lua" <<'EOF2'
request = function()
  local i = math.random(0, 999)
  return wrk.format("GET", string.format("/v1/orders/order.dev.tessera.demo/O%07d", i),
    { ["Authorization"] = string.format("AppleOrder ordertoken%022d", i),
      ["If-Modified-Since"] = os.date("!%a, %d %b %Y %H:%M:%S GMT") })
end
EOF2
