"""nginx (Debian's package) in front of the two-process tests' hosts, configured by the site
the operator installs, deploy/nginx.conf.

The site is used as it is: `render_site` changes only the `listen` line and the access log's
path, and refuses a file whose form it does not recognise, so an edit of the site reaches the
tests; the hosts are the `server` lines of deploy/storefront-hosts.conf, which `render_hosts`
replaces with the test's. Both go beside a small main configuration standing in for Debian's
/etc/nginx/nginx.conf (the same worker settings, with the pid file, the error log and the
temporary folders in the test's own folder), and nginx runs as a child process (`daemon off`)
that stops with the test.

What each host served is read from the site's own access log (`$upstream_addr`, one line per
request, a websocket's when it closes): page loads, other requests, websockets, and the
websockets that carried the answers to events (more bytes to the browser than a websocket that
answered none; socket.io's own messages are a few hundred). `pin(i)` sends every new request to
host i by reloading nginx with that host alone in storefront-hosts.conf (as an operator takes a
host out of the rotation); `pin(None)` lists them all again."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx.conf"
HOSTS = ROOT / "deploy" / "storefront-hosts.conf"
# Debian's nginx (`make nginx` installs it): /usr/sbin is not on every user's PATH.
NGINX = os.environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
# Debian's mime.types, which its nginx.conf includes (package nginx-common).
MIME_TYPES = Path("/etc/nginx/mime.types")
# A websocket that answered at least one event carried more than this to the browser: the
# handshake, socket.io's open and connect messages and its pings are a few hundred bytes, the
# answer to a page's first event (its state) several thousand.
ANSWERED_BYTES = 2000

MAIN = """\
# Debian's /etc/nginx/nginx.conf, the lines the site depends on; the rest in {prefix}.
worker_processes auto;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log notice;
events {{
    worker_connections 768;
}}
http {{
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include {mime_types};
    default_type application/octet-stream;
    access_log {prefix}/access.log;
    gzip on;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {site};
}}
"""

_LISTEN = re.compile(r"^(\s*)listen\s+80;$", re.M)
_ACCESS_LOG = re.compile(r"^(\s*)access_log\s+\S+\s+storefront;$", re.M)
_SERVER = re.compile(r"^server\s+[^;\s]+;[^\n]*\n", re.M)
_LINE = re.compile(
    r'^\S+ \[[^\]]+\] "(?P<method>\S+) (?P<path>\S+)[^"]*" (?P<status>\d{3}) (?P<bytes>\d+) '
    r"(?P<duration>[\d.]+) (?P<end>[\d.]+) upstream=(?P<upstream>\S+(?:, \S+)*) "
)


def render_site(text: str, *, listen: str, access_log: Path) -> str:
    """deploy/nginx.conf listening on `listen`, logging to `access_log`; nothing else changes."""

    def once(pattern: re.Pattern, replacement: str, what: str, text: str) -> str:
        text, count = pattern.subn(replacement, text)
        if count != 1:
            raise ValueError(f"{SITE.name}: expected one {what}, found {count}")
        return text

    text = once(_LISTEN, rf"\g<1>listen {listen};", "`listen 80;` line", text)
    return once(_ACCESS_LOG, rf"\g<1>access_log {access_log} storefront;", "storefront log", text)


def render_hosts(text: str, hosts: list[str]) -> str:
    """deploy/storefront-hosts.conf listing `hosts`: its `server` lines replaced, in place of
    the first one."""
    found = _SERVER.search(text)
    if found is None:
        raise ValueError(f"{HOSTS.name}: expected `server HOST:PORT;` lines")
    servers = "".join(f"server {host};\n" for host in hosts)
    return text[: found.start()] + servers + _SERVER.sub("", text[found.start() :])


@dataclass
class HostStats:
    documents: list[str] = field(default_factory=list)  # paths of page loads
    requests: list[str] = field(default_factory=list)  # "METHOD path" of every HTTP request
    websocket_bytes: list[int] = field(default_factory=list)  # what each carried to the browser

    @property
    def websockets(self) -> int:
        return len(self.websocket_bytes)

    @property
    def answering_websockets(self) -> int:
        """Websockets that carried answers to events."""
        return sum(1 for sent in self.websocket_bytes if sent > ANSWERED_BYTES)

    @property
    def uploads(self) -> list[str]:
        return [r for r in self.requests if r.startswith("POST /_upload")]

    def summary(self) -> str:
        return (
            f"{len(self.documents)} page loads, {len(self.requests) - len(self.documents)} other "
            f"requests, {self.websockets} websockets ({self.answering_websockets} answered events)"
        )


def _is_page(method: str, path: str) -> bool:
    """A page load: a GET of a route (no file name), not of Reflex's or the API's endpoints."""
    path = path.split("?", 1)[0]
    last = path.rsplit("/", 1)[-1]
    internal = path.startswith(("/_", "/api/", "/assets/", "/ping"))
    return method == "GET" and not internal and ("." not in last or last.endswith(".html"))


def _open_at(host: str, port: int) -> int:
    """Connections to `host`:`port` that nginx has not closed yet (/proc/net/tcp: ESTABLISHED,
    or CLOSE_WAIT, the client gone and nginx not done). nginx writes a request's log line
    before it closes the connection."""
    local = f"{''.join(reversed(socket.inet_aton(host).hex(' ').split()))}:{port:04X}".upper()
    try:
        lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return 0
    rows = [line.split() for line in lines]
    return sum(1 for row in rows if row[1] == local and row[3] in {"01", "08"})


class Nginx:
    def __init__(self, host: str, port: int, hosts: list[str], folder: Path) -> None:
        self.host, self.port, self.hosts, self.folder = host, port, hosts, folder
        self.site = folder / "storefront.conf"
        self.hosts_file = folder / HOSTS.name  # the site includes it from beside nginx.conf
        self.access_log = folder / "storefront.access.log"
        self.process: subprocess.Popen | None = None
        self._since = 0.0

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def _write_hosts(self, hosts: list[str]) -> None:
        self.hosts_file.write_text(render_hosts(HOSTS.read_text(), hosts))

    def check(self) -> str:
        """`nginx -t` on the configuration: its output, raising when nginx refuses it."""
        done = subprocess.run(
            [NGINX, "-t", "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"nginx refuses the configuration:\n{done.stderr}")
        return done.stderr

    def __enter__(self) -> Nginx:
        if self._answers():
            raise RuntimeError(f"{self.host}:{self.port} is already taken: stop what listens there")
        self.folder.mkdir(parents=True, exist_ok=True)
        main = MAIN.format(prefix=self.folder, mime_types=MIME_TYPES, site=self.site)
        (self.folder / "nginx.conf").write_text(main)
        site = render_site(
            SITE.read_text(), listen=f"{self.host}:{self.port}", access_log=self.access_log
        )
        self.site.write_text(site)
        self._write_hosts(self.hosts)
        self.check()
        with (self.folder / "stderr.log").open("w") as stderr:
            self.process = subprocess.Popen(
                [NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")]
                + ["-g", "daemon off;"],
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
            )
        deadline = time.monotonic() + 10
        while not self._answers() or self.process.poll() is not None:
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.__exit__()
                raise RuntimeError(f"nginx did not start; see {self.folder / 'error.log'}")
            time.sleep(0.1)
        self.reset_stats()
        return self

    def __exit__(self, *_exc) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # nginx's fast shutdown
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.process = None

    def _answers(self) -> bool:
        with socket.socket() as probe:
            probe.settimeout(0.5)
            return probe.connect_ex((self.host, self.port)) == 0

    # -- which host serves ---------------------------------------------------------------------

    def _children(self) -> dict[int, str]:
        """nginx's worker processes: pid -> process title."""
        found = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
                if parent == self.process.pid:
                    title = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ")
                    found[int(stat.parent.name)] = title.decode(errors="replace")
            except (OSError, IndexError, ValueError):
                continue
        return found

    def pin(self, index: int | None) -> None:
        """Only host `index` from now on (None: all of them again): nginx reloads its
        configuration, and returns once the workers of the old one take no new connection
        (their title says they are shutting down; they finish what they hold)."""
        self._write_hosts(self.hosts if index is None else [self.hosts[index]])
        self.check()
        before = set(self._children())
        self.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 15
        while True:
            now = self._children()
            fresh = set(now) - before
            old_stopping = all("shutting down" in now[p] for p in before if p in now)
            if fresh and old_stopping:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not reload; see {self.folder / 'error.log'}")
            time.sleep(0.05)

    def reset_stats(self) -> None:
        """Count only requests that start from now on."""
        self._since = time.time()

    def settle(self, timeout: float = 15) -> None:
        """Wait until no client holds a connection to nginx (a websocket is logged when it
        closes): call it after closing the browser context whose requests are to be counted."""
        deadline = time.monotonic() + timeout
        while _open_at(self.host, self.port) and time.monotonic() < deadline:
            time.sleep(0.1)

    @property
    def stats(self) -> list[HostStats]:
        """What each host served of the requests started since `reset_stats`, as logged."""
        stats = [HostStats() for _ in self.hosts]
        index = {host: i for i, host in enumerate(self.hosts)}
        try:
            lines = self.access_log.read_text().splitlines()
        except FileNotFoundError:
            lines = []
        for line in lines:
            entry = _LINE.match(line)
            if entry is None:
                continue
            started = float(entry["end"]) - float(entry["duration"])
            host = entry["upstream"].split(", ")[-1]
            if started < self._since or host not in index:
                continue
            served = stats[index[host]]
            method, path = entry["method"], entry["path"]
            if entry["status"] == "101":
                served.websocket_bytes.append(int(entry["bytes"]))
                continue
            served.requests.append(f"{method} {path}")
            if _is_page(method, path):
                served.documents.append(path)
        return stats
