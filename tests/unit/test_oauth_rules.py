"""OAuth rules that need neither a database nor a provider."""

import pytest

from storefront.services import oauth


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
        oauth.authorization_url("myspace", redirect_to="/")
    assert (error.value.code, error.value.message) == (
        "unknown_provider",
        "Error signing in with OAuth",
    )


def test_where_a_new_account_goes():
    from storefront.services import auth

    assert auth.landing_after_sign_in(None, is_admin=True) == "/admin"
    assert auth.landing_after_sign_in(None, is_admin=False) == "/account"
    assert auth.landing_after_sign_in("/cart", is_admin=False) == "/cart"
    assert auth.landing_after_sign_in("//evil.example", is_admin=False) == "/account"
    assert (
        auth.completion_url("t.k", "/cart?x=1")
        == "/api/auth/complete?ticket=t.k&redirectTo=%2Fcart%3Fx%3D1"
    )
