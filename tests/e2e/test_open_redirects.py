"""No redirect off the site (issue 33, finding 1), through the routes and handlers of the
production build that redirect to an address a request names: the sign-in page's `open_page`
for a signed-in tab (its `redirectTo`), the cookie route after a sign-in, sign-out, and the
language switch. The rule itself is tested in tests/unit/test_open_redirects.py. No browser is
needed."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from storefront.services.accounts import auth
from storefront.state.sign_in import SignInState
from tests.e2e.socket_client import Tab, event_name, run
from tests.factories import signed_in_account
from tests.open_redirects import OFF_SITE, stays_on_site

pytestmark = pytest.mark.e2e
PASSWORD = "a long enough password"


def _redirects(received: list[str]) -> list[str]:
    """The addresses the server told the tab to go to."""
    paths = []
    for raw in received:
        for event in json.loads(raw).get("events", []):
            if event.get("name") == "_redirect":
                paths.append(event["payload"]["path"])
    return paths


def test_a_signed_in_tab_is_never_sent_off_the_site_by_the_sign_in_page(server):
    _user_id, _email, token = signed_in_account(
        server.database_url, password=PASSWORD, full_name="Signed In"
    )
    seen: dict[tuple[str, str], list[str]] = {}

    async def scenario():
        async with Tab(server.url, token) as tab:
            for page in ("/sign-in", "/en/sign-in"):
                for target in OFF_SITE:
                    tab.received.clear()
                    await tab.send_name(
                        event_name(SignInState.open_page),
                        page,
                        query={"redirectTo": target},
                    )
                    seen[page, target] = _redirects(tab.received)
            tab.received.clear()
            await tab.send_name(
                event_name(SignInState.open_page),
                "/en/sign-in",
                query={"redirectTo": "/cart"},
            )
            seen["/en/sign-in", "/cart"] = _redirects(tab.received)

    run(scenario())
    assert seen["/en/sign-in", "/cart"] == ["/en/cart"]  # a path of the site is kept
    for (page, target), paths in seen.items():
        assert paths, f"{page} {target!r}: the signed-in tab was not sent on"
        for path in paths:
            assert stays_on_site(path, server.url), (page, target, path)


def test_the_cookie_route_and_sign_out_never_send_a_browser_off_the_site(server):
    _user_id, _email, token = signed_in_account(
        server.database_url, password=PASSWORD, full_name="Signed In"
    )
    for target in OFF_SITE:
        # An expired or forged ticket goes back to sign in, carrying the target along.
        expired = httpx.get(
            server.url + "/api/auth/complete",
            params={"ticket": "x", "redirectTo": target},
            follow_redirects=False,
        )
        location = expired.headers["location"]
        assert stays_on_site(location, server.url), (target, location)
        carried = parse_qs(urlsplit(location).query)["redirectTo"][0]
        assert stays_on_site(carried, server.url), (target, carried)
        out = httpx.post(
            server.url + "/api/auth/sign-out",
            params={"redirectTo": target},
            cookies={auth.COOKIE_NAME: "not-a-session"},
            headers={"Origin": server.url},
            follow_redirects=False,
        )
        assert out.status_code == 303
        assert out.headers["location"] == "/", (target, out.headers["location"])
    assert token


def test_the_language_switch_of_the_build_never_leaves_the_site(server):
    for target in OFF_SITE:
        for lang, home in (("sq", "/"), ("en", "/en")):
            answer = httpx.get(
                f"{server.url}/api/language/{lang}",
                params={"next": target},
                follow_redirects=False,
            )
            assert answer.headers["location"] == home, (target, answer.headers["location"])
    by_referer = httpx.get(
        server.url + "/api/language/sq",
        headers={"referer": server.url + "/en//evil.example/p"},
        follow_redirects=False,
    )
    assert by_referer.headers["location"] == "/"
    remembered = httpx.get(
        server.url + "/en//evil.example/x", cookies={"sf_lang": "sq"}, follow_redirects=False
    )
    if remembered.is_redirect:
        assert stays_on_site(remembered.headers["location"], server.url)
