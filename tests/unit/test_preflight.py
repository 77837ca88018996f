"""`make run-prod`'s checks (storefront/preflight.py): it refuses, saying what is missing, when
the app could not run on several workers or hosts."""

from storefront import preflight

GOOD = {
    "DATABASE_URL": "postgresql://storefront:secret@db:5432/storefront",
    "REFLEX_REDIS_URL": "redis://redis:6379/0",
    "SECRET_KEY": "q3V9rX2mKp7TzL4wN8cB1fH6jD0sG5yA",
    "PUBLIC_URL": "https://events.example.com",
    "S3_BUCKET": "images",
    "SMTP_HOST": "smtp.example.com",
    "STORAGE_BACKEND": "s3",
    "GRANIAN_WORKERS": "4",
}


def test_a_complete_environment_passes():
    assert preflight.problems(GOOD, dotenv={}) == []


def test_every_missing_variable_is_named():
    found = preflight.problems({}, dotenv={})
    names = (
        "DATABASE_URL",
        "REFLEX_REDIS_URL",
        "SECRET_KEY",
        "PUBLIC_URL",
        "S3_BUCKET",
        "SMTP_HOST",
    )
    for name in names:
        assert any(line.startswith(f"{name} is not set") for line in found), name


def test_sqlite_local_storage_and_a_bad_worker_count_are_refused():
    found = preflight.problems(
        GOOD
        | {"DATABASE_URL": "sqlite:///data/x.db", "STORAGE_BACKEND": "local"}
        | {"GRANIAN_WORKERS": "many"},
        dotenv={},
    )
    assert len(found) == 3
    assert "PostgreSQL" in found[0] and "s3" in found[1] and "WORKERS" in found[2]


def test_dotenv_counts_for_the_app_but_not_for_redis():
    """Reflex reads REFLEX_REDIS_URL from the environment only; the app's settings also come
    from .env."""
    environ = {"REFLEX_REDIS_URL": GOOD["REFLEX_REDIS_URL"], "GRANIAN_WORKERS": "2"}
    dotenv = {k: v for k, v in GOOD.items() if k not in environ}
    assert preflight.problems(environ, dotenv=dotenv) == []
    only_dotenv = preflight.problems({}, dotenv=GOOD)
    assert [line.split(" ")[0] for line in only_dotenv] == ["REFLEX_REDIS_URL"]


def test_prod_without_a_mail_server_is_refused():
    """Issue 18, finding 9: mails (reset links included) are never only printed in prod."""
    found = preflight.problems({k: v for k, v in GOOD.items() if k != "SMTP_HOST"}, dotenv={})
    assert len(found) == 1 and found[0].startswith("SMTP_HOST is not set")
    assert "printed to the log" in found[0]


def test_the_app_settings_refuse_a_weak_key_saying_how_to_make_one(monkeypatch):
    """Issue 18, finding 7: what `make run-prod` prints after the variables are all there."""
    for name, value in GOOD.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("ENVIRONMENT", "prod")
    monkeypatch.setenv("SECRET_KEY", "secret")
    found = preflight.settings_problems()
    assert len(found) == 1 and "`make secret`" in found[0], found
    monkeypatch.setenv("SECRET_KEY", GOOD["SECRET_KEY"])
    assert preflight.settings_problems() == []
    monkeypatch.delenv("SMTP_HOST")
    assert any("SMTP_HOST must be set" in line for line in preflight.settings_problems())
