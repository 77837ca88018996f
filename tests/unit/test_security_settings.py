"""Placeholder secrets and the first-admin rule on a public address (finding 7)."""

import pytest
from pydantic import ValidationError

from storefront.settings import DEV_SECRET, Settings, secret_key_problem

# What `make secret` prints (secrets.token_urlsafe(48)), written out so the test is repeatable.
STRONG = "vN3q8Zr1Lk0sXw6Jc9HfT2bYp5Ge7UoRm4DaQiWxSg8Ej1KtCz6Bn0Vh3Fl7Mu2P"


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
    settings = Settings(secret_key=STRONG, public_url="https://events.example.com", _env_file=None)
    assert settings.is_public


WEAK = [
    "",
    "secret",
    "changeme",
    "password",
    "dev",
    "short-but-random-k3Y",  # under 32 bytes
    "x" * 48,
    "CHANGEME" * 6,
    "change-me-change-me-change-me-change-me",
    "secret_secret_secret_secret_secret_secret",
    "0123456789" * 4,
    "ababababababababababababababababab1",
    DEV_SECRET,
]


@pytest.mark.parametrize("key", WEAK)
@pytest.mark.parametrize(
    ("environment", "url"),
    [("prod", "http://localhost:3000"), ("dev", "https://events.example.com")],
)
def test_a_weak_key_is_refused_in_prod_and_on_a_public_address(key, environment, url):
    """Issue 18, finding 7: `SECRET_KEY=secret` (or empty) used to be accepted in prod."""
    with pytest.raises(ValidationError) as refused:
        Settings(
            environment=environment,
            secret_key=key,
            public_url=url,
            smtp_host="smtp.example.com",
            _env_file=None,
        )
    assert "`make secret`" in str(refused.value)
    assert secret_key_problem(key)


def test_a_weak_key_stays_allowed_on_a_developers_loopback_run():
    assert Settings(secret_key="secret", _env_file=None).secret_key == "secret"


def test_what_make_secret_prints_is_accepted():
    import secrets

    for _ in range(20):
        assert secret_key_problem(secrets.token_urlsafe(48)) is None
        assert secret_key_problem(secrets.token_hex(32)) is None


def test_prod_refuses_to_start_without_a_mail_server():
    """Issue 18, finding 9: in prod without SMTP_HOST reset links went to the log."""
    with pytest.raises(ValidationError) as refused:
        Settings(environment="prod", secret_key=STRONG, _env_file=None)
    assert "SMTP_HOST must be set" in str(refused.value)
    assert Settings(
        environment="prod", secret_key=STRONG, smtp_host="mail.example.com", _env_file=None
    ).smtp_host


@pytest.mark.parametrize("owner", ["root,victim@corp.example", "Ana <ana@example.com>", "x"])
def test_owner_email_must_be_one_address(owner):
    """OWNER_EMAIL names the one account that becomes admin by signing up (finding 4's rule:
    exactly one address), checked at start."""
    with pytest.raises(ValidationError, match="OWNER_EMAIL must be one email address"):
        Settings(owner_email=owner, _env_file=None)


def test_owner_email_is_kept_as_the_accounts_keep_emails():
    assert Settings(owner_email=" Boss@Example.com ", _env_file=None).owner_email == (
        "boss@example.com"
    )


def test_production_settings_store_images_in_the_bucket_unless_told_otherwise():
    """Every command run with ENVIRONMENT=prod (make seed, make make-admin, the workers) stores
    images in the same place: the bucket, as the preflight requires of a production start."""
    import secrets

    from storefront.settings import Settings

    prod = {"environment": "prod", "smtp_host": "mail", "secret_key": secrets.token_urlsafe(48)}
    assert Settings(_env_file=None, **prod).storage_backend == "s3"
    assert Settings(_env_file=None, **prod, storage_backend="local").storage_backend == "local"
    assert Settings(_env_file=None).storage_backend == "local"


def test_a_named_bucket_stores_images_in_it_in_any_environment(monkeypatch):
    """The several-hosts recipe exports S3_BUCKET but not ENVIRONMENT: `make seed` in the same
    shell must store the demo images in the bucket the hosts share, not on one host's disk."""
    from storefront.settings import Settings

    monkeypatch.setenv("S3_BUCKET", "images")
    assert Settings(_env_file=None).storage_backend == "s3"
    monkeypatch.setenv("STORAGE_BACKEND", "local")
    assert Settings(_env_file=None).storage_backend == "local"
    monkeypatch.delenv("STORAGE_BACKEND")
    monkeypatch.setenv("S3_BUCKET", " ")
    assert Settings(_env_file=None).storage_backend == "local"
