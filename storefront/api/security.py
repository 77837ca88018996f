"""Security headers on every HTTP response: pages, media, API routes and errors alike.

The Content-Security-Policy is as strict as the compiled frontend allows: scripts only from this
site plus the exact inline scripts of the page being served (their SHA-256 hashes, computed
from the page itself), 'unsafe-eval' because Reflex runs `rx.call_script` through eval, inline
styles because Radix sets them, and no framing at all."""

from __future__ import annotations

import base64
import gzip
import hashlib
import re
from collections import OrderedDict
from collections.abc import Callable
from urllib.parse import urlsplit

from storefront.services.media.storage import image_origin
from storefront.settings import get_settings

ASGIApp = Callable

INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL | re.I)
_CACHE_SIZE = 256


def _origin(url: str | None) -> str:
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def base_policy() -> dict[str, str]:
    settings = get_settings()
    public = _origin(settings.public_url)
    socket = public.replace("https://", "wss://").replace("http://", "ws://")
    # Stored images come from this site (/media) or from the bucket's public address.
    images = " ".join(filter(None, ["'self' data: blob:", image_origin(settings)]))
    return {
        "default-src": "'self'",
        "script-src": "'self' 'unsafe-eval'",
        "style-src": "'self' 'unsafe-inline'",
        "img-src": images.strip(),
        "font-src": "'self' data:",
        "connect-src": f"'self' {socket}".strip(),
        "manifest-src": "'self'",
        "frame-ancestors": "'none'",
        "object-src": "'none'",
        "base-uri": "'self'",
        "form-action": "'self'",
    }


def policy_for(html: bytes | None) -> str:
    """The CSP of a response; for a page, its inline scripts are allowed by hash."""
    directives = base_policy()
    if html:
        hashes = sorted(
            {
                "'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'"
                for body in INLINE_SCRIPT.findall(html)
            }
        )
        if hashes:
            directives["script-src"] += " " + " ".join(hashes)
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def common_headers() -> list[tuple[bytes, bytes]]:
    headers = [
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"strict-origin-when-cross-origin"),
        (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    ]
    if get_settings().public_url.startswith("https://"):
        headers.append((b"strict-transport-security", b"max-age=31536000; includeSubDomains"))
    return headers


class SecurityHeaders:
    """ASGI middleware: adds the headers above to every HTTP response. HTML bodies are read
    whole (they are small, prebuilt files) to hash their inline scripts."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._policies: OrderedDict[bytes, str] = OrderedDict()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        media = scope.get("path", "").startswith(get_settings().media_url_prefix + "/")
        # Files must come as body messages (not the server's pathsend extension), so that a
        # page's inline scripts can be hashed before its headers go out.
        extensions = {k: v for k, v in scope.get("extensions", {}).items() if "pathsend" not in k}
        scope = {**scope, "extensions": extensions}
        held: dict = {}
        chunks: list[bytes] = []

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                if message.get("status") == 304:
                    # The cached page keeps the policy that came with it (the hashes of its
                    # own scripts): a 304 carries no body to hash, and its headers would
                    # replace the cached ones.
                    await send(self._decorate(message, None, media=media, policy=False))
                    return
                if _is_html(message):
                    held["start"] = message
                    return
                await send(self._decorate(message, None, media=media))
                return
            if message["type"] == "http.response.body" and "start" in held:
                chunks.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                body = b"".join(chunks)
                start = self._decorate(held.pop("start"), body, media=False)
                await send(start)
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _decorate(
        self, start: dict, body: bytes | None, *, media: bool, policy: bool = True
    ) -> dict:
        names_to_drop = {b"content-security-policy", b"x-frame-options"}
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() not in names_to_drop]
        headers += common_headers()
        if policy:
            headers.append((b"content-security-policy", self._policy(body, start).encode()))
        if media:
            headers = [(k, v) for k, v in headers if k.lower() != b"content-disposition"]
            headers.append((b"content-disposition", b"inline"))
        return {**start, "headers": headers}

    def _policy(self, body: bytes | None, start: dict) -> str:
        if body is None:
            return policy_for(None)
        key = hashlib.sha256(body).digest()
        if key not in self._policies:
            html = _decoded(body, start)
            self._policies[key] = policy_for(html)
            if len(self._policies) > _CACHE_SIZE:
                self._policies.popitem(last=False)
        return self._policies[key]


def _header(start: dict, name: bytes) -> bytes:
    for key, value in start.get("headers", []):
        if key.lower() == name:
            return value
    return b""


def _is_html(start: dict) -> bool:
    return _header(start, b"content-type").startswith(b"text/html")


def _decoded(body: bytes, start: dict) -> bytes:
    if _header(start, b"content-encoding").strip() == b"gzip":
        try:
            return gzip.decompress(body)
        except OSError:
            return b""
    return body


def security_headers(app: ASGIApp) -> ASGIApp:
    """For `rx.App(api_transformer=[..., security_headers])`."""
    return SecurityHeaders(app)
