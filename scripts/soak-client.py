#!/usr/bin/env python3
"""Mixed device traffic against several `tessera serve` processes for scripts/soak-postgres.sh.

    soak-client.py --seconds 600 --connections 32 --devices 250000 PORT [PORT ...]

Each connection is a keep-alive HTTP/1.1 client that sends a mix of the device requests (serial-number list 50 %, pass
fetch 20 %, 304 20 %, registration 10 %), like a crowd of devices behind a load balancer: it sticks to one process for 500 requests,
then moves to the next; when a process closes its connection or refuses new ones (being restarted) it moves on at once.

Every request is counted by outcome:
- ok: the documented answer (200, 201, 204, 304);
- bad status: any other status (an error);
- lost in flight: the connection failed after the request was written and before the answer came (an error, unless
  it happened to a process while it was being restarted: those are the restarted process's own in-flight requests);
- not sent: the server had closed the idle connection (or refused it) before the request was written; the client
  retries it elsewhere, as HTTP clients do, so it is not an error.
Prints one JSON object with the counts per process and per phase, and a progress line every 30 s on stderr.
"""
import argparse
import asyncio
import json
import os
import random
import sys
import time

PASS_TYPE = "pass.dev.tessera.demo"


def request_for(devices: int, counter: int, prefix: str) -> tuple[str, bytes]:
    roll = random.random()
    if roll < 0.5:
        device = random.randrange(devices)
        return "list", (f"GET /v1/devices/dev{device:08d}/registrations/{PASS_TYPE} HTTP/1.1\r\n"
                        "Host: soak\r\n\r\n").encode()
    i = random.randrange(1000)
    auth = f"Authorization: ApplePass benchtoken{i:022d}\r\n"
    if roll < 0.7:
        return "fetch", f"GET /v1/passes/{PASS_TYPE}/B{i:07d} HTTP/1.1\r\nHost: soak\r\n{auth}\r\n".encode()
    if roll < 0.9:
        since = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime())
        return "304", (f"GET /v1/passes/{PASS_TYPE}/B{i:07d} HTTP/1.1\r\nHost: soak\r\n{auth}"
                       f"If-Modified-Since: {since}\r\n\r\n").encode()
    body = b'{"pushToken":"00aa11bb22cc33dd44ee55ff66778899"}'
    i = random.randrange(100000)
    auth = f"Authorization: ApplePass benchtoken{i:022d}\r\n"
    return "register", (f"POST /v1/devices/soak{prefix}{counter:09d}/registrations/{PASS_TYPE}/B{i:07d} HTTP/1.1\r\n"
                        f"Host: soak\r\n{auth}Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                        ).encode() + body


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bool]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    length = 0
    close = False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.lower() == "content-length":
            length = int(value.strip())
        elif name.lower() == "connection" and value.strip().lower() == "close":
            close = True
    if length:
        await reader.readexactly(length)
    return status, close


class Soak:
    def __init__(self, ports, devices, restarting_file):
        self.ports = ports
        self.devices = devices
        self.restarting_file = restarting_file
        self.counts = {}
        self.statuses = {}
        self.prefix = f"{random.randrange(100000):05d}"
        self.counter = 0

    def restarting(self, port) -> bool:
        try:
            return open(self.restarting_file).read().strip() == str(port)
        except OSError:
            return False

    def count(self, port, outcome):
        key = f"{port} {outcome}"
        self.counts[key] = self.counts.get(key, 0) + 1

    async def connection(self, index, deadline):
        port_index = index % len(self.ports)
        pending = None
        served = 0
        while time.monotonic() < deadline:
            port = self.ports[port_index]
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                self.count(port, "refused")
                port_index = (port_index + 1) % len(self.ports)
                await asyncio.sleep(0.05)
                continue
            try:
                while time.monotonic() < deadline:
                    if pending is None:
                        self.counter += 1
                        pending = request_for(self.devices, self.counter, self.prefix)
                    kind, data = pending
                    try:
                        writer.write(data)
                        await writer.drain()
                    except OSError:
                        self.count(port, "not sent")
                        break
                    try:
                        status, close = await asyncio.wait_for(read_response(reader), 30)
                    except asyncio.IncompleteReadError as error:
                        if not error.partial:
                            # Closed with nothing answered: an idle keep-alive connection the server ended (a
                            # request it never started); sent again elsewhere.
                            self.count(port, "not sent")
                        else:
                            self.count(port, "lost in flight (restarting)" if self.restarting(port) else "lost in flight")
                            pending = None
                        break
                    except (OSError, asyncio.TimeoutError):
                        self.count(port, "lost in flight (restarting)" if self.restarting(port) else "lost in flight")
                        pending = None
                        break
                    pending = None
                    if status in (200, 201, 204, 304):
                        self.count(port, "ok")
                    else:
                        self.count(port, "bad status")
                        self.statuses[f"{kind} {status}"] = self.statuses.get(f"{kind} {status}", 0) + 1
                    served += 1
                    if close or served % 500 == 0:
                        # Move on now and then, as a load balancer spreads new connections: a restarted process
                        # gets its share of the traffic back.
                        break
            finally:
                writer.close()
            port_index = (port_index + 1) % len(self.ports)

    async def progress(self, started, deadline):
        while time.monotonic() < deadline:
            await asyncio.sleep(30)
            elapsed = time.monotonic() - started
            ok = sum(v for k, v in self.counts.items() if k.endswith(" ok"))
            errors = {k: v for k, v in self.counts.items() if not k.endswith(" ok")}
            print(f"[{elapsed:5.0f} s] ok {ok:,} ({ok / elapsed:,.0f}/s) other {errors}", file=sys.stderr, flush=True)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--devices", type=int, default=250000)
    parser.add_argument("--restarting-file", default=os.devnull)
    parser.add_argument("ports", type=int, nargs="+")
    args = parser.parse_args()
    soak = Soak(args.ports, args.devices, args.restarting_file)
    started = time.monotonic()
    deadline = started + args.seconds
    tasks = [asyncio.create_task(soak.connection(i, deadline)) for i in range(args.connections)]
    reporter = asyncio.create_task(soak.progress(started, deadline))
    await asyncio.gather(*tasks)
    reporter.cancel()
    print(json.dumps({"seconds": round(time.monotonic() - started, 1), "counts": soak.counts,
                      "badStatuses": soak.statuses}, sort_keys=True))


asyncio.run(main())
