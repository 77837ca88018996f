"""Start a Reflex app's production build on loopback and stop it again (tests and benchmarks)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

START_TIMEOUT = 600
# Debian's Chromium, as every browser test and benchmark launches it (Playwright cannot
# download its own browsers here).
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# A name that is not loopback, for a build served as if at a public address
# (tests/e2e/test_first_admin_public.py); the test browser resolves it to 127.0.0.1.
PUBLIC_HOST = "storefront.public.test"
CHROMIUM_ARGS = [
    f"--host-resolver-rules=MAP {PUBLIC_HOST} 127.0.0.1",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


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


def tracked_changes(root: Path) -> dict[str, str] | None:
    """Each tracked file of `root` that differs from the last commit, with its `git diff HEAD`;
    None outside a git checkout. Taken before and after a build: building the app must not
    change a tracked file (Reflex rewrites reflex.lock/ when its content is not exactly what
    the build writes)."""
    if shutil.which("git") is None:
        return None
    inside = subprocess.run(
        ["git", "rev-parse", "--is-inside-work-tree"], cwd=root, capture_output=True, text=True
    )
    if inside.returncode != 0 or inside.stdout.strip() != "true":
        return None
    diff = subprocess.run(
        ["git", "diff", "HEAD", "--no-ext-diff", "--binary"],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "replace")
    files: dict[str, str] = {}
    for block in diff.split("diff --git ")[1:]:
        path = block.split("\n", 1)[0].split(" b/", 1)[-1]
        files[path] = block
    return files


def changed_by_build(before: dict[str, str], after: dict[str, str]) -> str:
    """What a build changed in tracked files, for an assertion message ('' when nothing)."""
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    return "".join(
        f"\n{path}:\n{(after.get(path) or '(restored to the commit)')[:1500]}" for path in changed
    )


def _answers(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something accepts connections on `host`:`port`."""
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((host, port)) == 0


@contextmanager
def served(
    command: list[str],
    cwd: Path,
    port: int,
    env: dict[str, str],
    log: Path,
    timeout: float = START_TIMEOUT,
    host: str = "127.0.0.1",
) -> Iterator[str]:
    """Run `command` in `cwd` until the server it starts on `host`:`port` answers `/ping`
    and `/`; yields its URL and stops its whole process group afterwards."""
    url = f"http://{host}:{port}"
    if _answers(port, host):
        # Another server (a second test run, a `make run`) would answer in this one's place.
        raise RuntimeError(
            f"{host}:{port} is already taken: stop what listens there, or choose another port "
            "(E2E_PORT for the browser tests)"
        )
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(
                    f"{command[:4]} exited early; see {log}:\n{log.read_text()[-3000:]}"
                )
            try:
                if httpx.get(url + "/ping", timeout=2).status_code == 200 and (
                    httpx.get(url + "/", timeout=5).status_code == 200
                ):
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{command[:4]} did not start in {timeout}s; see {log}")
            time.sleep(0.5)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


@contextmanager
def prod_server(project: Path, port: int, env: dict[str, str], log: Path) -> Iterator[str]:
    """The production build of `project` served on 127.0.0.1:`port`; yields its URL. The
    storefront is built the way `make run-prod` builds it (once per change of code or
    PUBLIC_URL, storefront/prod.py) and served from that build; another Reflex app (the blank
    app a benchmark compares with) by `reflex run --env prod --single-port`."""
    if (project / "storefront" / "prod.py").is_file():
        python = str(Path(sys.executable))
        subprocess.run([python, "-m", "storefront.prod", "build"], cwd=project, env=env, check=True)
        command = [python, "-m", "storefront.prod", "serve", "127.0.0.1", str(port)]
        with served(command, project, port, env, log) as url:
            yield url
        return
    command = [
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
    ]
    with served(command, project, port, env, log) as url:
        yield url


def build_frontend(url: str) -> tuple[dict | None, dict | None]:
    """The production frontend of this checkout, built for `url` (`python -m storefront.prod
    build`, under its lock: the first test process builds, the others wait and find it built);
    returns `tracked_changes` before and after (the same twice when the build was already
    there: the process that built checks what its build changed)."""
    from storefront.prod import ROOT

    before = tracked_changes(ROOT)
    env = os.environ | {
        "PUBLIC_URL": url,
        "REFLEX_USE_NPM": "1",
        "REFLEX_TELEMETRY_ENABLED": "false",
    }
    env["PATH"] = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"
    subprocess.run(
        [sys.executable, "-m", "storefront.prod", "build"], cwd=ROOT, env=env, check=True
    )
    return before, tracked_changes(ROOT)


@contextmanager
def built_server(host: str, port: int, env: dict[str, str], log: Path) -> Iterator[str]:
    """The build already in `.web`, served on `host`:`port` (tests/serve_built.py)."""
    from storefront.prod import ROOT

    command = [sys.executable, "-m", "tests.serve_built", host, str(port)]
    with served(command, ROOT, port, env | {"PORT": str(port)}, log, 120, host=host) as url:
        yield url


@contextmanager
def chromium(what: str, host_rules: str = f"MAP {PUBLIC_HOST} 127.0.0.1") -> Iterator:
    """Debian's Chromium under Playwright, for a session's tests; skips `what` (saying so) when
    it is not installed, since Playwright cannot download a browser here."""
    import pytest
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.skip(f"{what} SKIPPED: {CHROMIUM} is not installed")
    with sync_playwright() as playwright:
        args = [f"--host-resolver-rules={host_rules}", *CHROMIUM_ARGS[1:]]
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        yield browser
        browser.close()
