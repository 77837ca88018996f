"""A small round-robin load balancer for the two-process tests, on loopback.

It models what a real balancer in front of several hosts does, without sticky sessions:
every HTTP request may go to another backend (the proxy asks the backend to close the
connection after each response, so the browser opens a new one for its next request), and
every websocket goes to the next backend too. Page loads (`Sec-Fetch-Dest: document`),
websockets and other requests take turns separately, so a session that loads N pages lands on
both backends whatever the browser does in between.

It also counts what each backend served: page loads, other requests, websockets, and the
events a backend answered over its websockets (socket.io `event` messages it sent). It asks
for websockets without compression (it drops `Sec-WebSocket-Extensions`) so it can count them.

`pin(i)` sends every new connection to backend i and closes the open ones (a browser then
reconnects, to backend i); `pin(None)` goes back to taking turns."""

from __future__ import annotations

import asyncio
import itertools
import re
import threading
from collections import defaultdict
from dataclasses import dataclass, field

HEAD_END = b"\r\n\r\n"
EVENT_MESSAGE = b'42/_event,["event"'


@dataclass
class BackendStats:
    documents: list[str] = field(default_factory=list)  # paths of page loads
    requests: list[str] = field(default_factory=list)  # "METHOD path" of every HTTP request
    websockets: int = 0
    events_answered: int = 0  # socket.io event messages the backend sent over websockets

    @property
    def uploads(self) -> list[str]:
        return [r for r in self.requests if r.startswith("POST /_upload")]

    def summary(self) -> str:
        return (
            f"{len(self.documents)} page loads, {len(self.requests) - len(self.documents)} other "
            f"requests, {self.websockets} websockets, {self.events_answered} event answers"
        )


class Proxy:
    def __init__(self, port: int, backends: list[int], host: str = "127.0.0.1") -> None:
        self.host, self.port, self.backends = host, port, backends
        self.stats: list[BackendStats] = [BackendStats() for _ in backends]
        self._turns: dict[str, itertools.cycle] = defaultdict(
            lambda: itertools.cycle(range(len(self.backends)))
        )
        self._pinned: int | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.base_events.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __enter__(self) -> Proxy:
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._handle, self.host, self.port), self._loop
        ).result(10)
        return self

    def __exit__(self, *_exc) -> None:
        async def stop() -> None:
            self._server.close()
            self._close_open()

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def reset_stats(self) -> None:
        self.stats = [BackendStats() for _ in self.backends]

    def pin(self, index: int | None) -> None:
        """Send new connections to backend `index` only (None: take turns again), and close the
        connections open now, so nothing keeps talking to the other backend."""

        def apply() -> None:
            self._pinned = index
            self._close_open()

        self._loop.call_soon_threadsafe(apply)
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), self._loop).result(5)

    def _close_open(self) -> None:
        for writer in list(self._open):
            writer.close()
        self._open.clear()

    def _choose(self, kind: str) -> int:
        turn = next(self._turns[kind])
        return self._pinned if self._pinned is not None else turn

    async def _handle(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter):
        self._open.add(client_w)
        backend_w = None
        try:
            buffer = b""
            while HEAD_END not in buffer:
                chunk = await client_r.read(65536)
                if not chunk or len(buffer) > 1 << 16:
                    return
                buffer += chunk
            head, rest = buffer.split(HEAD_END, 1)
            lines = head.decode("latin-1").split("\r\n")
            request_line, headers = lines[0], lines[1:]
            names = {h.split(":", 1)[0].strip().lower(): h for h in headers if ":" in h}
            upgrade = names.get("upgrade", "").lower()
            if upgrade.endswith("websocket"):
                kind = "websocket"
                headers = [h for h in headers if not h.lower().startswith("sec-websocket-ext")]
            else:
                dest = names.get("sec-fetch-dest", "").split(":", 1)[-1].strip().lower()
                kind = "document" if dest == "document" else "other"
                headers = [
                    h for h in headers if not re.match(r"(?i)(connection|keep-alive)\s*:", h)
                ] + ["Connection: close"]
            index = self._choose(kind)
            stats = self.stats[index]
            method_path = " ".join(request_line.split(" ")[:2])
            if kind == "websocket":
                stats.websockets += 1
            else:
                stats.requests.append(method_path)
                if kind == "document":
                    stats.documents.append(method_path.split(" ", 1)[-1])

            backend_r, backend_w = await asyncio.open_connection("127.0.0.1", self.backends[index])
            self._open.add(backend_w)
            backend_w.write("\r\n".join([request_line, *headers]).encode("latin-1"))
            backend_w.write(HEAD_END + rest)
            await backend_w.drain()
            await asyncio.gather(
                self._pipe(client_r, backend_w, None),
                self._pipe(backend_r, client_w, stats if kind == "websocket" else None),
            )
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass
        finally:
            for writer in (client_w, backend_w):
                if writer is not None:
                    self._open.discard(writer)
                    writer.close()

    @staticmethod
    async def _pipe(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter, stats: BackendStats | None
    ) -> None:
        try:
            while chunk := await reader.read(65536):
                if stats is not None:
                    stats.events_answered += chunk.count(EVENT_MESSAGE)
                writer.write(chunk)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()  # one side is done: so is the connection
