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

from storefront.services.accounts import auth

NAMESPACE = "/_event"  # Reflex's socket.io namespace, as the browser uses it
HYDRATE = f"{State.get_full_name()}.hydrate"
# The barrier `send` puts behind each event: Reflex's own public setter of the hydrated flag,
# which answers every time with the flag (and changes nothing a test looks at).
ROOT = State.get_full_name()
BARRIER = f"{ROOT}.set_is_hydrated"
HYDRATED = "is_hydrated_rx_state_"


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
        self._arrived = asyncio.Event()
        self.client.on("event", self._on_event, namespace=NAMESPACE)

    async def _on_event(self, data) -> None:
        self.received.append(json.dumps(data))
        self._arrived.set()  # a message came: `_next` stops waiting

    async def _next(self, timeout: float) -> bool:
        """Wait up to `timeout` s for another message; whether one came."""
        self._arrived.clear()
        try:
            await asyncio.wait_for(self._arrived.wait(), timeout)
        except TimeoutError:
            return False
        return True

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
        await self.send_event(name, path, payload, query)

    async def send_event(
        self, name: str, path: str, payload: dict, query: dict[str, str] | None = None
    ) -> None:
        """`send_name` with the payload as one dict (a handler may take an argument `name`)."""
        await self.client.emit(
            "event", event_message(name, self.token, path, payload, query), namespace=NAMESPACE
        )
        # Then barriers until one round brings nothing else: the events that the handler chains
        # are queued behind the first barrier, so a second one waits for them too.
        while True:
            before = len(self.received)
            if not await self._barrier(path) or len(self.received) == before:
                return

    async def _barrier(self, path: str, timeout: float = 5) -> bool:
        """Send the barrier and wait for its answer: the server handles one tab's events one
        after another, so when it answers, every event sent before it has been handled and its
        answers have arrived. A refused event answers nothing; this is how a test knows the
        refusal is done without waiting out a timeout. The answer may also carry what changed
        since the last answer (the page's path, the identity the guard read): that stays in
        `received`, without the barrier's own flag. False when no answer came within `timeout`
        (an event that cannot be answered, e.g. while Redis is down, holds the barrier too)."""
        start = len(self.received)
        self._arrived.clear()
        await self.client.emit(
            "event", event_message(BARRIER, self.token, path, {"value": True}), namespace=NAMESPACE
        )
        deadline = asyncio.get_running_loop().time() + timeout
        while (index := self._barrier_answer(start)) is None:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0 or not await self._next(left):
                return False
        message = json.loads(self.received[index])
        root = message["delta"][ROOT]
        del root[HYDRATED]
        if not root:
            del message["delta"][ROOT]
        if message["delta"] or message.get("events"):
            self.received[index] = json.dumps(message)
        else:
            del self.received[index]
        return True

    def _barrier_answer(self, start: int) -> int | None:
        for index in range(start, len(self.received)):
            if f'"{HYDRATED}": true' in self.received[index]:
                delta = json.loads(self.received[index]).get("delta", {})
                if delta.get(ROOT, {}).get(HYDRATED) is True:
                    return index
        return None

    def text(self) -> str:
        return "\n".join(self.received)

    def states_text(self) -> str:
        """What the server sent of the app's states: `text` without the root state, which only
        echoes the page's own address and route arguments (a path the tab sent itself)."""
        kept = []
        for raw in self.received:
            message = json.loads(raw)
            message.get("delta", {}).pop(ROOT, None)
            kept.append(json.dumps(message))
        return "\n".join(kept)

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
