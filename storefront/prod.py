"""Build the production frontend once, and serve that build: what `make run-prod` runs on every
host, and what the browser and two-process test suites share (one build per change of code).

    python -m storefront.prod build              # build unless this code's build is there
    python -m storefront.prod serve HOST PORT    # serve .web's build (backend + frontend, one port)

`reflex run --env prod` compiles and builds the frontend every time it starts (a minute or two,
and two of them on one checkout rebuild `.web` under each other). Here the build is made by
`reflex export --frontend-only --no-zip --env prod` under a lock, and stamped with what it
depends on: the app's sources (`storefront/`, `assets/`, `rxconfig.py`, `reflex.lock/`,
`requirements.txt`) and the one setting built into the bundle, `PUBLIC_URL` (where the browser
opens the websocket, and the pages' canonical and preview addresses; docs/architecture.md §8).
A build whose stamp matches is used as it is. `serve` is Reflex's own production path after its build step
(`reflex.utils.exec.run_backend_prod` with the compiled frontend mounted, granian with
GRANIAN_WORKERS workers, Redis state when REFLEX_REDIS_URL is set), so every host behind a
balancer serves the same artifact. Its workers count what `/metrics` shows into one folder,
PROMETHEUS_MULTIPROC_DIR (services/metrics.py): the operator's, emptied of the last run's files
at start, or else a fresh one made here and removed when serving ends."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dotenv import dotenv_values

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / ".web"
STATIC = WEB / "build" / "client"
STAMP = WEB / "storefront-build.json"
LOCK = WEB / "storefront-build.lock"
# What the bundle is built from. A change anywhere here makes the next `build` build again.
SOURCES = ("storefront", "assets", "rxconfig.py", "reflex.lock", "requirements.txt")
# Settings read when the pages are compiled (the rest are read at run time).
BUILT_IN_SETTINGS = ("PUBLIC_URL",)
_SKIP = {"__pycache__", ".DS_Store"}


def _files(root: Path) -> Iterator[Path]:
    for name in SOURCES:
        path = root / name
        if path.is_file():
            yield path
        elif path.is_dir():
            for found in sorted(path.rglob("*")):
                if found.is_file() and not _SKIP & set(found.relative_to(root).parts):
                    if found.suffix not in {".pyc", ".pyo"}:
                        yield found


def stamp(root: Path = ROOT, env: dict[str, str] | None = None) -> dict[str, str]:
    """What a build of `root` with `env` depends on, as a comparable record. Settings are read
    as rxconfig.py reads them: the environment first, then the project's `.env`."""
    env = {**dotenv_values(root / ".env"), **(os.environ if env is None else env)}
    digest = hashlib.sha256()
    for path in _files(root):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    record = {"sources": digest.hexdigest()}
    record.update({name: env.get(name) or "" for name in BUILT_IN_SETTINGS})
    return record


def _built(root: Path) -> dict[str, str]:
    """What the build in `root`/.web was made for, as Reflex wrote it (env.json: the backend's
    addresses). Another build in the same folder (`reflex run --env prod`, a benchmark's)
    rewrites it, so a stamp never vouches for a build it did not see."""
    try:
        return {"env.json": (root / ".web" / "env.json").read_text()}
    except OSError:
        return {"env.json": ""}


def is_current(root: Path = ROOT, env: dict[str, str] | None = None) -> bool:
    """Whether `.web` holds the build of this code and these settings."""
    web = root / ".web"
    try:
        recorded = json.loads((web / STAMP.name).read_text())
    except (OSError, ValueError):
        return False
    expected = stamp(root, env) | _built(root)
    return (web / "build" / "client").is_dir() and recorded == expected


@contextmanager
def _locked(root: Path) -> Iterator[None]:
    """One build at a time per checkout (several test workers, two processes of one host)."""
    web = root / ".web"
    web.mkdir(exist_ok=True)
    with (web / LOCK.name).open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def build(root: Path = ROOT, env: dict[str, str] | None = None) -> bool:
    """Build the frontend of `root` unless its current build matches; True when it built."""
    env = dict(os.environ if env is None else env)
    with _locked(root):
        if is_current(root, env):
            print("Frontend build is up to date.", flush=True)
            return False
        (root / ".web" / STAMP.name).unlink(missing_ok=True)
        command = [sys.executable, "-m", "reflex", "export", "--frontend-only", "--no-zip"]
        subprocess.run([*command, "--env", "prod"], cwd=root, env=env, check=True)
        (root / ".web" / STAMP.name).write_text(json.dumps(stamp(root, env) | _built(root)))
        return True


def production_mode() -> None:
    """Reflex's production mode, as `reflex run --env prod` sets it, before Reflex is imported
    (the workers inherit it): an unexpected error tells the visitor 'Contact the website
    administrator.' and not the exception's text, and a state's fields are set without the
    development checks (a per-assignment hook and a walk of every list's elements, about a
    third of a page load's time on one worker)."""
    os.environ["REFLEX_ENV_MODE"] = "prod"


# prometheus-client's files in PROMETHEUS_MULTIPROC_DIR, one of each kind per process.
METRICS_FILES = ("counter_*.db", "gauge_*.db", "histogram_*.db", "summary_*.db")


def metrics_folder() -> Path | None:
    """Set PROMETHEUS_MULTIPROC_DIR for this process and its workers, before anything imports
    prometheus-client: the operator's folder, emptied of the files a previous run left (their
    counts would be added to this run's), or a new private folder, which is returned for the
    caller to remove (None for the operator's)."""
    named = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip()
    if named:
        folder = Path(named)
        folder.mkdir(parents=True, exist_ok=True)
        for pattern in METRICS_FILES:
            for stale in folder.glob(pattern):
                stale.unlink(missing_ok=True)
        return None
    made = Path(tempfile.mkdtemp(prefix="storefront-metrics-"))
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(made)
    return made


def serve(host: str, port: int, *, check: bool = True) -> None:
    """Serve the build in `.web` (which `build` made) on host:port, without compiling again.
    `check`: refuse a build made for other code or another PUBLIC_URL (the browser would open
    its websocket elsewhere)."""
    if check and not is_current():
        raise SystemExit(
            "The frontend build in .web is missing or was made for other code or settings: "
            "run `python -m storefront.prod build` first (make run-prod does)."
        )
    production_mode()
    made = metrics_folder()
    from reflex.utils import exec as reflex_exec
    from reflex_base.constants.base import LogLevel
    from reflex_base.environment import environment

    environment.REFLEX_SKIP_COMPILE.set(True)
    try:
        reflex_exec.run_backend_prod(host, port, LogLevel.INFO, mount_frontend_compiled_app=True)
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["build"] and len(argv) == 1:
        build()
    elif argv[:1] == ["serve"] and len(argv) == 3:
        serve(argv[1], int(argv[2]))
    else:
        raise SystemExit("usage: python -m storefront.prod build | serve HOST PORT")


if __name__ == "__main__":
    main(sys.argv[1:])
