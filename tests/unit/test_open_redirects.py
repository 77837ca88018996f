"""No redirect off the site (issue 33, finding 1): one rule, `i18n.local_path`, decides every
address a request asks to be sent to, after any language change; the language switch, the
remembered-language middleware and the sign-in's target all go through it. The routes and
handlers that need a database or the build are tested in tests/e2e/test_open_redirects.py."""

from __future__ import annotations

import pytest

from storefront import i18n
from storefront.api import language
from storefront.services.accounts import auth
from storefront.state.sign_in import in_edition
from tests.open_redirects import OFF_SITE, stays_on_site
from tests.unit.test_languages import _app


@pytest.mark.parametrize("target", OFF_SITE)
def test_the_rule_refuses_every_address_off_the_site(target):
    assert i18n.local_path(target) == "/"
    for lang in i18n.LANGUAGES:
        assert i18n.local_path(target, lang=lang, default="/home") == "/home"
    assert auth.safe_redirect(target) == auth.DEFAULT_AFTER_SIGN_IN


def test_the_rule_keeps_the_site_own_paths_and_moves_them_into_a_language():
    assert i18n.local_path("/services/mascots?x=1") == "/services/mascots?x=1"
    assert i18n.local_path("/services/mascots?x=1", lang="en") == "/en/services/mascots?x=1"
    assert i18n.local_path("/en/cart", lang="sq") == "/cart"
    assert i18n.local_path("/booking-confirmation/a?key=k%2Fx") == (
        "/booking-confirmation/a?key=k%2Fx"
    )
    assert i18n.local_path("/admin/users", lang="sq") == "/sq/admin/users"
    # A query may name another address: it is only text until a hop reads it, and that hop
    # applies the rule again.
    assert i18n.local_path("/sign-in?redirectTo=/account") == "/sign-in?redirectTo=/account"


@pytest.mark.parametrize("target", OFF_SITE)
def test_the_language_switch_never_leaves_the_site(target):
    client = _app()
    for lang in i18n.LANGUAGES:
        by_query = client.get(f"/api/language/{lang}", params={"next": target})
        assert by_query.status_code == 303
        assert by_query.headers["location"] == i18n.href("/", lang), target
        # A Referer of this site whose path is the attack.
        by_referer = client.get(
            f"/api/language/{lang}", headers={"referer": f"http://testserver{target}"}
        )
        assert stays_on_site(by_referer.headers["location"]), (target, by_referer.headers)


def test_the_issue_reproductions_stay_on_the_site():
    client = _app()
    answer = client.get("/api/language/sq", params={"next": "/en//evil.example/x"})
    assert answer.headers["location"] == "/"
    referer = client.get(
        "/api/language/sq", headers={"referer": "http://testserver/en//evil.example/p"}
    )
    assert referer.headers["location"] == "/"


@pytest.mark.parametrize("path", ["/en//evil.example/x", "/en/%2F/evil.example/x"])
def test_a_remembered_language_never_sends_a_page_off_the_site(path):
    client = _app()
    client.cookies.set(language.COOKIE, "sq")
    moved = client.get(path)
    if moved.status_code in (301, 302, 303, 307, 308):
        assert stays_on_site(moved.headers["location"]), moved.headers["location"]
        assert moved.headers["location"] == "/"


@pytest.mark.parametrize("target", OFF_SITE)
def test_the_sign_in_target_is_decided_after_the_edition_change(target):
    """The sign-in page keeps `redirectTo` in its own edition and redirects a signed-in tab
    there (state/sign_in.py: `open_page`, `landing`)."""
    for lang in i18n.LANGUAGES:
        with i18n.using(lang):
            kept = in_edition(target)
            assert kept == auth.DEFAULT_AFTER_SIGN_IN, (lang, target, kept)
            assert in_edition(kept) == kept


def test_the_sign_in_target_follows_the_page_edition():
    with i18n.using("en"):
        assert in_edition("/account") == "/en/account"
        assert in_edition("/admin/users") == "/admin/users"
    with i18n.using("sq"):
        assert in_edition("/en/account") == "/account"
