"""A socket.io client speaking Reflex's event protocol, as a browser tab does: tests use it to
send forged events over the real websocket of the production build, with or without a session
cookie, and to read every delta the server sends back."""

from __future__ import annotations

import asyncio
import json
import uuid
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import socketio
from reflex.state import State

from storefront.services import auth

NAMESPACE = "/_event"  # Reflex's socket.io namespace, as the browser uses it
HYDRATE = f"{State.get_full_name()}.hydrate"


def event_name(handler) -> str:
    return f"{handler.state_full_name}.{handler.fn.__name__}"


def event_message(
    name: str, token: str, path: str, payload: dict, query: dict[str, str] | None = None
) -> dict:
    """An event as the browser emits it: handler name, arguments, tab token and the page."""
    return {
        "name": name,
        "payload": payload,
        "token": token,
        "router_data": {
            "pathname": path,
            "asPath": path + (f"?{urlencode(query)}" if query else ""),
            "query": query or {},
        },
    }


class Tab:
    """One browser tab: a Reflex client token (kept across reconnects, as sessionStorage
    keeps it) and an optional `sf_session` cookie. It hydrates when it connects, as a page
    does."""

    def __init__(
        self,
        url: str,
        cookie: str | None,
        token: str | None = None,
        *,
        hydrate: bool = True,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.url, self.cookie, self.hydrate = url, cookie, hydrate
        self.headers = headers or {}
        self.token = token or str(uuid.uuid4())
        self.client = socketio.AsyncClient(reconnection=False)
        self.received: list[str] = []
        self.client.on("event", self._on_event, namespace=NAMESPACE)

    async def _on_event(self, data) -> None:
        self.received.append(json.dumps(data))

    async def __aenter__(self) -> Tab:
        headers = dict(self.headers)
        if self.cookie:
            headers["Cookie"] = f"{auth.COOKIE_NAME}={self.cookie}"
        await self.client.connect(
            f"{self.url}?token={self.token}",
            socketio_path="/_event",
            transports=["websocket"],
            headers=headers,
            namespaces=[NAMESPACE],
            wait_timeout=10,
        )
        if not self.hydrate:
            return self
        # A browser hydrates first; a tab that never did is reloaded (state/guard.py).
        await self.client.emit(
            "event", event_message(HYDRATE, self.token, "/", {}), namespace=NAMESPACE
        )
        for _ in range(100):
            if self.received:
                break
            await asyncio.sleep(0.05)
        return self

    async def __aexit__(self, *_exc) -> None:
        await self.client.disconnect()

    async def send(self, handler, path: str = "/", **payload) -> None:
        """Emit `handler` with `payload` and wait until the server has answered it."""
        await self.send_name(event_name(handler), path, **payload)

    async def send_name(
        self, name: str, path: str = "/", query: dict[str, str] | None = None, **payload
    ) -> None:
        """`query` is the page's query string, as the browser sends it beside the path."""
        before = len(self.received)
        await self.client.emit(
            "event", event_message(name, self.token, path, payload, query), namespace=NAMESPACE
        )
        for _ in range(50):
            if len(self.received) > before:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.3)

    def text(self) -> str:
        return "\n".join(self.received)

    async def wait_for(self, *needles: str, timeout: float = 15) -> str:
        """Wait until one of `needles` appears in what the server sent (a handler that yields
        answers more than once); returns everything received."""
        for _ in range(int(timeout / 0.1)):
            if any(needle in self.text() for needle in needles):
                break
            await asyncio.sleep(0.1)
        return self.text()


def run(coroutine):
    """Run in a thread of its own: Playwright's sync API keeps a loop running in this one."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
