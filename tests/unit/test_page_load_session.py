"""A page load reads the caller's session once (issue 13): at hydrate the guard reads it, and
the page's own check that follows uses that reading; a later page load in the same tab (a
client-side navigation, no hydrate) reads it again."""

import asyncio

import storefront.storefront  # noqa: F401  (registers every page and state)
from storefront.services.accounts import auth
from storefront.state import auth as auth_state
from storefront.state.auth import PAGE_LOAD_SECONDS, AuthState


def test_a_page_load_costs_one_session_lookup(monkeypatch):
    lookups: list[str] = []

    async def counting_call_service(fn, **kwargs):
        assert fn is auth.session_user
        lookups.append(kwargs["token"])
        return None  # an unknown session: a guest

    monkeypatch.setattr(auth_state, "call_service", counting_call_service)
    state = AuthState(_reflex_internal_init=True)
    state.router_data = {"headers": {"cookie": f"{auth.COOKIE_NAME}=abc"}}

    asyncio.run(state._caller())  # hydrate: the guard reads the session
    asyncio.run(AuthState.check_session.fn(state))  # the page's on_load
    assert lookups == ["abc"]
    assert state.auth_loading is False and state.signed_in is False

    state._identified_at -= PAGE_LOAD_SECONDS + 1  # later: a client-side navigation
    asyncio.run(AuthState.check_session.fn(state))
    assert lookups == ["abc", "abc"]

    asyncio.run(state._caller())  # every guarded event reads it, however recent
    assert lookups == ["abc", "abc", "abc"]


def test_a_guest_without_a_cookie_costs_no_lookup(monkeypatch):
    async def no_call(fn, **kwargs):
        raise AssertionError("no cookie, no lookup")

    monkeypatch.setattr(auth_state, "call_service", no_call)
    state = AuthState(_reflex_internal_init=True)
    state.router_data = {"headers": {}}
    asyncio.run(state._caller())
    asyncio.run(AuthState.check_session.fn(state))
    assert state.signed_in is False
