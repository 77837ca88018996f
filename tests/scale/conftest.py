"""Two app processes behind nginx, as on two hosts, set up the way docs/operations.md, 'Several
workers and hosts', tells an operator to: its exports (read from that section, with this
machine's addresses and a fresh secret in place of the examples), `make run-prod WORKERS=n` and
`make seed`, then nginx with the site of deploy/nginx.conf in front. One PostgreSQL database,
one Redis (a private `redis-server` the tests may restart), one S3 server (moto, server mode).

The frontend is the one build the browser tests use (`python -m storefront.prod build` for
http://localhost:E2E_PORT, made here when they have not made it). Process A is the recipe's
`make run-prod WORKERS=n` (its checks, the migrations, its build step, which finds the build
made, then `storefront.prod serve` on n granian workers); process B serves the same build
(`tests/serve_built.py`, 1 worker), as a second host running the same artifact would. Then the
recipe's `make seed`, with the same settings. nginx (tests/scale/nginx.py) listens on
127.0.0.60:E2E_PORT: the page opens its websocket on its own host (the build's is `localhost`),
so the balancer is reached there.

Ports: A 3320, B 3321, Redis 56320, S3 56321 (the next free ones in 3320-3339 / 56300-56399
when taken)."""

from __future__ import annotations

import os
import re
import secrets
import shlex
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

from tests.conftest import DEFAULT_PG_URL, create_database, postgres_admin_url
from tests.e2e.conftest import BUILD_URL, PORT
from tests.e2e.server import build_frontend, built_server, chromium, served
from tests.mail_server import MailServer
from tests.s3_server import create_public_bucket
from tests.scale.nginx import NGINX, Nginx

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-results"
OPERATIONS = ROOT / "docs" / "operations.md"
RECIPE_SECTION = "## Several workers and hosts"
# The private Redis (restartable); without redis-server, a database of a running Redis.
REDIS_SERVER = os.environ.get("REDIS_SERVER", "redis-server")
SHARED_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/11")
S3_KEYS = {"S3_ACCESS_KEY_ID": "scale-key", "S3_SECRET_ACCESS_KEY": "scale-secret"}
# The balancer's address: a loopback address of its own, so it may use the build's port while a
# browser-test server of the same run answers on 127.0.0.1 there.
BALANCER_HOST = "127.0.0.60"
BALANCER_URL = f"http://{BALANCER_HOST}:{PORT}"
# Where images go when they are not in the bucket: the default MEDIA_DIR (the recipe sets none).
LOCAL_MEDIA = ROOT / "data" / "media"


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


def s3_client(endpoint: str):
    import boto3

    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=S3_KEYS["S3_ACCESS_KEY_ID"],
        aws_secret_access_key=S3_KEYS["S3_SECRET_ACCESS_KEY"],
    )


@contextmanager
def moto_s3(port: int, bucket: str) -> Iterator[str]:
    """moto's S3 in server mode on loopback, with a bucket anyone may read (as the operator
    sets it up); yields its endpoint."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    try:
        create_public_bucket(s3_client(endpoint), bucket)
        yield endpoint
    finally:
        server.stop()


def bucket_keys(endpoint: str, bucket: str) -> list[str]:
    pages = s3_client(endpoint).get_paginator("list_objects_v2").paginate(Bucket=bucket)
    return [item["Key"] for page in pages for item in page.get("Contents", [])]


def local_media() -> set[Path]:
    return {p for p in LOCAL_MEDIA.rglob("*") if p.is_file()} if LOCAL_MEDIA.is_dir() else set()


# ---------------------------------------------------------------------------------------------
# The recipe, as docs/operations.md writes it


@dataclass
class Recipe:
    exports: dict[str, str]  # NAME -> the value as the recipe writes it
    commands: list[list[str]]  # the `make` lines, in order

    @property
    def workers(self) -> int:
        for command in self.commands:
            if command[:2] == ["make", "run-prod"]:
                return int(dict(a.split("=", 1) for a in command[2:] if "=" in a)["WORKERS"])
        raise ValueError("the recipe has no `make run-prod WORKERS=n`")


def read_recipe(text: str | None = None) -> Recipe:
    """The first shell block of 'Several workers and hosts': its `export NAME=value ...` lines
    and its `make` lines (comments dropped)."""
    text = OPERATIONS.read_text() if text is None else text
    section = text.split(RECIPE_SECTION + "\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    if block is None:
        raise ValueError(f"{OPERATIONS.name}, {RECIPE_SECTION!r}: no ```bash block")
    exports: dict[str, str] = {}
    commands: list[list[str]] = []
    for line in block.group(1).splitlines():
        words = shlex.split(line, comments=True)
        if words[:1] == ["export"]:
            exports.update(word.split("=", 1) for word in words[1:])
        elif words[:1] == ["make"]:
            commands.append(words)
    return Recipe(exports, commands)


def recipe_environment(recipe: Recipe, here: dict[str, str | None]) -> dict[str, str]:
    """The environment of a shell that ran the recipe's exports: this machine's values for the
    ones the recipe writes as examples (`here`; None: left unset, for a reason given there), the
    recipe's own for the rest. Nothing of the test process's own settings (ENVIRONMENT=test, a
    private MEDIA_DIR, ...) is inherited: only what an operator's shell has besides."""
    from storefront.settings import Settings

    unknown = set(here) - set(recipe.exports)
    if unknown:
        raise ValueError(f"the recipe no longer exports {sorted(unknown)}: update the test")
    examples = {
        name: value
        for name, value in recipe.exports.items()
        if name not in here and ("..." in value or "example" in value or "$(" in value)
    }
    if examples:
        raise ValueError(f"the recipe exports {sorted(examples)}, which the test gives no value")
    settings = {name.upper() for name in Settings.model_fields} | {"GRANIAN_WORKERS"}
    shell = {k: v for k, v in os.environ.items() if k not in settings and k not in recipe.exports}
    shell["PATH"] = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"
    values = recipe.exports | here
    return shell | {name: value for name, value in values.items() if value is not None}


@contextmanager
def make_run_prod(port: int, workers: int, env: dict[str, str], log: Path) -> Iterator[str]:
    """The recipe's `make run-prod WORKERS=n` (its checks, the migrations, its build step, then
    `storefront.prod serve`) on 127.0.0.1:`port`. `-o install`: the test runs in the virtualenv
    already, which make must not reinstall."""
    command = ["make", "-o", "install", "run-prod", f"WORKERS={workers}", "HOST=127.0.0.1"]
    with served(command, ROOT, port, env | {"PORT": str(port)}, log) as url:
        yield url


@dataclass
class Seeded:
    """What the recipe's `make seed` left: the bucket's objects and the new local files."""

    output: str
    bucket_keys: list[str]
    new_local_files: list[Path]


def make_seed(env: dict[str, str], endpoint: str, bucket: str) -> Seeded:
    before = local_media()
    done = subprocess.run(
        ["make", "-o", "install", "seed"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"make seed failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return Seeded(done.stdout, bucket_keys(endpoint, bucket), sorted(local_media() - before))


@dataclass
class Cluster:
    url: str  # the balancer: the site's PUBLIC_URL
    backends: list[str]  # process A, process B
    proxy: Nginx
    redis: RedisServer | SharedRedis
    s3_endpoint: str
    bucket: str
    database_url: str
    seeded: Seeded
    build_changes: tuple  # tracked_changes() before and after the build
    timings: dict[str, float]


def _start_redis(port: int) -> RedisServer | SharedRedis:
    redis: RedisServer | SharedRedis
    if shutil.which(REDIS_SERVER):
        redis = RedisServer(port, ARTIFACTS / "scale-redis" / "redis.log")
        try:
            redis.start()
        except (RuntimeError, OSError) as exc:
            redis.stop()
            _skip(f"a private Redis could not be started ({exc})")
        return redis
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
    return redis


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    started = time.monotonic()
    admin_url = postgres_admin_url()
    if admin_url is None or not _postgres_answers(admin_url):
        _skip(
            "PostgreSQL is not reachable at "
            f"{admin_url or DEFAULT_PG_URL} (set TEST_DATABASE_URL, or run it on 127.0.0.1:5432)"
        )
    if shutil.which(NGINX) is None:
        _skip(
            f"{NGINX} is not installed (`make nginx` installs Debian's package; make test-scale does)"
        )
    if shutil.which("make") is None:
        _skip("make is not installed: the recipe runs `make run-prod` and `make seed`")
    recipe = read_recipe()
    steps = [command[:2] for command in recipe.commands]
    if steps != [["make", "run-prod"], ["make", "seed"]]:
        raise ValueError(f"the recipe's commands are now {recipe.commands}: update the test")
    bucket = recipe.exports["S3_BUCKET"]
    port_a, port_b = free_ports(3320, 3339, 2)
    redis_port, s3_port = free_ports(56320, 56399, 2)
    redis = _start_redis(redis_port)
    drop = None
    try:
        # The operator creates the database; `make run-prod` migrates it.
        database_url, drop = create_database("postgresql")
        with moto_s3(s3_port, bucket) as s3_endpoint, MailServer() as mail:
            env = recipe_environment(
                recipe,
                {
                    "SECRET_KEY": secrets.token_urlsafe(48),
                    "SMTP_HOST": mail.host,
                    # The test's mail server takes mail without a sign-in.
                    "SMTP_USER": None,
                    "SMTP_PASSWORD": None,
                    "DATABASE_URL": database_url,
                    "REFLEX_REDIS_URL": redis.url,
                    "S3_ENDPOINT_URL": s3_endpoint,
                    **S3_KEYS,
                    # The build's address; nginx answers on BALANCER_HOST:PORT too.
                    "PUBLIC_URL": BUILD_URL,
                    "CORS_ORIGINS": f"{BUILD_URL},{BALANCER_URL}",
                },
            )
            # The test's mail server: plain SMTP on a port of its own (not the recipe's 587).
            env |= {"SMTP_PORT": str(mail.port), "SMTP_STARTTLS": "false"}
            timings = {"services ready": time.monotonic() - started}
            before, after = build_frontend(BUILD_URL)
            timings["built"] = time.monotonic() - started
            log_a = ARTIFACTS / "scale-server-a.log"
            with make_run_prod(port_a, recipe.workers, env, log_a) as url_a:
                timings["A up"] = time.monotonic() - started
                # A second host: the same build and settings, as `make run-prod` serves them.
                env_b = env | {"ENVIRONMENT": "prod", "GRANIAN_WORKERS": "1"}
                log_b = ARTIFACTS / "scale-server-b.log"
                with built_server("127.0.0.1", port_b, env_b, log_b) as url_b:
                    timings["B up"] = time.monotonic() - started
                    seeded = make_seed(env, s3_endpoint, bucket)
                    timings["seeded"] = time.monotonic() - started
                    hosts = [f"127.0.0.1:{port_a}", f"127.0.0.1:{port_b}"]
                    folder = ARTIFACTS / "scale-nginx"
                    shutil.rmtree(folder, ignore_errors=True)
                    with Nginx(BALANCER_HOST, PORT, hosts, folder) as nginx:
                        yield Cluster(
                            url=nginx.url,
                            backends=[url_a, url_b],
                            proxy=nginx,
                            redis=redis,
                            s3_endpoint=s3_endpoint,
                            bucket=bucket,
                            database_url=database_url,
                            seeded=seeded,
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
