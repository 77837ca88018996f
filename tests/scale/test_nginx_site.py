"""deploy/nginx.conf is a site for Debian's nginx package: it loads inside Debian's own
/etc/nginx/nginx.conf (which already says `gzip on;`, includes mime.types, and so on), in place
of the sites it includes. Only `nginx -t`: no app is needed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.scale.nginx import HOSTS, NGINX, SITE, render_hosts, render_site

DEBIAN_CONF = Path("/etc/nginx/nginx.conf")


def test_the_site_loads_in_debians_nginx_conf(tmp_path):
    if not Path(NGINX).exists() or not DEBIAN_CONF.exists():
        pytest.skip(f"Debian's nginx is not installed ({NGINX}, {DEBIAN_CONF}): `make nginx`")
    site = tmp_path / "storefront"
    site.write_text(
        render_site(
            SITE.read_text(), listen="127.0.0.1:8080", access_log=tmp_path / "storefront.log"
        )
    )
    # Included from beside nginx.conf, as /etc/nginx/storefront-hosts.conf is.
    hosts = render_hosts(HOSTS.read_text(), ["127.0.0.1:3000", "10.0.0.12:3000"])
    (tmp_path / HOSTS.name).write_text(hosts)
    main = DEBIAN_CONF.read_text()
    # Its sites (Debian's `default` among them) and conf.d give way to this one site; its
    # files (pid, logs) go to tmp_path, so the check needs no root.
    main, sites = re.subn(r"include /etc/nginx/sites-enabled/\*;", f"include {site};", main)
    main = re.sub(r"include /etc/nginx/conf\.d/\*\.conf;", "", main)
    main = re.sub(r"(?m)^(\s*)(pid|error_log|access_log)\s+\S+;", rf"\1\2 {tmp_path}/\2;", main)
    assert sites == 1, "Debian's nginx.conf no longer includes /etc/nginx/sites-enabled/*"
    (tmp_path / "nginx.conf").write_text(main)
    done = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
