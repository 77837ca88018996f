"""A private PostgreSQL cluster for the fault tests: its own data folder, socket folder and port
(56400-56499), so it can be stopped and restarted without touching the shared server that other
tests use. initdb and pg_ctl run as the `postgres` OS user when this process is root.

    with PrivatePostgres() as pg:       # initdb + start; stop and delete on exit
        url = pg.create_database("x")   # postgresql://postgres@127.0.0.1:<port>/x
        pg.restart()                    # pg_ctl restart -m fast
        pg.stop(); pg.start()
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

PORTS = range(56400, 56500)
HOST = "127.0.0.1"


def pg_bin_dir() -> Path | None:
    """The newest /usr/lib/postgresql/*/bin with initdb and pg_ctl, else None."""
    found = []
    for folder in glob.glob("/usr/lib/postgresql/*/bin"):
        path = Path(folder)
        if (path / "initdb").exists() and (path / "pg_ctl").exists():
            try:
                found.append((int(path.parent.name), path))
            except ValueError:
                found.append((0, path))
    return max(found)[1] if found else None


def unavailable_reason() -> str | None:
    """Why a private cluster cannot be started here, or None when it can."""
    if pg_bin_dir() is None:
        return "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb, pg_ctl)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' OS user to run initdb as"
        if shutil.which("runuser") is None:
            return "running as root without runuser to switch to the 'postgres' user"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed"
    return None


def _free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind((HOST, port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 56400-56499")


class PrivatePostgres:
    def __init__(self) -> None:
        reason = unavailable_reason()
        if reason:
            raise RuntimeError(reason)
        self.bin = pg_bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="storefront-faults-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = _free_port()
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        os.chmod(self.root, 0o700)

    # --- commands ---------------------------------------------------------------------------

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        command = [str(self.bin / args[0]), *args[1:]]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if result.returncode != 0:
            raise RuntimeError(
                f"{' '.join(args[:2])} failed ({result.returncode}): {result.stderr[-2000:]}"
                f"\n{self.log_tail()}"
            )
        return result

    def _ctl(self, action: str, *extra: str) -> None:
        self._run(
            "pg_ctl",
            action,
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {self.port} -k {self.root} -c listen_addresses={HOST}",
            *extra,
        )

    def init(self) -> PrivatePostgres:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8")
        with (self.data / "postgresql.conf").open("a") as conf:
            # A throwaway cluster: no fsync (a clean shutdown still writes everything).
            conf.write("\nfsync = off\nfull_page_writes = off\nmax_connections = 100\n")
        return self

    def start(self) -> float:
        """Start; seconds until it accepts connections."""
        began = time.monotonic()
        self._ctl("start")
        return time.monotonic() - began

    def stop(self, mode: str = "fast") -> float:
        began = time.monotonic()
        self._ctl("stop", "-m", mode)
        return time.monotonic() - began

    def restart(self, mode: str = "fast") -> float:
        began = time.monotonic()
        self._ctl("restart", "-m", mode)
        return time.monotonic() - began

    def is_running(self) -> bool:
        try:
            self._run("pg_ctl", "status", "-D", str(self.data), timeout=30)
        except RuntimeError:
            return False
        return True

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    # --- databases --------------------------------------------------------------------------

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@{HOST}:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True, connect_timeout=10) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    # --- lifetime ---------------------------------------------------------------------------

    def __enter__(self) -> PrivatePostgres:
        self.init()
        self.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            if self.is_running():
                self.stop("immediate")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
