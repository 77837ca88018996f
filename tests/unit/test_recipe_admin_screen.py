"""docs/extending.md, 'Add an admin screen', applied as written to a throwaway screen (its name is
used nowhere else): its record (route and title), a state below AdminState, the page module and
the office catalog's translation make a screen that is routed in both back-office editions,
asks for an admin before anything loads, whose events need an admin, titled in each language,
kept out of the sitemap; and leaving out any one step fails."""

from __future__ import annotations

import pytest
import reflex as rx

import storefront.storefront  # noqa: F401  (every page and state registered, as in the app)
from storefront import i18n, routes
from storefront.components.admin_layout import admin_frame
from storefront.i18n import N_o, _o
from storefront.pages import registry
from storefront.services import business
from storefront.services.catalog import seo
from storefront.state import access, guard
from storefront.state.auth import AdminState, AuthState
from tests.unit.recipes import app_with, forget, load_events_at, page_at, translate
from tests.unit.test_guard_policy import handler_states

ROUTE = "/admin/recipe-lantern-stock"
TITLE = "Lantern Stock"
ALBANIAN = {TITLE: "Stoku i fenerëve"}
STEPS = ("route", "state", "page", "translations")


# Step 2: its state derives from AdminState: admin-only, reset with the caller.
class LanternStockRecipeState(AdminState):
    count: int = 0

    @rx.event
    def load(self):
        self.count = 12  # a screen's rules are in a service, which checks the admin again


# Step 2 left out: a state of its own, below rx.State.
class UnguardedLanternStockRecipeState(rx.State):
    count: int = 0

    @rx.event
    def load(self):
        self.count = 12


@pytest.fixture
def apply_recipe(monkeypatch, tmp_path):
    """Applies the recipe's steps, all or all but one, and returns the app serving the screen."""

    def apply(*, leave_out: str | None = None) -> rx.App:
        # Step 1: its record in storefront/routes.py, under /admin, titled in the office catalog.
        if leave_out != "route":
            routes.page(ROUTE, N_o(TITLE), access="admin")
        state = (
            UnguardedLanternStockRecipeState if leave_out == "state" else LanternStockRecipeState
        )
        # Step 4 (the page module): drawn in the admin frame, attached with its loader.
        if leave_out != "page":

            @registry.page(ROUTE, loaders=[state.load])
            def lantern_stock_page() -> rx.Component:
                return admin_frame(_o(TITLE), rx.el.p(state.count), current="")

        # Translations: `make translations`, then the Albanian in office.po's new msgstr.
        translate(
            monkeypatch,
            tmp_path / "translations",
            "office",
            ALBANIAN,
            done=leave_out != "translations",
        )
        return app_with(ROUTE)

    yield apply
    forget(ROUTE, monkeypatch)


def check(app: rx.App) -> None:
    # Routed in each back-office edition (/admin/..., /sq/admin/...), and drawn.
    for lang in i18n.BACK_OFFICE_PREFIXES:
        page = page_at(app, ROUTE, lang)
        with i18n.using(lang, office=True):
            assert isinstance(page.component(), rx.Component)
    # The page asks for an admin first; every event it loads with needs an admin.
    events = load_events_at(app, ROUTE, "en")
    assert events[0].fn.__name__ == AuthState.require_admin.fn.__name__
    states = handler_states(events[1:])
    open_to_others = [s.__name__ for s in states if access.allows(guard.access_of(s), "u", "user")]
    assert not open_to_others, f"a signed-in account that is not an admin may use {open_to_others}"
    assert LanternStockRecipeState in states
    assert LanternStockRecipeState in access.private_state_classes(rx.State)
    # Titled in each language: English as written, Albanian from the office catalog.
    for lang, title in (("en", TITLE), ("sq", ALBANIAN[TITLE])):
        assert page_at(app, ROUTE, lang).title == business.page_title(title), lang
    # Never in the sitemap; robots.txt keeps the whole back office out.
    assert ROUTE not in seo.sitemap_routes()
    assert "/admin" in seo.DISALLOWED


def test_the_recipe_as_written_makes_an_admin_screen(apply_recipe):
    check(apply_recipe())


@pytest.mark.parametrize("step", STEPS)
def test_leaving_out_a_step_fails(apply_recipe, step):
    with pytest.raises((AssertionError, KeyError, LookupError)):
        check(apply_recipe(leave_out=step))


def test_the_throwaway_name_is_used_nowhere_else():
    assert ROUTE not in routes.PAGES
    assert all(TITLE not in page.title for page in routes.PAGES.values())
