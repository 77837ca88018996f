"""The event guard denies by default: only listed states are public, admin states need an admin,
every other state a signed-in caller, and a name that resolves to no handler is refused."""

import reflex as rx

import storefront.storefront  # noqa: F401  (registers every page and state)
from storefront.state import guard
from storefront.state.account import AccountAreaState, ProfileState
from storefront.state.admin_users import AdminUsersState
from storefront.state.auth import AuthState
from storefront.state.cart import CartState


class UnlistedState(rx.State):
    """A new state nobody thought to protect."""

    secret: str = ""

    @rx.event
    def reveal(self):
        self.secret = "private"


def test_an_unlisted_state_needs_a_signed_in_caller():
    assert guard.access_of(UnlistedState) == "account"


def test_admin_and_account_states_are_classified():
    assert guard.access_of(AdminUsersState) == "admin"
    assert guard.access_of(ProfileState) == "account"
    assert guard.access_of(AccountAreaState) == "account"
    assert guard.access_of(CartState) == guard.access_of(AuthState) == "public"


def test_unknown_event_names_resolve_to_nothing():
    name = f"{AdminUsersState.get_full_name()}.load"
    assert guard.target_of(name) is AdminUsersState
    for forged in (name + "x", name.replace(".load", "..load"), "load", ""):
        assert guard.target_of(forged) is None


def test_every_private_state_is_reset_on_a_change_of_caller():
    private = set(guard.private_state_classes(rx.State))
    assert {AdminUsersState, ProfileState, AccountAreaState, UnlistedState} <= private
    assert not private & (guard.PUBLIC_STATES - guard.CALLER_BOUND_STATES)
    assert guard.CALLER_BOUND_STATES <= private  # what one caller typed or may see
