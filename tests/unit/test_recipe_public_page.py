"""docs/extending.md, 'Add a public page', applied as written to a throwaway page (its name is
used nowhere else): its four steps (the route's record, the public state, the page module, the
translations) make a page that is routed in both editions, served to guests, titled and
described in each language, and listed in the sitemap; and leaving out any one step fails."""

from __future__ import annotations

import pytest
import reflex as rx

import storefront.storefront  # noqa: F401  (every page and state registered, as in the app)
from storefront import i18n, routes
from storefront.components.layout import page_layout
from storefront.i18n import N_, _
from storefront.pages import registry
from storefront.services import business
from storefront.services.catalog import seo
from storefront.state import access, guard
from tests.unit.recipes import app_with, forget, load_events_at, page_at, translate
from tests.unit.test_guard_policy import catalogue_only_problems, handler_states

ROUTE = "/recipe-lantern-walk"
TITLE = "Lantern Walk"
DESCRIPTION = "An evening walk with paper lanterns, for children and their parents."
ALBANIAN = {
    TITLE: "Shëtitja me fenerë",
    DESCRIPTION: "Një shëtitje mbrëmjeje me fenerë letre, për fëmijët dhe prindërit e tyre.",
}
STEPS = ("route", "state", "page", "translations")


# Step 2: the page's state, declared public; it only shows the catalogue, so catalogue_only.
@access.access("public", catalogue_only=True)
class LanternWalkRecipeState(rx.State):
    walks: list[str] = []
    loaded: bool = False

    @rx.event
    def load(self):
        self.walks = ["Friday"]  # a page's rules are in a service, called with call_service
        self.loaded = True


# Step 2 with its declaration left out: a state nobody declared is private.
class UndeclaredLanternWalkRecipeState(rx.State):
    walks: list[str] = []

    @rx.event
    def load(self):
        self.walks = ["Friday"]


@pytest.fixture
def apply_recipe(monkeypatch, tmp_path):
    """Applies the recipe's steps, all or all but one, and returns the app serving the page."""

    def apply(*, leave_out: str | None = None) -> rx.App:
        # Step 1: its record in storefront/routes.py.
        if leave_out != "route":
            routes.page(ROUTE, N_(TITLE), description=N_(DESCRIPTION), sitemap=True)
        state = UndeclaredLanternWalkRecipeState if leave_out == "state" else LanternWalkRecipeState
        # Step 3: the page module draws it and attaches it with its loader.
        if leave_out != "page":

            @registry.page(ROUTE, loaders=[state.load])
            def lantern_walk_page() -> rx.Component:
                return page_layout(rx.el.h1(_(TITLE)), rx.foreach(state.walks, rx.el.p))

        # Step 4: `make translations`, then the Albanian in each new msgstr.
        translate(
            monkeypatch,
            tmp_path / "translations",
            "messages",
            ALBANIAN,
            done=leave_out != "translations",
        )
        return app_with(ROUTE)

    yield apply
    forget(ROUTE, monkeypatch)


def check(app: rx.App) -> None:
    # Routed in each edition, and drawn.
    for lang in i18n.LANGUAGES:
        page = page_at(app, ROUTE, lang)
        with i18n.using(lang):
            assert isinstance(page.component(), rx.Component)
    # Served to guests: every on-load event belongs to a state a guest may use.
    events = load_events_at(app, ROUTE, i18n.DEFAULT)
    states = handler_states(events)
    refused = [s.__name__ for s in states if not access.allows(guard.access_of(s), "", "")]
    assert not refused, f"a guest is refused {refused}"
    assert LanternWalkRecipeState in states
    # Its state may be catalogue-only: the page's record is all the guard tests need.
    assert catalogue_only_problems({LanternWalkRecipeState}) == []
    # Titled and described in each language: English as written, Albanian from its catalog.
    for lang, words in (("en", {m: m for m in ALBANIAN}), ("sq", ALBANIAN)):
        page = page_at(app, ROUTE, lang)
        assert page.title == business.page_title(words[TITLE]), lang
        assert page.description == words[DESCRIPTION], lang
    # Listed in the sitemap, with its address in every language.
    assert ROUTE in seo.sitemap_routes()
    assert set(seo.alternate_urls(ROUTE, "https://x.test")) == set(i18n.LANGUAGES)


def test_the_recipe_as_written_makes_a_public_page(apply_recipe):
    check(apply_recipe())


@pytest.mark.parametrize("step", STEPS)
def test_leaving_out_a_step_fails(apply_recipe, step):
    with pytest.raises((AssertionError, KeyError, LookupError)):
        check(apply_recipe(leave_out=step))


def test_the_throwaway_name_is_used_nowhere_else():
    assert ROUTE not in routes.PAGES
    assert all(TITLE not in page.title for page in routes.PAGES.values())
