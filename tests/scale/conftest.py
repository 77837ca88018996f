"""Two app processes behind one load balancer, as on two hosts: one PostgreSQL database, one
Redis (a private `redis-server` the tests may restart), one S3 server (moto, server mode), the
same SECRET_KEY and PUBLIC_URL (the balancer's address) for both.

The frontend is the one build the browser tests use (`python -m storefront.prod build` for
http://localhost:E2E_PORT, made here when they have not made it). Process A is `make run-prod
WORKERS=2` (its checks, the migrations, its build step, which finds the build made, then
`storefront.prod serve` on 2 granian workers); process B serves the same build
(`tests/serve_built.py`, 1 worker), as a second host running the same artifact would. The
balancer is `tests/scale/proxy.py`, on 127.0.0.60:E2E_PORT: the page opens its websocket on its
own host (the build's is `localhost`), so the balancer is reached there.

Ports: A 3320, B 3321, Redis 56320, S3 56321 (the next free ones in 3320-3339 / 56300-56399
when taken)."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import DEFAULT_PG_URL, create_database, migrate, postgres_admin_url
from tests.e2e.conftest import BUILD_URL, PORT
from tests.e2e.server import build_frontend, built_server, chromium, served, venv_env
from tests.mail_server import MailServer
from tests.s3_server import create_public_bucket
from tests.scale.proxy import Proxy

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-results"
BUCKET = "images"
# The private Redis (restartable); without redis-server, a database of a running Redis.
REDIS_SERVER = os.environ.get("REDIS_SERVER", "redis-server")
SHARED_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/11")
S3_KEYS = {"S3_ACCESS_KEY_ID": "scale-key", "S3_SECRET_ACCESS_KEY": "scale-secret"}
# The balancer's address: a loopback address of its own, so it may use the build's port while a
# browser-test server of the same run answers on 127.0.0.1 there.
BALANCER_HOST = "127.0.0.60"


def _is_free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_ports(first: int, last: int, count: int) -> list[int]:
    ports = [p for p in range(first, last + 1) if _is_free(p)][:count]
    if len(ports) < count:
        pytest.skip(f"two-process tests SKIPPED: no {count} free ports in {first}-{last}")
    return ports


def _skip(reason: str) -> None:
    message = f"two-process tests SKIPPED: {reason}"
    print(f"\n{message}", file=sys.stderr)
    pytest.skip(message)


def _postgres_answers(url: str) -> bool:
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3):
            return True
    except Exception:
        return False


class SharedRedis:
    """A Redis the tests did not start (where redis-server is not installed): one database of
    it, flushed before and after. Never restarted: others may be using it."""

    restartable = False

    def __init__(self, url: str) -> None:
        self.url = url

    def client(self):
        import redis

        return redis.Redis.from_url(self.url, socket_timeout=5)

    def ping(self) -> bool:
        try:
            return bool(self.client().ping())
        except Exception:
            return False

    def start(self) -> None:
        self.client().flushdb()

    def stop(self) -> None:
        try:
            self.client().flushdb()
        except Exception:
            pass

    def restart(self) -> None:
        raise RuntimeError("the shared Redis is never restarted")


class RedisServer:
    """A private `redis-server` on loopback, without persistence: restarting it loses every
    key, as a restarted Redis without a dump or an AOF does."""

    restartable = True

    def __init__(self, port: int, log: Path) -> None:
        self.port, self.log = port, log
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("a") as out:
            self.process = subprocess.Popen(
                [
                    REDIS_SERVER,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.log.parent),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.ping():
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"redis-server did not start; see {self.log}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def client(self):
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)

    def ping(self) -> bool:
        try:
            return bool(self.client().ping())
        except Exception:
            return False


@contextmanager
def moto_s3(port: int) -> Iterator[str]:
    """moto's S3 in server mode on loopback, with a bucket anyone may read (as the operator
    sets it up); yields its endpoint."""
    import boto3
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    try:
        client = boto3.client(
            "s3",
            endpoint_url=endpoint,
            region_name="us-east-1",
            aws_access_key_id=S3_KEYS["S3_ACCESS_KEY_ID"],
            aws_secret_access_key=S3_KEYS["S3_SECRET_ACCESS_KEY"],
        )
        create_public_bucket(client, BUCKET)
        yield endpoint
    finally:
        server.stop()


@contextmanager
def make_run_prod(port: int, workers: int, env: dict[str, str], log: Path) -> Iterator[str]:
    """`make run-prod` (its checks, the migrations, its build step, then `storefront.prod serve`)
    on 127.0.0.1:`port`. `-o install`: the test runs in the
    virtualenv already, which make must not reinstall."""
    command = ["make", "-o", "install", "run-prod", f"WORKERS={workers}", "HOST=127.0.0.1"]
    with served(command, ROOT, port, env | {"PORT": str(port)}, log) as url:
        yield url


@dataclass
class Cluster:
    url: str  # the balancer: the site's PUBLIC_URL
    backends: list[str]  # process A, process B
    proxy: Proxy
    redis: RedisServer | SharedRedis
    s3_endpoint: str
    database_url: str
    build_changes: tuple  # tracked_changes() before and after the build
    timings: dict[str, float]


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    started = time.monotonic()
    admin_url = postgres_admin_url()
    if admin_url is None or not _postgres_answers(admin_url):
        _skip(
            "PostgreSQL is not reachable at "
            f"{admin_url or DEFAULT_PG_URL} (set TEST_DATABASE_URL, or run it on 127.0.0.1:5432)"
        )
    port_a, port_b = free_ports(3320, 3339, 2)
    redis_port, s3_port = free_ports(56320, 56399, 2)
    redis: RedisServer | SharedRedis
    if shutil.which(REDIS_SERVER):
        redis = RedisServer(redis_port, ARTIFACTS / "scale-redis" / "redis.log")
        try:
            redis.start()
        except (RuntimeError, OSError) as exc:
            redis.stop()
            _skip(f"a private Redis could not be started ({exc})")
    else:
        redis = SharedRedis(SHARED_REDIS_URL)
        if not redis.ping():
            _skip(
                f"{REDIS_SERVER} is not installed (apt-get install redis-server) and no Redis "
                f"answers at {SHARED_REDIS_URL} (TEST_REDIS_URL)"
            )
        print(
            f"\n{REDIS_SERVER} is not installed: the two processes share {SHARED_REDIS_URL} "
            "(flushed); the Redis restart test is skipped",
            file=sys.stderr,
        )
        redis.start()

    drop = None
    try:
        database_url, drop = create_database("postgresql")
        migrate(database_url)
        # ENVIRONMENT=prod refuses to start without a mail server (issue 18, finding 9).
        with moto_s3(s3_port) as s3_endpoint, MailServer() as mail:
            env = venv_env(
                PORT,
                {
                    # The build's address (the balancer answers on BALANCER_HOST:PORT).
                    "PUBLIC_URL": BUILD_URL,
                    "CORS_ORIGINS": f"{BUILD_URL},http://{BALANCER_HOST}:{PORT}",
                    "ENVIRONMENT": "prod",
                    "SECRET_KEY": secrets.token_urlsafe(48),
                    "DATABASE_URL": database_url,
                    "REFLEX_REDIS_URL": redis.url,
                    "STORAGE_BACKEND": "s3",
                    "S3_BUCKET": BUCKET,
                    "S3_ENDPOINT_URL": s3_endpoint,
                    "S3_REGION": "us-east-1",
                    **S3_KEYS,
                    # As behind one proxy: the visitor's address is the last X-Forwarded-For entry.
                    "TRUSTED_PROXY_HOPS": "1",
                    "OUTBOX_POLL_SECONDS": "1",
                    "SMTP_HOST": mail.host,
                    "SMTP_PORT": str(mail.port),
                    "SMTP_STARTTLS": "false",
                },
            )
            subprocess.run([sys.executable, "-m", "storefront.seed"], cwd=ROOT, env=env, check=True)
            timings = {"services ready": time.monotonic() - started}
            before, after = build_frontend(BUILD_URL)
            timings["built"] = time.monotonic() - started
            log_a = ARTIFACTS / "scale-server-a.log"
            start_a = (
                make_run_prod(port_a, 2, env, log_a)
                if shutil.which("make")
                else built_server("127.0.0.1", port_a, env | {"GRANIAN_WORKERS": "2"}, log_a)
            )
            with start_a as url_a:
                timings["A up"] = time.monotonic() - started
                env_b = env | {"GRANIAN_WORKERS": "1"}
                log_b = ARTIFACTS / "scale-server-b.log"
                with built_server("127.0.0.1", port_b, env_b, log_b) as url_b:
                    timings["B up"] = time.monotonic() - started
                    with Proxy(PORT, [port_a, port_b], host=BALANCER_HOST) as proxy:
                        yield Cluster(
                            url=proxy.url,
                            backends=[url_a, url_b],
                            proxy=proxy,
                            redis=redis,
                            s3_endpoint=s3_endpoint,
                            database_url=database_url,
                            build_changes=(before, after),
                            timings=timings,
                        )
    finally:
        if drop is not None:
            drop()
        redis.stop()


@pytest.fixture(scope="session")
def browser():
    with chromium("browser parts") as browser:
        yield browser
