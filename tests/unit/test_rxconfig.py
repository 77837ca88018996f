"""rxconfig.py reads PUBLIC_URL, PORT, CORS_ORIGINS and TRUSTED_PROXY_HOPS as the app's settings
do: the environment first, then the project's `.env`. A PUBLIC_URL set only in `.env` passed the
preflight but the frontend was built for localhost."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ = (
    "import json, rxconfig as r; c = r.config; print(json.dumps([c.api_url, c.frontend_port,"
    " c.backend_port, list(c.cors_allowed_origins), c.trusted_proxy_hops]))"
)
NAMES = ("PUBLIC_URL", "PORT", "CORS_ORIGINS", "TRUSTED_PROXY_HOPS")


def _read(folder: Path, **env: str) -> list:
    clean = {k: v for k, v in os.environ.items() if k not in NAMES} | env
    out = subprocess.run(
        [sys.executable, "-c", READ], cwd=folder, env=clean, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_settings_only_in_dot_env_reach_the_build_and_the_environment_wins(tmp_path):
    shutil.copy(ROOT / "rxconfig.py", tmp_path / "rxconfig.py")
    (tmp_path / ".env").write_text(
        "PUBLIC_URL=https://events.example.com\nPORT=4100\n"
        "CORS_ORIGINS=https://events.example.com\nTRUSTED_PROXY_HOPS=1\n"
    )
    assert _read(tmp_path) == [
        "https://events.example.com",
        4100,
        4100,
        ["https://events.example.com"],
        1,
    ]
    assert _read(tmp_path, PUBLIC_URL="https://other.example.com")[0] == "https://other.example.com"
