"""A real HTTP server for tests standing in for docs/product.md §7's message handler
(ThreadingHTTPServer on
127.0.0.1): it records every JSON body it accepts, and can answer failures first."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HOST = "127.0.0.1"
WHATSAPP_FAILURE = (500, {"error": "Failed to send WhatsApp notification"})


class WebhookServer:
    """`requests` are the bodies answered with success; `calls` counts every POST."""

    def __init__(self, port: int = 0) -> None:
        """`port` 0 takes any free port; a fixed one lets a test give the app the address
        while nothing listens there yet, and start the server later."""
        self.requests: list[dict[str, Any]] = []
        self.calls = 0
        self.delay = 0.0  # seconds each answer takes, to widen races
        self._answers: list[tuple[int, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer((HOST, port), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/message-handler"

    def fail_next(self, count: int, answer: tuple[int, Any] = WHATSAPP_FAILURE) -> None:
        """Answer the next `count` calls with `answer` (status, JSON body) instead of success."""
        with self._lock:
            self._answers.extend([answer] * count)

    def __enter__(self) -> WebhookServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _answer(self, body: dict[str, Any]) -> tuple[int, Any]:
        with self._lock:
            self.calls += 1
            if self._answers:
                return self._answers.pop(0)
            self.requests.append(body)
            return 200, {"success": True}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"null")
                time.sleep(server.delay)
                status, answer = server._answer(body)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args) -> None:
                pass

        return Handler
