"""Placeholder secrets and the first-admin rule on a public address (finding 7)."""

import pytest
from pydantic import ValidationError

from storefront.settings import DEV_SECRET, Settings


@pytest.mark.parametrize("environment", ["dev", "test", "prod"])
def test_the_placeholder_secret_is_refused_on_a_public_address(environment):
    with pytest.raises(ValidationError):
        Settings(
            environment=environment,
            secret_key=DEV_SECRET,
            public_url="https://events.example.com",
            _env_file=None,
        )


@pytest.mark.parametrize(
    "url", ["http://localhost:3000", "http://127.0.0.1:3111", "http://[::1]:80"]
)
def test_loopback_runs_keep_the_placeholder(url):
    assert Settings(secret_key=DEV_SECRET, public_url=url, _env_file=None).secret_key == DEV_SECRET


def test_a_real_secret_on_a_public_address_is_accepted():
    settings = Settings(
        secret_key="x" * 48, public_url="https://events.example.com", _env_file=None
    )
    assert settings.is_public
