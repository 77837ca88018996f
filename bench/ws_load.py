"""Websocket load on the storefront's page-load and cart events, beside a blank Reflex app.

Builds and serves, in this run, the storefront's production build (fresh database, demo
catalogue) and a blank Reflex app with one counter (bench/apps.py). Then socket.io clients,
each a browser tab (own token, hydrated first), send the same event 50 times in a row, at 1, 10,
50 and 200 clients at once, and the time from sending an event until its delta arrives is
recorded. Both apps are up at once and measured in turn, round after round (--rounds, 3 by
default): one round on this 2-core machine, with the load client on it, varied by 2-3x from one
run to the next. Printed per event and client count, as medians over the rounds: p50, p95, p99
(ms), throughput (events/s over the level's wall time), errors (no answer in 30 s, or a refused
connection; summed), the delta's size, Reflex's knee rule (p99 > max(3 x the single client's p99,
the single client's p99 + 25 ms)), the ratio to the blank counter and the range of the rounds'
own ratios.
The aim: every event's p95 within 1.5x of the blank app's counter at 10 and 50 clients.

Setups (`--setup`):
  single   one worker, SQLite, Reflex's default state manager (what `make run` starts)
  cluster  4 workers (GRANIAN_WORKERS), Redis state (REFLEX_REDIS_URL), PostgreSQL
           (TEST_DATABASE_URL or the local server); the blank app runs the same way

The load client runs on the same machine (loopback), so it competes for the same cores, as the
figures in issue 13 were measured. Run: `python bench/ws_load.py --setup single` (or `both`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("ENVIRONMENT", "test")
os.environ.setdefault("DATABASE_URL", "sqlite:///:memory:")

import socketio  # noqa: E402

from bench.apps import CARDS_EVENT, COUNTER_EVENT, build_minimal_app  # noqa: E402
from tests.e2e.server import prod_server, venv_env  # noqa: E402
from tests.e2e.socket_client import NAMESPACE, event_message  # noqa: E402

LEVELS = (1, 10, 50, 200)
EVENTS_PER_CLIENT = 50
ANSWER_TIMEOUT = 30.0
STOREFRONT_PORT = 3231
BLANK_PORT = 3232
# The cluster setup's own Redis databases (the storefront's, the blank app's), flushed before
# the apps start.
REDIS_DB = 7
BLANK_REDIS_DB = 8
# Each round measures both apps once; the table gives the medians (a single round on a 2-core
# machine, with the load client on it, varied by 2-3x from one run to the next).
ROUNDS = 3
# The mascots page load's delta (MascotsState.load), for the blank app's list of that size.
MASCOTS_BYTES = 16_300
BLANK_CARDS = "blank app, a 16 KB list of cards"


@dataclass
class Scenario:
    """One event under load: `handler` is sent with `payload`; its answer is the delta whose
    state holds `done` (a handler that yields sends more than one; only the last has it)."""

    label: str
    handler: str
    done: str
    path: str = "/"
    payload: dict = field(default_factory=dict)
    # Payloads sent in turn instead of `payload` (two services, so no add meets a busy button).
    payloads: list[dict] = field(default_factory=list)
    # Sent once per client before the measured events (not timed).
    setup: list[tuple[str, dict]] = field(default_factory=list)


@dataclass
class Level:
    clients: int
    latencies: list[float]
    errors: int
    seconds: float
    delta_bytes: int

    def pct(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0


def _name(handler) -> str:
    return f"{handler.state_full_name}.{handler.fn.__name__}"


def storefront_scenarios(
    service_ids: tuple[str, str], table_ids: tuple[str, str]
) -> list[Scenario]:
    from storefront.state.auth import AuthState
    from storefront.state.banners import HomeBannerState
    from storefront.state.bouncers import BouncersState
    from storefront.state.business import BusinessState
    from storefront.state.cart import CartState
    from storefront.state.mascots import MascotsState
    from storefront.state.seo import SeoState
    from storefront.state.slot_picker import SlotPickerState
    from storefront.state.tables import TablesState

    return [
        Scenario(
            "CartState.remove (no database)",
            _name(CartState.remove),
            "cart_json",
            "/cart",
            {"item_id": "nothing"},
        ),
        Scenario("HomeBannerState.load (/)", _name(HomeBannerState.load), "mascots", "/"),
        Scenario("MascotsState.load", _name(MascotsState.load), "loaded", "/services/mascots"),
        Scenario("BouncersState.load", _name(BouncersState.load), "loaded", "/services/bouncers"),
        Scenario("TablesState.load", _name(TablesState.load), "tables", "/services/wedding-tables"),
        Scenario(
            "AuthState.check_session",
            _name(AuthState.check_session),
            "auth_loading",
            "/services/mascots",
        ),
        Scenario(
            "BusinessState.load (every page)",
            _name(BusinessState.load),
            "details",
            "/services/mascots",
        ),
        Scenario(
            "SeoState.load (every page)", _name(SeoState.load), "json_ld", "/services/mascots"
        ),
        Scenario(
            "CartState.add_service",
            _name(CartState.add_service),
            "cart_json",
            "/services/wedding-tables",
            # Two kinds of tables in turn: 400 of each fit a cart (a mascot's 2 units would
            # refuse the third add, which answers with a warning and no new cart).
            payloads=[{"service_id": i} for i in table_ids],
        ),
        Scenario(
            "SlotPickerState.pick_day (a day's slots)",
            _name(SlotPickerState.pick_day),
            "slots",
            "/cart",
            {"day": "__first_open_day__"},
            setup=[(_name(SlotPickerState.open_for), {"service_id": service_ids[0]})],
        ),
    ]


class Tab:
    """One browser tab: its own token; `headers` go with its websocket's opening request (a
    session cookie, the visitor's X-Forwarded-For behind a balancer: bench/soak.py)."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.headers = headers or {}
        self.token = str(uuid.uuid4())
        self.client = socketio.AsyncClient(reconnection=False)
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.client.on("event", self.inbox.put_nowait, namespace=NAMESPACE)

    async def connect(self) -> None:
        await self.client.connect(
            f"{self.url}?token={self.token}",
            socketio_path="/_event",
            transports=["websocket"],
            headers=self.headers,
            namespaces=[NAMESPACE],
            wait_timeout=30,
        )

    async def call(self, name: str, path: str, payload: dict, done: str) -> tuple[float, dict]:
        """Send one event; wait for the delta that carries `done`; the seconds it took."""
        started = time.perf_counter()
        await self.client.emit(
            "event", event_message(name, self.token, path, payload), namespace=NAMESPACE
        )
        state = name.rsplit(".", 1)[0]
        deadline = started + ANSWER_TIMEOUT
        while True:
            message = await asyncio.wait_for(self.inbox.get(), deadline - time.perf_counter())
            delta = (message or {}).get("delta") or {}
            if any(key.startswith(done) for key in delta.get(state, {})):
                return time.perf_counter() - started, delta

    async def close(self) -> None:
        await self.client.disconnect()


def _first_open_day(delta: dict) -> str:
    for values in delta.values():
        for key, value in values.items():
            if key.startswith("days"):
                return next(d["date"] for d in value if d.get("available") == "yes")
    raise RuntimeError("no open day in the slot picker's month")


async def _run_client(url: str, scenario: Scenario, latencies: list, sizes: list) -> int:
    tab = Tab(url)
    errors = 0
    try:
        await tab.connect()
        hydrate = "reflex___state____state.hydrate"
        await tab.call(hydrate, scenario.path, {}, "is_hydrated")
        payload = dict(scenario.payload)
        for name, setup_payload in scenario.setup:
            _, delta = await tab.call(name, scenario.path, setup_payload, "days")
            if payload.get("day") == "__first_open_day__":
                payload["day"] = _first_open_day(delta)
        turns = [{**payload, **p} for p in scenario.payloads] or [payload]
        for sent in range(EVENTS_PER_CLIENT):
            try:
                seconds, delta = await tab.call(
                    scenario.handler, scenario.path, turns[sent % len(turns)], scenario.done
                )
            except TimeoutError:
                errors += EVENTS_PER_CLIENT - sent  # an unanswered tab sends nothing more
                break
            latencies.append(seconds)
            if not sizes:
                sizes.append(len(json.dumps(delta)))
    except Exception as exc:  # a refused or dropped connection
        print(f"    client failed: {type(exc).__name__}: {exc}", flush=True)
        errors += EVENTS_PER_CLIENT
    finally:
        try:
            await tab.close()
        except Exception:
            pass
    return errors


async def run_level(url: str, scenario: Scenario, clients: int) -> Level:
    latencies: list[float] = []
    sizes: list[int] = []
    started = time.perf_counter()
    errors = await asyncio.gather(
        *(_run_client(url, scenario, latencies, sizes) for _ in range(clients))
    )
    return Level(
        clients, latencies, sum(errors), time.perf_counter() - started, sizes[0] if sizes else 0
    )


def measure(url: str, scenarios: list[Scenario], levels: tuple[int, ...], into: dict) -> None:
    """One round: each scenario at each client count, appended to `into[label][clients]`."""
    for scenario in scenarios:
        for clients in levels:
            level = asyncio.run(run_level(url, scenario, clients))
            into.setdefault(scenario.label, {}).setdefault(clients, []).append(level)
            print(
                f"  {scenario.label:42} {clients:4} clients  p95 {level.pct(0.95):8.1f} ms  "
                f"{level.throughput:8.0f}/s  errors {level.errors}",
                flush=True,
            )


@dataclass
class Rounds:
    """One event at one client count, measured once per round: the figures are the medians."""

    clients: int
    levels: list[Level]

    def pct(self, q: float) -> float:
        return statistics.median(lv.pct(q) for lv in self.levels)

    @property
    def throughput(self) -> float:
        return statistics.median(lv.throughput for lv in self.levels)

    @property
    def errors(self) -> int:
        return sum(lv.errors for lv in self.levels)

    @property
    def delta_bytes(self) -> int:
        return self.levels[0].delta_bytes


def knee(levels: list[Rounds], level: Rounds) -> bool:
    single = levels[0].pct(0.99)
    return level.pct(0.99) > max(3 * single, single + 25)


def print_table(title: str, results: dict[str, list[Rounds]], blank_label: str) -> None:
    """Medians over the rounds; 'p95 / blank' divides the medians, and 'per round' gives the
    lowest and highest of the rounds' own ratios (each round measures the blank app and the
    storefront one after the other, so both see the same machine)."""
    blank = {lv.clients: lv for lv in results[blank_label]}
    print(f"\n### {title}\n")
    print(
        "| event | delta | clients | p50 ms | p95 ms | p99 ms | events/s | errors | knee "
        "| p95 / blank | per round |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for label, levels in results.items():
        for level in levels:
            base = blank[level.clients]
            ratio = level.pct(0.95) / base.pct(0.95)
            rounds = [
                mine.pct(0.95) / theirs.pct(0.95)
                for mine, theirs in zip(level.levels, base.levels, strict=False)
            ]
            size = (
                f"{level.delta_bytes / 1024:.1f} KB"
                if level.delta_bytes >= 1024
                else (f"{level.delta_bytes} B")
            )
            print(
                f"| {label} | {size} | {level.clients} | {level.pct(0.5):.1f} | "
                f"{level.pct(0.95):.1f} | {level.pct(0.99):.1f} | {level.throughput:.0f} | "
                f"{level.errors} | {'yes' if knee(levels, level) else 'no'} | {ratio:.2f}x | "
                f"{min(rounds):.2f}-{max(rounds):.2f}x |"
            )
    misses = [
        f"{label} at {lv.clients} clients ({lv.pct(0.95) / blank[lv.clients].pct(0.95):.2f}x)"
        for label, levels in results.items()
        for lv in levels
        if lv.clients in (10, 50) and lv.pct(0.95) > 1.5 * blank[lv.clients].pct(0.95)
    ]
    print(
        "\naim (p95 within 1.5x of the blank counter at 10 and 50 clients): "
        + ("met" if not misses else "missed by " + "; ".join(misses))
    )


def _flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def _catalogue_ids(database_url: str, kind: str) -> tuple[str, str]:
    """Two published services of `kind`: mascots (the first one's slots are queried) or tables
    (added to carts in turn)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT s.id FROM services s WHERE s.kind = :kind AND s.active"
                " AND s.status = 'published' AND s.price IS NOT NULL ORDER BY s.display_order"
            ),
            {"kind": kind},
        ).all()
    engine.dispose()
    first, second = [str(uuid.UUID(str(r[0]))) for r in rows][:2]
    return first, second


def _own_redis(extra: dict[str, str], db: int) -> dict[str, str]:
    """The cluster settings with the app's own Redis database (both apps run at once), emptied
    first; nothing for the one-worker setup."""
    if not extra:
        return {}
    url = urlsplit(extra["REFLEX_REDIS_URL"])._replace(path=f"/{db}").geturl()
    _flush_redis(url)
    return {**extra, "REFLEX_REDIS_URL": url}


def run_setup(
    setup: str, work: Path, levels: tuple[int, ...], only: str = "", rounds: int = ROUNDS
) -> None:
    from tests.conftest import create_database, migrate

    extra: dict[str, str] = {}
    drop = None
    if setup == "single":
        database_url = f"sqlite:///{work / 'bench.db'}"
    else:
        database_url, drop = create_database("postgresql")
        redis_url = os.environ.get("BENCH_REDIS_URL", f"redis://127.0.0.1:6379/{REDIS_DB}")
        extra = {"REFLEX_REDIS_URL": redis_url, "GRANIAN_WORKERS": "4"}
    try:
        migrate(database_url)
        env = venv_env(
            STOREFRONT_PORT,
            {
                "ENVIRONMENT": "test",
                "DATABASE_URL": database_url,
                "MEDIA_DIR": str(work / "media"),
                # A tab's state file per token, as the blank app's (built in `work` too): the
                # one-worker state manager lists its folder after every write, so a folder kept
                # from earlier runs (thousands of tabs) would slow the storefront alone.
                "REFLEX_STATES_WORKDIR": str(work / f"states-{setup}"),
                **extra,
            },
        )
        subprocess.run([sys.executable, "-m", "storefront.seed"], cwd=ROOT, env=env, check=True)
        service_ids = _catalogue_ids(database_url, "mascot")
        table_ids = _catalogue_ids(database_url, "table")
        blank_dir = work / f"blank-{setup}"
        build_minimal_app(blank_dir)
        blank_label = "blank app counter"
        blank = [Scenario(blank_label, COUNTER_EVENT, "count")]
        if "load" in only or not only:
            # The blank app sending a list as big as the mascots page's: Reflex's own cost of a
            # page load's delta, beside the storefront's loads.
            blank.append(
                Scenario(BLANK_CARDS, CARDS_EVENT, "cards", payload={"size": MASCOTS_BYTES})
            )
        wanted = [part for part in only.split(",") if part] or [""]
        scenarios = [
            s
            for s in storefront_scenarios(service_ids, table_ids)
            if any(w in s.label for w in wanted)
        ]
        blank_env = venv_env(BLANK_PORT, _own_redis(extra, BLANK_REDIS_DB))
        store_env = env | _own_redis(extra, REDIS_DB)
        print(f"\n[{setup}] building and serving the blank app and the storefront ...", flush=True)
        measured: dict[str, dict[int, list[Level]]] = {}
        with (
            prod_server(blank_dir, BLANK_PORT, blank_env, work / f"blank-{setup}.log") as blank_url,
            prod_server(ROOT, STOREFRONT_PORT, store_env, work / f"storefront-{setup}.log") as url,
        ):
            # Both apps stay up; each round measures the blank app, then the storefront, so a
            # slower or busier moment of the machine weighs on both alike.
            for number in range(1, rounds + 1):
                print(f"[{setup}] round {number} of {rounds}", flush=True)
                measure(blank_url, blank, levels, measured)
                measure(url, scenarios, levels, measured)
        results = {
            label: [Rounds(clients, found) for clients, found in by_clients.items()]
            for label, by_clients in measured.items()
        }
    finally:
        if drop is not None:
            drop()
    title = "one worker, SQLite" if setup == "single" else "4 workers, Redis state, PostgreSQL"
    print_table(
        f"{title}: {EVENTS_PER_CLIENT} events per client, median of {rounds} rounds",
        results,
        blank_label,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--setup", choices=("single", "cluster", "both"), default="single")
    parser.add_argument(
        "--clients",
        default=",".join(map(str, LEVELS)),
        help="client counts, comma separated (default 1,10,50,200)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=ROUNDS,
        help=f"rounds of both apps in turn; the table gives the medians (default {ROUNDS})",
    )
    parser.add_argument(
        "--only",
        default="",
        help="only the events whose label contains this (or any, comma separated)",
    )
    args = parser.parse_args()
    levels = tuple(int(n) for n in args.clients.split(","))
    if levels[0] != 1:
        levels = (1, *levels)  # the knee rule needs the single client
    work = Path(tempfile.mkdtemp(prefix="ws-load-"))
    for setup in ("single", "cluster") if args.setup == "both" else (args.setup,):
        run_setup(setup, work, levels, args.only, max(1, args.rounds))


if __name__ == "__main__":
    main()
