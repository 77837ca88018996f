"""OAuth rules that need neither a database nor a provider."""

import pytest

from storefront.services.accounts import auth, oauth


@pytest.mark.parametrize(
    ("asked", "kept"),
    [
        ("/account/profile?tab=security", "/account/profile?tab=security"),
        ("/", "/"),
        (None, "/admin"),
        ("", "/admin"),
        ("account", "/admin"),
        ("//evil.example.com", "/admin"),
        ("/\\evil.example.com", "/admin"),
        ("https://evil.example.com/", "/admin"),
        ("/ok\r\nSet-Cookie: x=1", "/admin"),
    ],
)
def test_only_same_site_paths_are_destinations(asked, kept):
    assert oauth.safe_redirect(asked) == kept


def test_an_unknown_provider_is_refused_before_anything_else():
    with pytest.raises(oauth.OAuthError) as error:
        oauth.begin("myspace", redirect_to="/")
    assert (error.value.code, error.value.message) == (
        "unknown_provider",
        "Error signing in with OAuth",
    )


def test_where_a_new_account_goes():
    assert auth.landing_after_sign_in(None, is_admin=True) == "/admin"
    assert auth.landing_after_sign_in(None, is_admin=False) == "/account"
    assert auth.landing_after_sign_in("/cart", is_admin=False) == "/cart"
    assert auth.landing_after_sign_in("//evil.example", is_admin=False) == "/account"
    assert (
        auth.completion_url("t.k", "/cart?x=1")
        == "/api/auth/complete?ticket=t.k&redirectTo=%2Fcart%3Fx%3D1"
    )


def test_only_a_known_provider_name_reaches_the_sign_in_error():
    assert oauth.label_from_query("GitHub") == "GitHub"
    assert oauth.label_from_query("Google") == "Google"
    for forged in ("<b>Evil</b>", "Call +383 44 666 666 to unlock your account", "", None, 3):
        assert oauth.label_from_query(forged) == "OAuth"


def test_a_plain_user_lands_on_the_account_after_sign_in_as_after_sign_up():
    assert auth.landing_after_sign_in(None, is_admin=False) == "/account"
    assert auth.landing_after_sign_in("/admin/users", is_admin=False) == "/account"
    assert auth.landing_after_sign_in(None, is_admin=True) == "/admin"
