"""Attacks on sessions, the event guard, sign-in tickets, throttling and HTTP headers, made the
way an attacker would make them: a socket.io client speaking Reflex's protocol and plain HTTP
against the production build. No browser is needed, so these run where Chromium is missing."""

from __future__ import annotations

import json
import re
import uuid

import httpx
import pytest
from sqlmodel import Session, select

from storefront import i18n
from storefront.db import make_engine
from storefront.models import LoginSession, Service, User
from storefront.services.accounts import auth
from storefront.state.account import AccountAreaState, ProfileState
from storefront.state.admin_users import AdminUsersState
from storefront.state.auth import AuthState
from storefront.state.booking_view import BookingViewState
from storefront.state.first_admin import InitialAdminState
from storefront.state.sign_in import SignInState
from tests.e2e.helpers import sq
from tests.e2e.socket_client import HYDRATE, Tab, run
from tests.factories import signed_in_account

pytestmark = pytest.mark.e2e
PASSWORD = "a long enough password"


def _sent(text: str) -> str:
    """`text` as it is in what the server sent (Tab.text(): JSON, with every letter beyond
    ASCII escaped, as the default edition's Albanian has them)."""
    return json.dumps(text)[1:-1]


def _too_many_sign_in_attempts() -> str:
    """The throttle's first words ('Too many sign-in attempts') in the default edition's
    Albanian, as sent: the message's first sentence, the same for any number of seconds (a
    plural entry of the catalog, which `sq` does not read)."""
    with i18n.using(i18n.DEFAULT):
        text = i18n.ngettext(
            "Too many sign-in attempts. Please wait {seconds} second and try again.",
            "Too many sign-in attempts. Please wait {seconds} seconds and try again.",
            2,
        )
    return _sent(text.split(".")[0])


def _db(server):
    return make_engine(server.database_url)


def _account(server, role: str = "user") -> tuple[str, str, str]:
    """A fresh account with a signed-in session: (user id, email, session token)."""
    return signed_in_account(
        server.database_url, role=role, password=PASSWORD, full_name=f"Original {role}"
    )


def _role(server, user_id: str) -> str:
    engine = _db(server)
    with Session(engine) as session:
        role = session.get(User, uuid.UUID(user_id)).role
    engine.dispose()
    return role


def _full_name(server, user_id: str) -> str:
    engine = _db(server)
    with Session(engine) as session:
        name = session.get(User, uuid.UUID(user_id)).full_name
    engine.dispose()
    return name


def _set_role(server, user_id: str, role: str) -> None:
    engine = _db(server)
    with Session(engine) as session:
        user = session.get(User, uuid.UUID(user_id))
        user.role = role
        session.add(user)
        session.commit()
    engine.dispose()


def _session_count(server, user_id: str) -> int:
    engine = _db(server)
    with Session(engine) as session:
        rows = session.exec(
            select(LoginSession).where(LoginSession.user_id == uuid.UUID(user_id))
        ).all()
    engine.dispose()
    return len(rows)


def _sign_out(server, token: str) -> httpx.Response:
    """What the Sign Out button does over HTTP."""
    return httpx.post(
        server.url + "/api/auth/sign-out",
        cookies={auth.COOKIE_NAME: token},
        headers={"Origin": server.url},
    )


# --- finding 1: a signed-out tab keeps nothing private -----------------------------------------


def test_a_tab_signed_out_keeps_nothing_private(server):
    other_id, other_email, _ = _account(server)
    _admin_id, admin_email, admin_token = _account(server, "admin")
    user_id, _user_email, user_token = _account(server)
    tab_token = str(uuid.uuid4())
    seen_before: list[str] = []
    seen_after: list[str] = []

    async def scenario():
        async with Tab(server.url, admin_token, tab_token) as tab:
            await tab.send(AdminUsersState.load, "/admin/users")
            await tab.send(AuthState.sign_out, "/admin/users")
            seen_before.extend(tab.received)
        assert _sign_out(server, admin_token).status_code in (200, 303)
        # The same tab (its token lives in sessionStorage) reconnects without the cookie.
        async with Tab(server.url, None, tab_token) as tab:
            await tab.send_name(HYDRATE, "/")
            seen_after.extend(tab.received)

    run(scenario())
    assert other_email in "\n".join(seen_before)  # the admin did see the list
    after = "\n".join(seen_after)
    assert seen_after, "the hydrate event got no answer"
    assert other_email not in after and other_id not in after and admin_email not in after

    # The same holds when the signed-in user of a tab changes: B's tab, then A's cookie.
    async def switch():
        async with Tab(server.url, user_token, tab_token) as tab:
            await tab.send(AccountAreaState.load, "/account")
        async with Tab(server.url, None, tab_token) as tab:
            await tab.send_name(HYDRATE, "/")
            seen_after.clear()
            seen_after.extend(tab.received)

    run(switch())
    assert user_id not in "\n".join(seen_after)


# --- finding 2: an ended session or a lost role acts no more ---------------------------------


def test_an_ended_session_and_a_demoted_admin_lose_power_at_once(server):
    target_id, _, _ = _account(server)
    _admin_id, _, admin_token = _account(server, "admin")
    demoted_id, _, demoted_token = _account(server, "admin")
    second_target, _, _ = _account(server)

    async def scenario():
        async with Tab(server.url, admin_token) as tab:
            await tab.send(AdminUsersState.load, "/admin/users")
            # Signed out in another tab: the session row is gone.
            assert _sign_out(server, admin_token).status_code in (200, 303)
            await tab.send(AdminUsersState.make_admin, "/admin/users", user_id=target_id)
        async with Tab(server.url, demoted_token) as tab:
            await tab.send(AdminUsersState.load, "/admin/users")
            _set_role(server, demoted_id, "user")
            await tab.send(AdminUsersState.make_admin, "/admin/users", user_id=second_target)

    run(scenario())
    assert _role(server, target_id) == "user"
    assert _role(server, second_target) == "user"

    # An account handler that trusts the caller it is given: the ended session must not reach
    # it either.
    user_id, _, user_token = _account(server)

    async def profile():
        async with Tab(server.url, user_token) as tab:
            await tab.send(ProfileState.load, "/account/profile")
            assert _sign_out(server, user_token).status_code in (200, 303)
            await tab.send(
                ProfileState.save, "/account/profile", form_data={"full_name": "Renamed after exit"}
            )

    run(profile())
    assert _full_name(server, user_id) == "Original user"


# --- finding 4: sign-in tickets are bound to their browser and used once ---------------------

COMPLETE = re.compile(r"/api/auth/complete\?[^\"'\\\s)]+")


def _ticket_url(server, email: str) -> tuple[str, dict[str, str]]:
    """Sign in over the websocket as the browser does; returns the completion URL the page is
    sent to and any cookie the page's script sets beside it."""
    tab = Tab(server.url, None)

    async def scenario():
        async with tab:
            await tab.send(
                SignInState.submit, "/sign-in", form={"email": email, "password": PASSWORD}
            )
            await tab.wait_for(
                "/api/auth/complete",
                _sent(sq("Invalid login credentials")),
                _too_many_sign_in_attempts(),
            )

    run(scenario())
    text = tab.text().replace("\\u0026", "&").replace("\\/", "/")
    found = COMPLETE.search(text)
    assert found, f"no completion URL in {text[:2000]}"
    cookies = dict(re.findall(r"(sf_bind)=([A-Za-z0-9_\-]+)", text))
    return found.group(0).replace("\\", ""), cookies


def _redeem(server, url: str, cookies: dict[str, str]) -> str | None:
    """The session cookie the completion route sets, if any."""
    response = httpx.get(server.url + url, cookies=cookies, follow_redirects=False)
    for header in response.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        value = rest.split(";")[0]
        if name == auth.COOKIE_NAME and value and value != '""':
            return value
    return None


def test_a_ticket_works_only_in_the_browser_that_asked_for_it(server):
    _user_id, email, _ = _account(server)
    url, _cookies = _ticket_url(server, email)
    # An attacker plants his own ticket in a victim's browser (login CSRF): no cookie of the
    # browser that signed in goes with it.
    assert _redeem(server, url, {}) is None


def test_a_ticket_is_single_use_even_after_sign_out(server):
    user_id, email, _ = _account(server)
    url, cookies = _ticket_url(server, email)
    token = _redeem(server, url, cookies)
    assert token, "the browser that signed in gets its session"
    assert _sign_out(server, token).status_code in (200, 303)
    before = _session_count(server, user_id)
    assert _redeem(server, url, cookies) is None
    assert _session_count(server, user_id) == before


def test_sign_out_is_post_only_from_this_site(server):
    user_id, _, token = _account(server)
    sessions = _session_count(server, user_id)
    get = httpx.get(server.url + "/api/auth/sign-out", cookies={auth.COOKIE_NAME: token})
    assert get.status_code == 405 and get.headers["allow"] == "POST"
    forged = httpx.post(
        server.url + "/api/auth/sign-out",
        cookies={auth.COOKIE_NAME: token},
        headers={"Origin": "https://evil.example"},
    )
    assert forged.status_code == 403
    assert _session_count(server, user_id) == sessions
    assert _sign_out(server, token).status_code in (200, 303)
    assert _session_count(server, user_id) == sessions - 1


# --- finding 5: throttling counts the visitor behind the proxy ------------------------------


def test_throttling_counts_the_address_the_trusted_proxy_reports(server):
    """The server runs behind one trusted proxy (TRUSTED_PROXY_HOPS=1): failures of one
    visitor must not lock out another one who comes through the same proxy."""
    _user_id, email, _ = _account(server)

    async def attack():
        async with Tab(server.url, None, headers={"X-Forwarded-For": "203.0.113.7"}) as tab:
            for n in range(22):
                await tab.send(
                    SignInState.submit,
                    "/sign-in",
                    form={"email": f"nobody-{n}@example.com", "password": "wrong password"},
                )
        return tab.text()

    attacker = run(attack())
    assert _too_many_sign_in_attempts() in attacker

    async def owner():
        async with Tab(server.url, None, headers={"X-Forwarded-For": "198.51.100.20"}) as tab:
            await tab.send(
                SignInState.submit, "/sign-in", form={"email": email, "password": PASSWORD}
            )
            # The handler answers at once (busy) and again after the password check, which
            # takes its time on a loaded machine: wait for the second answer.
            return await tab.wait_for(
                "auth\\/complete", "auth/complete", _too_many_sign_in_attempts()
            )

    answer = run(owner())
    assert "/api/auth/complete" in answer.replace("\\/", "/")
    assert _too_many_sign_in_attempts() not in answer


# --- finding 6: security headers on every response ---------------------------------------------


def _media_path(server) -> str:
    engine = _db(server)
    with Session(engine) as session:
        service = next(s for s in session.exec(select(Service)).all() if s.images)
    engine.dispose()
    return service.images[0]["url"]


@pytest.mark.parametrize("kind", ["page", "media", "api", "not_found"])
def test_every_response_carries_the_security_headers(server, kind):
    path = {
        "page": "/",
        "media": _media_path(server),
        "api": "/api/auth/complete?ticket=x",
        "not_found": "/no-such-page-here",
    }[kind]
    response = httpx.get(server.url + path, follow_redirects=False)
    headers = response.headers
    csp = headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in csp
    assert "object-src 'none'" in csp
    assert headers.get("x-frame-options") == "DENY"
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("referrer-policy") == "strict-origin-when-cross-origin"
    if kind == "media":
        assert response.status_code == 200
        assert headers.get("content-disposition") == "inline"
        assert headers.get("content-type", "").startswith("image/")


# --- issue 12, item 13: a name over the limit is refused, not cut --------------------------------


def test_a_name_over_the_limit_is_refused_with_a_message(server):
    user_id, _, token = _account(server)
    tab = Tab(server.url, token)
    too_long = _sent(sq("Your name can be at most {max} characters long").format(max=255))

    async def scenario():
        async with tab:
            await tab.send(ProfileState.load, "/account/profile")
            await tab.send(
                ProfileState.save, "/account/profile", form_data={"full_name": "A" * 300}
            )
            await tab.wait_for(too_long)

    run(scenario())
    assert too_long in tab.text()
    assert _sent(sq("Profile updated successfully!")) not in tab.text()
    assert _full_name(server, user_id) == "Original user"


# --- Initial Admin Setup: signed-in callers only, and only while no admin exists ------------


def _demote_every_admin(server) -> None:
    engine = _db(server)
    with Session(engine) as session:
        for user in session.exec(select(User).where(User.role == "admin")).all():
            user.role = "user"
            session.add(user)
        session.commit()
    engine.dispose()


def test_initial_admin_setup_needs_a_signed_in_caller_and_no_admin(server):
    target_id, target_email, _ = _account(server)
    _, _, plain_token = _account(server)
    _account(server, "admin")  # an admin exists

    async def attempt(token):
        async with Tab(server.url, token) as tab:
            await tab.send(InitialAdminState.type_email, "/admin", value=target_email)
            await tab.send(InitialAdminState.submit, "/admin")
            return tab.text()

    run(attempt(None))
    assert _role(server, target_id) == "user"  # a guest: refused by the guard
    refused = run(attempt(plain_token))
    assert _role(server, target_id) == "user"  # an admin exists: refused by the service
    assert "Failed to set first admin" in refused

    _demote_every_admin(server)
    done = run(attempt(plain_token))
    assert "First admin set successfully!" in done
    assert _role(server, target_id) == "admin"


# --- the booking confirmation shows a booking only to who may see it --------------------------


def _placed_booking(server, *, title: str, day: str, email: str, user_id: str | None = None):
    """A booking made directly through the booking service, in the server's database."""
    from storefront.services.booking import contact as booking_contact
    from storefront.services.booking import lines as booking_lines
    from storefront.services.booking import placing
    from tests.factories import make_service

    engine = _db(server)
    with Session(engine) as session:
        service = make_service(session, title=title)
        session.commit()
        service_id = str(service.id)
    with Session(engine) as session:
        placed = placing.place_booking(
            session=session,
            lines=[booking_lines.BookingLine(service_id, 1, day, "10:00", 2)],
            contact=booking_contact.Contact(
                full_name="Private Person",
                email=email,
                phone="+38344999888",
                address="Secret street 7",
                city="Prishtinë",
            ),
            idempotency_key=uuid.uuid4().hex,
            user_id=user_id,
        )
    engine.dispose()
    return placed


def test_a_stranger_gets_nothing_of_someone_elses_booking(server):
    from storefront.services.messaging import links as booking_links

    placed = _placed_booking(
        server, title="Forged view bouncer", day="2031-06-02", email="private.person@example.com"
    )
    _, _, stranger_token = _account(server)
    path = f"/booking-confirmation/{placed.id}"
    load = f"{BookingViewState.get_full_name()}.load"
    seen: list[str] = []

    async def scenario():
        for token in (None, stranger_token):
            async with Tab(server.url, token) as tab:
                # The browser sends a dynamic route's segments with the query.
                await tab.send_name(load, path, query={"booking_id": placed.id})
                seen.append(await tab.wait_for("found_rx_state_"))
        async with Tab(server.url, None) as tab:  # the mail's signed link does open it
            key = booking_links.sign_view_key(placed.id)
            await tab.send_name(load, path, query={"booking_id": placed.id, "key": key})
            seen.append(await tab.wait_for(placed.reference))

    run(scenario())
    for text in seen[:2]:
        assert '"found_rx_state_": false' in text  # the page did look the booking up
        assert "private.person@example.com" not in text and "Secret street" not in text
    assert placed.reference in seen[2], seen[2][-3000:]


def test_a_signed_out_tab_forgets_the_booking_it_showed(server):
    owner_id, _, owner_token = _account(server)
    placed = _placed_booking(
        server,
        title="Signed out bouncer",
        day="2031-07-07",
        email="owner.person@example.com",
        user_id=owner_id,
    )
    tab_token = str(uuid.uuid4())
    load = f"{BookingViewState.get_full_name()}.load"
    path = f"/booking-confirmation/{placed.id}"
    before: list[str] = []
    after: list[str] = []

    async def scenario():
        async with Tab(server.url, owner_token, tab_token) as tab:
            await tab.send_name(load, path, query={"booking_id": placed.id})
            before.append(await tab.wait_for("owner.person@example.com"))
        assert _sign_out(server, owner_token).status_code in (200, 303)
        async with Tab(server.url, None, tab_token) as tab:
            await tab.send_name(HYDRATE, "/")
            after.append(tab.text())

    run(scenario())
    assert "owner.person@example.com" in before[0]  # the owner did see it
    assert after[0] and "owner.person@example.com" not in after[0]
