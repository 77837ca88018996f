"""Secrets sealed at rest (services/accounts/sealed.py; issue 33, finding 3): AES-GCM with a key derived
from SECRETS_KEY, else SECRET_KEY, never from anything in the database; a legacy plain value is
still read; a value sealed with another key, or changed, does not open."""

import pytest

from storefront.services.accounts import sealed
from storefront.settings import get_settings

SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
KEY_A = "first-key-q3V9rX2mKp7TzL4wN8cB1fH6jD0sG5yA"
KEY_B = "second-key-Zr1Lk0sXw6Jc9HfT2bYp5Ge7UoRm4DaQi"


@pytest.fixture
def keys(monkeypatch):
    settings = get_settings()
    monkeypatch.setattr(settings, "secret_key", KEY_A)
    monkeypatch.setattr(settings, "secrets_key", None)
    return settings


def test_a_sealed_value_is_versioned_and_holds_nothing_of_the_plain_text(keys):
    stored = sealed.seal(SECRET)
    assert stored.startswith("v1:") and SECRET not in stored
    assert len(stored) <= 255  # two_factor.secret's width (migration 0017)
    assert sealed.seal(SECRET) != stored  # a new nonce each time
    assert sealed.unseal(stored) == SECRET
    assert sealed.is_sealed(stored) and not sealed.is_sealed(SECRET)


def test_a_legacy_plain_value_is_read_as_it_is(keys):
    assert sealed.unseal(SECRET) == SECRET


def test_another_key_or_a_changed_value_does_not_open(keys, monkeypatch):
    stored = sealed.seal(SECRET)
    monkeypatch.setattr(keys, "secret_key", KEY_B)
    with pytest.raises(sealed.SealError) as wrong:
        sealed.unseal(stored)
    assert wrong.value.code == "wrong_key"
    assert sealed.unseal(stored, material=KEY_A) == SECRET

    monkeypatch.setattr(keys, "secret_key", KEY_A)
    body = stored[3:]
    changed = "v1:" + body[:-2] + ("AA" if body[-2:] != "AA" else "BB")
    with pytest.raises(sealed.SealError):
        sealed.unseal(changed)
    with pytest.raises(sealed.SealError) as unknown:
        sealed.unseal("v9:" + body)
    assert unknown.value.code == "unknown_version"


def test_secrets_key_when_set_is_the_key_and_secret_key_no_longer_matters(keys, monkeypatch):
    monkeypatch.setattr(keys, "secrets_key", KEY_B)
    stored = sealed.seal(SECRET)
    monkeypatch.setattr(keys, "secret_key", "a-rotated-secret-key-0123456789abcdefghij")
    assert sealed.unseal(stored) == SECRET
    with pytest.raises(sealed.SealError):
        sealed.unseal(stored, material=KEY_A)


def test_keys_for_different_purposes_differ(keys):
    """The manifest's signing key and the sealing key come from one secret, never the same."""
    assert sealed.derive_key(b"a") != sealed.derive_key(b"b")
    assert len(sealed.derive_key(b"a")) == 32
    assert sealed.derive_key(b"a") != sealed.derive_key(b"a", material=KEY_B)


def test_a_weak_secrets_key_is_refused_on_a_public_address_and_a_blank_one_is_unset():
    from pydantic import ValidationError

    from storefront.settings import Settings

    public = {"public_url": "https://events.example.com", "secret_key": KEY_A, "_env_file": None}
    with pytest.raises(ValidationError, match="SECRETS_KEY is shorter"):
        Settings(secrets_key="short", **public)
    assert Settings(secrets_key=KEY_B, **public).secrets_key == KEY_B
    assert Settings(secrets_key="  ", **public).secrets_key is None
