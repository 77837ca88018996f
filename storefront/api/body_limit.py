"""A cap on the request body of Reflex's upload endpoint, before anything reads it.

Reflex's `/_upload` parses the whole multipart body (spooling files to disk) before any event
handler, or our event guard, sees the upload, and `rx.upload`'s `max_size` is checked only in
the browser. So an anonymous client could make every worker read hundreds of megabytes. This
ASGI middleware answers 413 at once when `Content-Length` is over the cap, and counts the bytes
of a body without one (chunked) while it streams: past the cap it answers 413 and tells the app
the client has gone, so the app stops reading and its own answer is dropped.

The cap is one image at a time (the largest, 5 MB) plus multipart overhead: UPLOAD_MAX_BYTES,
6 MB by default."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from storefront.settings import get_settings

Message = MutableMapping[str, Any]
ASGIApp = Callable[..., Awaitable[None]]
UPLOAD_PATH = "/_upload"


def _is_upload(path: str) -> bool:
    # Reflex may put the backend under a path prefix: match the endpoint at the end.
    path = path.rstrip("/")
    return path == UPLOAD_PATH or path.endswith(UPLOAD_PATH)


async def _answer(send, status: int, text: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(text)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": text})


TOO_LARGE = b"Request body too large"


class UploadBodyLimit:
    def __init__(self, app: ASGIApp, *, max_bytes: int | None = None) -> None:
        self.app = app
        self._max_bytes = max_bytes

    @property
    def max_bytes(self) -> int:
        return self._max_bytes if self._max_bytes is not None else get_settings().upload_max_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or not _is_upload(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        cap = self.max_bytes
        declared = [v for k, v in scope.get("headers", []) if k.lower() == b"content-length"]
        if declared:
            try:
                length = int(declared[0])
            except ValueError:
                await _answer(send, 400, b"Bad Content-Length")
                return
            if length > cap:
                await _answer(send, 413, TOO_LARGE)  # the app never runs: nothing is read
                return

        received = 0
        cut = False
        started = False

        async def counted_receive() -> Message:
            nonlocal received, cut
            if cut:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > cap:
                    cut = True
                    if not started:
                        await _answer(send, 413, TOO_LARGE)
                    # The app sees a client that has gone and stops reading.
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if cut:
                return  # we have answered already
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counted_receive, guarded_send)


def upload_body_limit(app: ASGIApp) -> ASGIApp:
    """For `rx.App(api_transformer=[..., upload_body_limit, ...])`."""
    return UploadBodyLimit(app)
