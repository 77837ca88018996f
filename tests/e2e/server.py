"""Start a Reflex app's production build on loopback and stop it again (tests and benchmarks)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

START_TIMEOUT = 600


def venv_env(port: int, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a production server on 127.0.0.1:`port`, with this virtualenv's node."""
    url = f"http://127.0.0.1:{port}"
    return (
        os.environ
        | {
            "PORT": str(port),
            "PUBLIC_URL": url,
            "CORS_ORIGINS": url,
            "REFLEX_USE_NPM": "1",
            "REFLEX_TELEMETRY_ENABLED": "false",
            "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
        }
        | (extra or {})
    )


def _wait_until_up(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early; see {log}:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(url + "/ping", timeout=2).status_code == 200 and (
                httpx.get(url + "/", timeout=5).status_code == 200
            ):
                return
        except httpx.HTTPError:
            pass
        time.sleep(1)
    raise RuntimeError(f"server did not start in {START_TIMEOUT}s; see {log}")


@contextmanager
def prod_server(project: Path, port: int, env: dict[str, str], log: Path) -> Iterator[str]:
    """`reflex run --env prod --single-port` in `project`, bound to 127.0.0.1; yields its URL."""
    url = f"http://127.0.0.1:{port}"
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "reflex"),
                "run",
                "--env",
                "prod",
                "--single-port",
                "--backend-host",
                "127.0.0.1",
                "--frontend-port",
                str(port),
                "--backend-port",
                str(port),
            ],
            cwd=project,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_until_up(url, process, log)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
