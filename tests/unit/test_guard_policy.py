"""The event guard denies by default: states declare who may send their events
(storefront/state/access.py), admin states need an admin, every other private state a signed-in
caller, a state nobody declared is private, and a name that resolves to no handler is refused."""

import pytest
import reflex as rx

import storefront.storefront as site  # registers every page and state
from storefront import routes
from storefront.pages import registry
from storefront.state import access, guard
from storefront.state.account import AccountAreaState, ProfileState
from storefront.state.admin_users import AdminUsersState
from storefront.state.auth import AdminState, AuthState
from storefront.state.cart import CartState
from storefront.state.checkout import CheckoutState


class UnlistedState(rx.State):
    """A new state nobody thought to protect."""

    secret: str = ""

    @rx.event
    def reveal(self):
        self.secret = "private"


@access.access("public")
class PublicThrowawayState(rx.State):
    """docs/extending.md, 'Add a public page': a page's state, declared public."""

    shown: str = ""

    @rx.event
    def load(self):
        self.shown = "hello"


class ThrowawayAdminScreenState(AdminState):
    """docs/extending.md, 'Add an admin screen': below AdminState, so admin-only undeclared."""

    @rx.event
    def load(self):
        pass


def test_an_unlisted_state_needs_a_signed_in_caller():
    assert access.declared(UnlistedState) is None
    assert guard.access_of(UnlistedState) == "account"


def test_declarations_are_inherited_and_never_loosened():
    assert guard.access_of(PublicThrowawayState) == "public"
    assert guard.access_of(ThrowawayAdminScreenState) == "admin"
    with pytest.raises(TypeError, match="cannot loosen"):
        access.access("public")(type("LooseAdminState", (AdminState,), {"__module__": __name__}))


def test_admin_and_account_states_are_classified():
    assert guard.access_of(AdminUsersState) == "admin"
    assert guard.access_of(ProfileState) == "account"
    assert guard.access_of(AccountAreaState) == "account"
    assert guard.access_of(CartState) == guard.access_of(AuthState) == "public"
    assert access.identity_state() is AuthState


def test_every_state_of_the_app_declares_its_access():
    """Every state of storefront/ (the tests' throwaway states aside)."""
    undeclared = [
        cls.__name__
        for cls in access.app_states(rx.State)
        if cls.__module__.startswith("storefront.") and access.declared(cls) is None
    ]
    assert not undeclared, f"declare who may send their events (state/access.py): {undeclared}"


def handler_states(events) -> list[type]:
    states = []
    for event in events:
        handler = getattr(event, "handler", event)
        name = getattr(handler, "state_full_name", "")
        if name:  # a state's handler (not a frontend-only event such as a redirect)
            states.append(guard.target_of(f"{name}.{handler.fn.__name__}"))
    return states


def test_every_on_load_handler_of_a_public_page_belongs_to_a_public_state():
    """A page a guest may open (its on-load asks for no account or admin) would be blank for
    guests only if one of its on-load handlers belonged to a private state."""
    guarded = {AuthState.require_admin.fn.__name__, AuthState.require_account.fn.__name__}
    checked = 0
    for route, events in site.app._load_events.items():
        handlers = [getattr(e, "handler", e) for e in events]
        if any(getattr(getattr(h, "fn", None), "__name__", "") in guarded for h in handlers):
            continue
        for state in handler_states(events):
            checked += 1
            assert state is not None and guard.access_of(state) == "public", (
                f"/{route} is open to guests, but its on-load runs {state.__name__ if state else '?'}"
                f" ({guard.access_of(state) if state else 'unknown'})"
            )
    assert checked > 50  # every public page was looked at


def test_unknown_event_names_resolve_to_nothing():
    name = f"{AdminUsersState.get_full_name()}.load"
    assert guard.target_of(name) is AdminUsersState
    for forged in (name + "x", name.replace(".load", "..load"), "load", ""):
        assert guard.target_of(forged) is None


def test_every_private_state_is_reset_on_a_change_of_caller():
    private = set(access.private_state_classes(rx.State))
    assert {AdminUsersState, ProfileState, AccountAreaState, UnlistedState} <= private
    assert CartState not in private and AuthState not in private
    # Public states that hold what one caller typed or may see are reset too.
    assert CheckoutState in private and access.is_caller_bound(CheckoutState)


def test_no_computed_var_reads_the_router_so_an_event_loads_only_its_own_states():
    """A computed var that reads `self.router` depends on the root state, so Reflex loads its
    state (and that state's parents) for every event of every tab: with several workers, out of
    Redis and unpickled each time. Three such vars made each event load six states instead of
    two (issue 23). What depends on the address is set by the page's on-load instead."""
    from reflex.state import State

    assert State._get_potentially_dirty_states() == {State}


def public_page_states() -> set[type]:
    """The states whose events a public page of the registry (storefront/routes.py) runs on
    load: the ones every public page shares, and each page's own."""
    events = [*registry.SHARED_LOADS["public"]]
    events += [loader for page in routes.pages(access="public") for loader in page.loaders]
    return set(handler_states(events))


def catalogue_only_problems(states) -> list[str]:
    """Why each of `states` may not be catalogue-only: public, bound to nobody, no cookie or
    browser storage, no substates, and loaded by a public page of the registry."""
    from reflex.istate.storage import ClientStorageBase

    allowed = public_page_states()
    problems = []
    for cls in states:
        stored = [
            name
            for name, var in cls.get_fields().items()
            if isinstance(var.default, ClientStorageBase)
        ]
        if guard.access_of(cls) != "public" or access.is_caller_bound(cls):
            problems.append(f"{cls.__name__} is not a public state of nobody")
        if cls.get_substates():
            problems.append(f"{cls.__name__} has substates")
        if stored:
            problems.append(f"{cls.__name__} keeps {stored} in the browser")
        if cls not in allowed:
            problems.append(f"{cls.__name__} is loaded by no public page of storefront/routes.py")
    return problems


def test_only_public_states_that_hold_nothing_of_a_tab_are_catalogue_only():
    """A catalogue-only state's events run without the lost-state check (state/guard.py), so it
    may hold nothing a tab would lose: public, bound to nobody, no cookie or browser storage,
    no substates, and it is what a public page of the registry loads (its own loader or one
    every public page shares): nothing else to list."""
    from storefront.state.mascots import MascotsState
    from storefront.state.tables import TablesState

    declared = {
        cls
        for cls in access.app_states(rx.State)
        if access.is_catalogue_only(cls) and cls.__module__.startswith("storefront.")
    }
    assert {cls.__name__ for cls in declared} >= {"MascotsState", "BusinessState", "SeoState"}
    assert catalogue_only_problems(declared) == []
    # A visitor's choices (a table's size and colour) are the tab's own: checked.
    assert access.is_catalogue_only(MascotsState) and not access.is_catalogue_only(TablesState)
    with pytest.raises(TypeError, match="catalogue_only"):
        access.access("account", catalogue_only=True)(
            type("PrivateCatalogueState", (rx.State,), {"__module__": __name__})
        )
