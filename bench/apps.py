"""The two apps the page benchmarks load: this storefront's production build on a fresh SQLite
database with the demo catalogue, and a minimal blank Reflex app built in a temporary folder
(the yardstick: what Reflex itself costs). Shared by bench/page_weight.py and bench/lighthouse.py.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, prod_server, venv_env  # noqa: E402, F401

MINIMAL_CONFIG = """
import os

import reflex as rx

config = rx.Config(
    app_name="minimal",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    frontend_port=int(os.environ.get("PORT", "3000")),
    backend_port=int(os.environ.get("PORT", "3000")),
    api_url=os.environ.get("PUBLIC_URL", "http://localhost:3000"),
    deploy_url=os.environ.get("PUBLIC_URL", "http://localhost:3000"),
    plugins=[rx.plugins.SitemapPlugin(), rx.plugins.TailwindV4Plugin(), rx.plugins.RadixThemesPlugin()],
)
"""
MINIMAL_APP = """
import reflex as rx


class CounterState(rx.State):
    count: int = 0

    @rx.event
    def increment(self):
        self.count += 1


def index() -> rx.Component:
    # One line of text: Lighthouse needs something painted (an empty page fails with NO_FCP).
    return rx.text("A blank Reflex app. ", CounterState.count)


class CatalogueState(rx.State):
    cards: list[dict[str, str]] = []

    @rx.event
    def load(self, size: int):
        # About `size` bytes of cards, as a catalogue page's load sends (bench/ws_load.py).
        card = {"id": "", "name": "A character", "text": "x" * 300, "image": "/media/a.webp"}
        count = max(1, int(size) // (len(str(card)) + 36))
        self.cards = [dict(card, id=f"{n:036d}") for n in range(count)]


class PageState(rx.State):
    text: str = ""

    @rx.event
    def load(self):
        self.text = PARAGRAPH


# A page whose largest element comes with its on_load, as a catalogue page's cards do: what a
# page whose content is in the database costs before it can show it (bench/lighthouse.py).
PARAGRAPH = (
    "A paragraph that arrives over the websocket, answered by the page's on_load event, as a "
    "catalogue's names, descriptions and photos do: the browser must load the scripts, come "
    "alive, open the websocket and hear the answer before it can paint it."
)


def data() -> rx.Component:
    return rx.el.div(rx.text("A blank Reflex app."), rx.text(PageState.text))


app = rx.App()
app.add_page(index)
app.add_page(data, route="/data", on_load=PageState.load)
"""
# The blank app's one event, as the websocket names it (bench/ws_load.py): the cheapest event
# there is (no database, a one-number delta).
COUNTER_EVENT = "reflex___state____state.minimal___minimal____counter_state.increment"
# Its event that sends a list of cards of a given size: what Reflex costs to send a catalogue.
CARDS_EVENT = "reflex___state____state.minimal___minimal____catalogue_state.load"


def build_minimal_app(folder: Path) -> None:
    """Write the blank Reflex app (one page, one counter) into `folder`."""
    (folder / "minimal").mkdir(parents=True)
    (folder / "minimal" / "__init__.py").write_text("")
    (folder / "minimal" / "minimal.py").write_text(textwrap.dedent(MINIMAL_APP))
    (folder / "rxconfig.py").write_text(textwrap.dedent(MINIMAL_CONFIG))
    (folder / "assets").mkdir()


@contextmanager
def minimal_app(work: Path, port: int) -> Iterator[str]:
    """Build and serve the blank Reflex app on `port`; yields its URL."""
    folder = work / "minimal-app"
    build_minimal_app(folder)
    with prod_server(folder, port, venv_env(port), work / "minimal.log") as url:
        yield url


@contextmanager
def storefront_app(work: Path, port: int) -> Iterator[str]:
    """Migrate and seed a fresh SQLite database under `work`, then build and serve this app's
    production build on `port`; yields its URL."""
    env = venv_env(
        port,
        {
            "ENVIRONMENT": "test",
            "DATABASE_URL": f"sqlite:///{work / 'bench.db'}",
            "MEDIA_DIR": str(work / "media"),
        },
    )
    python = sys.executable
    subprocess.run([python, "-m", "alembic", "upgrade", "head"], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "-m", "storefront.seed"], cwd=ROOT, env=env, check=True)
    with prod_server(ROOT, port, env, work / "storefront.log") as url:
        yield url
