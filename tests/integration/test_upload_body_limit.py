"""The cap on `/_upload` request bodies, through a real HTTP server: granian (what `reflex run
--env prod` serves the backend with) on 127.0.0.1, running a tiny app behind the same
middleware as the storefront (tests/upload_limit_app.py), with the default cap (6 MB).

A body declared too large is refused before the app runs; a chunked body is counted while it
streams and cut off past the cap, the app never given more than the cap."""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from storefront.api.body_limit import UploadBodyLimit, upload_body_limit
from storefront.settings import get_settings

ROOT = Path(__file__).resolve().parents[2]
CAP = 6 * 1024 * 1024
CHUNK = 256 * 1024


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "UPLOAD_MAX_BYTES"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "granian",
            "--interface",
            "asgi",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "1",
            "--no-ws",
            "tests.upload_limit_app:app",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("granian did not start")
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _read_response(sock: socket.socket) -> tuple[int, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        piece = sock.recv(65536)
        if not piece:
            break
        data += piece
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = next(
        (
            int(line.split(b":", 1)[1])
            for line in lines[1:]
            if line.lower().startswith(b"content-length:")
        ),
        None,
    )
    while length is not None and len(body) < length:
        piece = sock.recv(65536)
        if not piece:
            break
        body += piece
    return status, body


def _answered(sock: socket.socket, wait: float = 0.0) -> bool:
    readable, _, _ = select.select([sock], [], [], wait)
    return bool(readable)


def send(port: int, path: str, *, declared: int | None, total: int) -> tuple[int, bytes, int]:
    """POST `total` bytes to `path`, declared with Content-Length or sent chunked; stops sending
    as soon as the server answers. Returns the status, the body and the bytes sent."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    headers = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/octet-stream"]
    headers.append(
        f"Content-Length: {declared}" if declared is not None else "Transfer-Encoding: chunked"
    )
    sent = 0
    with sock:
        sock.sendall(("\r\n".join(headers) + "\r\n\r\n").encode())
        try:
            while sent < total and not _answered(sock):
                size = min(CHUNK, total - sent)
                piece = b"x" * size
                sock.sendall(piece if declared is not None else b"%x\r\n%s\r\n" % (size, piece))
                sent += size
            if declared is None and not _answered(sock):
                sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server has answered and closed: what it said is read below
        _answered(sock, wait=10)
        status, body = _read_response(sock)
    return status, body, sent


def stats(port: int) -> dict[str, int]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    with sock:
        sock.sendall(b"GET /stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        status, body = _read_response(sock)
    assert status == 200
    return json.loads(body)


@pytest.fixture
def fresh(port: int) -> int:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    with sock:
        sock.sendall(b"POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
        assert _read_response(sock)[0] == 200
    return port


def test_the_default_cap_is_one_image_plus_overhead():
    assert get_settings().upload_max_bytes == CAP
    assert UploadBodyLimit(lambda *a: None).max_bytes == CAP


def test_a_declared_50_mb_body_is_refused_before_the_app_runs(fresh):
    started = time.monotonic()
    status, body, sent = send(fresh, "/_upload", declared=50 * 1024 * 1024, total=50 * 1024 * 1024)
    assert status == 413 and body == b"Request body too large"
    assert sent < CAP  # answered long before the body was sent
    assert time.monotonic() - started < 5
    assert stats(fresh) == {"calls": 0, "bytes": 0, "disconnects": 0, "completed": 0}


def test_a_chunked_body_is_cut_off_past_the_cap(fresh):
    status, body, sent = send(fresh, "/_upload", declared=None, total=40 * 1024 * 1024)
    assert status == 413 and body == b"Request body too large"
    assert sent > CAP  # the client did send more than the cap...
    assert sent < 40 * 1024 * 1024  # ...but was stopped well before the end
    seen = stats(fresh)
    assert seen["calls"] == 1
    assert seen["bytes"] <= CAP  # ...and the app never got past the cap
    assert seen["disconnects"] == 1 and seen["completed"] == 0


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_an_image_sized_upload_passes_untouched(fresh, declared):
    total = 5 * 1024 * 1024 + 100_000  # a 5 MB image and its multipart wrapping
    status, body, sent = send(fresh, "/_upload", declared=total if declared else None, total=total)
    assert (status, body, sent) == (200, b"read", total)
    assert stats(fresh)["bytes"] == total


def test_other_routes_are_not_capped(fresh):
    total = 8 * 1024 * 1024
    status, body, _ = send(fresh, "/other", declared=total, total=total)
    assert (status, body) == (200, b"read")
    assert stats(fresh)["bytes"] == total


def test_the_storefront_installs_the_cap_inside_the_security_headers():
    import storefront.storefront as site
    from storefront.api.security import security_headers

    transformers = site.app.api_transformer
    assert upload_body_limit in transformers
    assert transformers.index(upload_body_limit) < transformers.index(security_headers)
