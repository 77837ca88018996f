"""Fixtures shared by the integration tests of one rule."""

import pytest
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from storefront.services.accounts import auth
from storefront.settings import get_settings

# argon2id at its smallest: the same kind of hash ('$argon2id$...'), checked by the same code,
# in microseconds instead of the ~0.2 s the recommended cost takes on purpose. Most of the time
# the sign-in throttling and two-factor tests took (80 guesses each, ~60 s in all) was spent
# hashing, not on their rules, which run on the `now` each test passes.
_CHEAP_HASHER = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=8, parallelism=1),))


@pytest.fixture(autouse=True)
def cheap_password_hashes(monkeypatch):
    """Passwords and recovery codes hashed cheaply in-process (production keeps the
    recommended cost: tests/unit/test_password_cost.py checks it)."""
    monkeypatch.setattr(auth, "_hasher", _CHEAP_HASHER)
    monkeypatch.setattr(auth, "_DUMMY_HASH", _CHEAP_HASHER.hash("not-a-real-password"))


@pytest.fixture
def limits(monkeypatch):
    """The booking limits and the mail cap at their documented defaults, whatever the suite
    runs with (tests/integration/test_booking_limits.py, test_limits_canonical.py)."""
    settings = get_settings()
    monkeypatch.setattr(settings, "booking_limit_per_address", 5)
    monkeypatch.setattr(settings, "booking_limit_per_email", 3)
    monkeypatch.setattr(settings, "booking_limit_per_phone", 3)
    monkeypatch.setattr(settings, "mail_cap_per_recipient", 5)
    return settings
