"""A TCP proxy that puts a database ``delay`` milliseconds away, each way, for the storage
benchmark (``bench.store --latency-ms``): a managed database in the same region answers about
1 ms away, which a server on the same machine hides.

    python -m bench.dbproxy --target 127.0.0.1:5432 --delay-ms 1

prints ``listening on <port>`` once ready, then forwards every connection to ``target``, each
chunk of bytes held ``delay`` ms before it goes on (in order, per direction; bandwidth is not
limited, only latency added). It stops on SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import socket
import time

CHUNK = 65536


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                delay: float) -> None:
    """Copy ``reader`` to ``writer``, each chunk ``delay`` seconds after it arrived."""
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def send() -> None:
        while True:
            due, data = await queue.get()
            if not data:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        with contextlib.suppress(OSError):
            writer.write_eof()

    sender = asyncio.create_task(send())
    try:
        while True:
            data = await reader.read(CHUNK)
            queue.put_nowait((time.monotonic() + delay, data))
            if not data:
                break
        await sender
    except (OSError, asyncio.IncompleteReadError):
        sender.cancel()
    finally:
        with contextlib.suppress(OSError):
            writer.close()


async def serve(target_host: str, target_port: int, delay_ms: float, port: int = 0
                ) -> asyncio.Server:
    """Start the proxy on 127.0.0.1 (``port`` 0: any free one)."""
    delay = delay_ms / 1000

    async def handle(client_reader: asyncio.StreamReader,
                     client_writer: asyncio.StreamWriter) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection(target_host,
                                                                         target_port)
        except OSError:
            client_writer.close()
            return
        for sock in (client_writer, server_writer):
            raw = sock.get_extra_info("socket")
            if raw is not None:  # no Nagle: a small message must not wait for more
                raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with contextlib.suppress(asyncio.CancelledError):  # the proxy stopping
            await asyncio.gather(_pipe(client_reader, server_writer, delay),
                                 _pipe(server_reader, client_writer, delay),
                                 return_exceptions=True)

    return await asyncio.start_server(handle, "127.0.0.1", port)


async def _main(target: str, delay_ms: float, port: int) -> None:
    host, _, target_port = target.rpartition(":")
    server = await serve(host or "127.0.0.1", int(target_port), delay_ms, port)
    print(f"listening on {server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with server:
        await stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True, help="host:port of the database server")
    parser.add_argument("--delay-ms", type=float, default=1.0, help="added each way")
    parser.add_argument("--port", type=int, default=0, help="where to listen (0: any)")
    args = parser.parse_args()
    asyncio.run(_main(args.target, args.delay_ms, args.port))


if __name__ == "__main__":
    main()
