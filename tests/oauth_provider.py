"""A small OAuth 2.0 provider on 127.0.0.1 that speaks like Google and like GitHub, so the
sign-in flow is tested over real HTTP.

Google's endpoints live under /google/ (authorize, token, userinfo), GitHub's under /github/
(authorize, token, user, user/emails). Each provider has its own client id and secret; the
profile it answers with is set per test."""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

CLIENTS = {
    "google": ("google-client-id", "google-client-secret"),
    "github": ("github-client-id", "github-client-secret"),
}


@dataclass
class Grant:
    provider: str
    redirect_uri: str


@dataclass
class ProviderState:
    """What the provider will say about the person signing in, and what it has seen."""

    google_profile: dict[str, Any] = field(default_factory=dict)
    github_user: dict[str, Any] = field(default_factory=dict)
    github_emails: list[dict[str, Any]] = field(default_factory=list)
    codes: dict[str, Grant] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)  # access token -> provider
    token_requests: list[dict[str, str]] = field(default_factory=list)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *_args) -> None:  # keep test output quiet
        pass

    def _send_json(self, body: Any, status: int = 200) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _route(self) -> tuple[str, str, dict[str, str]]:
        parts = urlsplit(self.path)
        provider, _, endpoint = parts.path.lstrip("/").partition("/")
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        return provider, endpoint, query

    def _bearer(self, provider: str) -> bool:
        header = self.headers.get("Authorization", "")
        token = header.removeprefix("Bearer ")
        return header.startswith("Bearer ") and self.server.state.tokens.get(token) == provider

    def do_GET(self) -> None:
        provider, endpoint, query = self._route()
        state = self.server.state
        if endpoint == "authorize":
            if provider not in CLIENTS or query.get("client_id") != CLIENTS[provider][0]:
                self._send_json({"error": "invalid_client"}, 400)
                return
            code = secrets.token_hex(8)
            state.codes[code] = Grant(provider, query["redirect_uri"])
            target = (
                query["redirect_uri"] + "?" + urlencode({"code": code, "state": query["state"]})
            )
            self.send_response(302)
            self.send_header("Location", target)
            self.end_headers()
            return
        if not self._bearer(provider):
            self._send_json({"error": "invalid_token"}, 401)
        elif (provider, endpoint) == ("google", "userinfo"):
            self._send_json(state.google_profile)
        elif (provider, endpoint) == ("github", "user"):
            self._send_json(state.github_user)
        elif (provider, endpoint) == ("github", "user/emails"):
            self._send_json(state.github_emails)
        else:
            self._send_json({"error": "not_found"}, 404)

    def do_POST(self) -> None:
        provider, endpoint, _query = self._route()
        length = int(self.headers.get("Content-Length", "0"))
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        state = self.server.state
        if endpoint != "token" or provider not in CLIENTS:
            self._send_json({"error": "not_found"}, 404)
            return
        state.token_requests.append(form)
        grant = state.codes.pop(form.get("code", ""), None)  # codes are single-use
        refusal = None
        if (form.get("client_id"), form.get("client_secret")) != CLIENTS[provider]:
            refusal = "invalid_client"
        elif grant is None or grant.provider != provider:
            refusal = "bad_verification_code" if provider == "github" else "invalid_grant"
        elif form.get("redirect_uri") != grant.redirect_uri:
            refusal = "redirect_uri_mismatch"
        if refusal:
            # GitHub says no with a 200 and an error field; Google with a 400.
            self._send_json({"error": refusal}, 200 if provider == "github" else 400)
            return
        token = secrets.token_hex(16)
        state.tokens[token] = provider
        self._send_json({"access_token": token, "token_type": "bearer", "scope": "email"})


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: ProviderState


class LocalOAuthProvider:
    """Start with `with LocalOAuthProvider() as provider:`; `provider.url` is its address."""

    def __init__(self) -> None:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.state = ProviderState()
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def state(self) -> ProviderState:
        return self._server.state

    def reset(self) -> None:
        self._server.state = ProviderState()

    def settings(self) -> dict[str, str]:
        """Settings that point the app at this provider with valid credentials."""
        base = self.url
        return {
            "google_client_id": CLIENTS["google"][0],
            "google_client_secret": CLIENTS["google"][1],
            "google_authorize_url": f"{base}/google/authorize",
            "google_token_url": f"{base}/google/token",
            "google_userinfo_url": f"{base}/google/userinfo",
            "github_client_id": CLIENTS["github"][0],
            "github_client_secret": CLIENTS["github"][1],
            "github_authorize_url": f"{base}/github/authorize",
            "github_token_url": f"{base}/github/token",
            "github_user_url": f"{base}/github/user",
            "github_emails_url": f"{base}/github/user/emails",
        }

    def __enter__(self) -> LocalOAuthProvider:
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
