"""Passwords are hashed at argon2id's recommended cost, and an unknown account costs the same
time as a known one (tests/integration/conftest.py hashes cheaply for speed; not here)."""

from storefront.services.accounts import auth

RECOMMENDED = "$argon2id$v=19$m=65536,t=3,p=4$"


def test_passwords_are_hashed_at_the_recommended_cost():
    assert auth.hash_password("correct horse battery").startswith(RECOMMENDED)


def test_the_stand_in_hash_of_an_unknown_account_costs_as_much():
    assert auth._DUMMY_HASH.startswith(RECOMMENDED)
