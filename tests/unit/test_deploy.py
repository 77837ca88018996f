"""What deploy/ holds agrees with the app and the Makefile (docs/operations.md, 'Several workers
and hosts'): nginx caps uploads as the app does and keeps websockets open past Reflex's pings,
and the systemd unit starts a host with the very commands of `make run-prod`. That nginx really
serves the site this way is `make test-scale`'s to show (tests/scale)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNIT_ROOT = "/srv/storefront"
UNITS = {"k": 1024, "m": 1024**2, "g": 1024**3}


def _location(path: str) -> str:
    site = (DEPLOY / "nginx.conf").read_text()
    found = re.search(rf"^\s*location {re.escape(path)} \{{\n(.*?)^\s*\}}", site, re.M | re.S)
    assert found, f"deploy/nginx.conf has no `location {path}`"
    return found.group(1)


def _setting(block: str, name: str) -> str:
    found = re.search(rf"^\s*{name}\s+(\S+);", block, re.M)
    assert found, f"no {name}"
    return found.group(1)


def _size(value: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kKmMgG]?)", value).groups()
    return int(number) * UNITS.get(unit.lower(), 1)


def _seconds(value: str) -> int:
    number, unit = re.fullmatch(r"(\d+)(s|m)?", value).groups()
    return int(number) * (60 if unit == "m" else 1)


def test_nginx_caps_uploads_at_the_apps_cap():
    from storefront.settings import Settings

    cap = Settings.model_fields["upload_max_bytes"].default
    assert _size(_setting(_location("/_upload"), "client_max_body_size")) == cap


def test_nginx_keeps_websockets_open_past_the_pings():
    from reflex_base.constants.base import Ping

    websocket = _location("/_event")
    for name in ("proxy_read_timeout", "proxy_send_timeout"):
        assert _seconds(_setting(websocket, name)) >= 2 * Ping.INTERVAL, name


def test_nginx_keeps_the_builds_hashed_files_for_a_year():
    assets = _location("/assets/")
    assert 'add_header Cache-Control "public, max-age=31536000, immutable";' in assets


def _make_recipe(target: str) -> list[str]:
    """The commands of a Makefile target, as the unit writes them."""
    makefile = (ROOT / "Makefile").read_text()
    body = re.search(rf"^{target}:[^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.M).group(1)
    commands = [line.strip().lstrip("@") for line in body.splitlines()]
    replace = {"$(BIN)": f"{UNIT_ROOT}/.venv/bin", "$(HOST)": "${HOST}", "$(PORT)": "${PORT}"}
    for old, new in replace.items():
        commands = [command.replace(old, new) for command in commands]
    return commands


def _unit_commands(name: str) -> list[str]:
    unit = (DEPLOY / name).read_text()
    return re.findall(r"^ExecStart(?:Pre)?=(.+)$", unit, re.M)


def test_the_unit_starts_a_host_as_make_run_prod_does():
    assert _unit_commands("storefront.service") == _make_recipe("run-prod")
    unit = (DEPLOY / "storefront.service").read_text()
    assert "Environment=ENVIRONMENT=prod" in unit  # as run-prod exports it
    assert f"WorkingDirectory={UNIT_ROOT}\n" in unit
    assert "EnvironmentFile=/etc/storefront.env\n" in unit


def test_the_backup_unit_backs_up_as_make_backup_does():
    preflight = f"{UNIT_ROOT}/.venv/bin/python -m storefront.preflight"
    backup = f"{UNIT_ROOT}/.venv/bin/python -m storefront.manage backup"
    # $(PREFLIGHT): the settings check when ENVIRONMENT=prod, which the unit sets.
    assert _make_recipe("backup")[0] == "$(PREFLIGHT)"
    assert _make_recipe("backup")[-1].startswith(backup)
    assert "Environment=ENVIRONMENT=prod" in (DEPLOY / "storefront-backup.service").read_text()
    assert _unit_commands("storefront-backup.service") == [preflight, backup]
