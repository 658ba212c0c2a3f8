#!/usr/bin/env python3
"""delay-proxy.py LISTEN_PORT TARGET_PORT DELAY_MS: forwards TCP on loopback, each chunk delayed by DELAY_MS each way.

A round trip to APNs over a real network, for benchmarks on one machine without netem (docs/benchmarks.md):
`tessera-bench apns --host 127.0.0.1 --port LISTEN_PORT` then reaches a stand-in on TARGET_PORT one round trip of
2 x DELAY_MS (plus the proxy's own time) away. Bytes keep their order; nothing is parsed.
"""
import asyncio, sys

listen_port, target_port, delay = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 1000

async def pipe(reader, writer):
    loop = asyncio.get_running_loop()
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            loop.call_later(delay, writer.write, data)
    except (ConnectionError, OSError):
        pass
    loop.call_later(delay + 0.001, writer.close)

async def handle(client_reader, client_writer):
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", target_port)
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(pipe(client_reader, upstream_writer), pipe(upstream_reader, client_writer))

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", listen_port)
    async with server:
        await server.serve_forever()

asyncio.run(main())
