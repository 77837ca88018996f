"""What the tests of docs/extending.md's page recipes share: a throwaway page registered in
an app of its own (the real app is left as it is), and the catalogs with the recipe's
translations written in, in a temporary copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import reflex as rx
from reflex_base.registry import RegistrationContext

from storefront import i18n, routes
from storefront.pages import registry


def app_with(route: str) -> rx.App:
    """A new app holding only the page declared at `route`, registered as storefront.py
    registers every page (pages/registry.py)."""
    with RegistrationContext.get().fork():
        app = rx.App()
        registry.register(app, routes.declared(route))
    return app


def page_at(app: rx.App, route: str, lang: str):
    """The page `app` serves at `route` in `lang`'s edition."""
    return app._unevaluated_pages[i18n.href(route, lang).strip("/") or "index"]


def load_events_at(app: rx.App, route: str, lang: str) -> list:
    return app._load_events[i18n.href(route, lang).strip("/") or "index"]


def catalogs_with(monkeypatch, folder: Path, domain: str, entries: dict[str, str]) -> None:
    """The app's catalogs, copied to `folder`, with `entries` ({English: Albanian}) added to
    `domain`'s Albanian catalog as `make translations` adds a new msgid and the developer
    writes its msgstr (an empty msgstr: not translated yet). The app reads the copy."""
    shutil.copytree(i18n.TRANSLATIONS, folder)
    po = folder / i18n.DEFAULT / "LC_MESSAGES" / f"{domain}.po"
    with po.open("a", encoding="utf-8") as catalog:
        for msgid, msgstr in entries.items():
            catalog.write(f'\nmsgid "{msgid}"\nmsgstr "{msgstr}"\n')
    monkeypatch.setattr(i18n, "TRANSLATIONS", folder)
    i18n.catalog.cache_clear()


def translate(monkeypatch, folder: Path, domain: str, albanian: dict[str, str], *, done: bool):
    """A recipe's translation step: `make translations` adds each new msgid, and the developer
    writes its Albanian (`done`) or leaves the msgstr empty."""
    catalogs_with(
        monkeypatch, folder, domain, {m: (a if done else "") for m, a in albanian.items()}
    )


def forget(route: str, monkeypatch) -> None:
    """Take the throwaway page out of the registry and the catalogs back to the app's."""
    routes.PAGES.pop(route, None)
    monkeypatch.undo()
    i18n.catalog.cache_clear()
