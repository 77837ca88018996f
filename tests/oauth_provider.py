"""A small OAuth 2.0 provider on 127.0.0.1 that speaks like Google and like GitHub, so the
sign-in flow is tested over real HTTP.

Google's endpoints live under /google/ (authorize, token, jwks), GitHub's under /github/
(authorize, token, user, user/emails). Each provider has its own client id and secret; the
profile it answers with is set per test. Like the real ones it insists on PKCE: /authorize
takes an S256 code challenge, and /token refuses a code whose verifier does not hash to it.
Google's token answer carries an ID token signed with RS256 by a key that /google/jwks
publishes, naming the nonce sent to /authorize. `ProviderState.id_token_fault` makes it sign a
bad one instead; `rotate_key` starts signing with a new key, as Google does now and then."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

CLIENTS = {
    "google": ("google-client-id", "google-client-secret"),
    "github": ("github-client-id", "github-client-secret"),
}
# How Google's ID token can be wrong: signed by a key it does not publish (under a kid it
# does, or under a kid of its own), for another client, with another nonce, long expired, from
# another issuer.
IdTokenFault = Literal[
    "foreign_key", "unknown_key", "wrong_audience", "wrong_nonce", "expired", "wrong_issuer"
]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def s256(verifier: str) -> str:
    """RFC 7636's S256 code challenge of a verifier."""
    return _b64(hashlib.sha256(verifier.encode()).digest())


@dataclass
class Grant:
    provider: str
    redirect_uri: str
    code_challenge: str
    nonce: str | None


@dataclass
class SigningKey:
    kid: str
    private: rsa.RSAPrivateKey = field(
        default_factory=lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048)
    )

    def jwk(self) -> dict[str, Any]:
        public = RSAAlgorithm.to_jwk(self.private.public_key(), as_dict=True)
        return public | {"kid": self.kid, "use": "sig", "alg": "RS256"}


@dataclass
class ProviderState:
    """What the provider will say about the person signing in, and what it has seen."""

    google_profile: dict[str, Any] = field(default_factory=dict)
    github_user: dict[str, Any] = field(default_factory=dict)
    github_emails: list[dict[str, Any]] = field(default_factory=list)
    id_token_fault: IdTokenFault | None = None
    codes: dict[str, Grant] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)  # access token -> provider
    authorize_requests: list[dict[str, str]] = field(default_factory=list)
    token_requests: list[dict[str, str]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)  # why /token said no, in order
    jwks_requests: int = 0


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

    def _authorize(self, provider: str, query: dict[str, str]) -> None:
        state = self.server.state
        state.authorize_requests.append(query)
        if provider not in CLIENTS or query.get("client_id") != CLIENTS[provider][0]:
            self._send_json({"error": "invalid_client"}, 400)
            return
        if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            self._send_json({"error": "invalid_request", "error_description": "PKCE"}, 400)
            return
        code = secrets.token_hex(8)
        state.codes[code] = Grant(
            provider, query["redirect_uri"], query["code_challenge"], query.get("nonce")
        )
        target = query["redirect_uri"] + "?" + urlencode({"code": code, "state": query["state"]})
        self.send_response(302)
        self.send_header("Location", target)
        self.end_headers()

    def do_GET(self) -> None:
        provider, endpoint, query = self._route()
        state = self.server.state
        if endpoint == "authorize":
            self._authorize(provider, query)
        elif (provider, endpoint) == ("google", "jwks"):
            state.jwks_requests += 1
            self._send_json({"keys": [key.jwk() for key in self.server.published]})
        elif not self._bearer(provider):
            self._send_json({"error": "invalid_token"}, 401)
        elif (provider, endpoint) == ("github", "user"):
            self._send_json(state.github_user)
        elif (provider, endpoint) == ("github", "user/emails"):
            self._send_json(state.github_emails)
        else:
            self._send_json({"error": "not_found"}, 404)

    def _refusal(self, provider: str, form: dict[str, str], grant: Grant | None) -> str | None:
        if (form.get("client_id"), form.get("client_secret")) != CLIENTS[provider]:
            return "invalid_client"
        if grant is None or grant.provider != provider:
            return "bad_verification_code" if provider == "github" else "invalid_grant"
        if form.get("redirect_uri") != grant.redirect_uri:
            return "redirect_uri_mismatch"
        if s256(form.get("code_verifier", "")) != grant.code_challenge:
            return "invalid_grant: code_verifier"
        return None

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
        refusal = self._refusal(provider, form, grant)
        if refusal:
            state.refusals.append(refusal)
            # GitHub says no with a 200 and an error field; Google with a 400.
            error = refusal.partition(":")[0]
            self._send_json({"error": error}, 200 if provider == "github" else 400)
            return
        assert grant is not None
        token = secrets.token_hex(16)
        state.tokens[token] = provider
        answer = {"access_token": token, "token_type": "bearer", "scope": "email"}
        if provider == "google":
            answer |= {"expires_in": 3599, "id_token": self.server.id_token(grant, token)}
        self._send_json(answer)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: ProviderState
    signing: SigningKey
    published: list[SigningKey]  # what /google/jwks answers: the current key and the last one
    issuer: str

    def id_token(self, grant: Grant, access_token: str) -> str:
        fault = self.state.id_token_fault
        now = int(time.time())
        claims = dict(self.state.google_profile) | {
            "iss": self.issuer if fault != "wrong_issuer" else "https://accounts.example.com",
            "aud": CLIENTS["google"][0] if fault != "wrong_audience" else "someone-else",
            "azp": CLIENTS["google"][0],
            "iat": now - 7200 if fault == "expired" else now,
            "exp": now - 3600 if fault == "expired" else now + 3600,
            "nonce": grant.nonce if fault != "wrong_nonce" else secrets.token_urlsafe(24),
            # OpenID Connect's at_hash: the left half of the access token's SHA-256.
            "at_hash": _b64(hashlib.sha256(access_token.encode()).digest()[:16]),
        }
        key = self.signing
        if fault == "foreign_key":
            key = SigningKey(kid=self.signing.kid)
        elif fault == "unknown_key":
            key = SigningKey(kid=secrets.token_hex(4))
        return jwt.encode(claims, key.private, algorithm="RS256", headers={"kid": key.kid})


class LocalOAuthProvider:
    """Start with `with LocalOAuthProvider() as provider:`; `provider.url` is its address."""

    def __init__(self) -> None:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.state = ProviderState()
        self._server.signing = SigningKey(kid=secrets.token_hex(4))
        self._server.published = [self._server.signing]
        self._server.issuer = f"{self.url}/google"
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

    def rotate_key(self) -> str:
        """Sign from now on with a new key, published beside the last one; returns its kid."""
        new = SigningKey(kid=secrets.token_hex(4))
        self._server.published = [new, self._server.signing]
        self._server.signing = new
        return new.kid

    def settings(self) -> dict[str, str]:
        """Settings that point the app at this provider with valid credentials."""
        base = self.url
        return {
            "google_client_id": CLIENTS["google"][0],
            "google_client_secret": CLIENTS["google"][1],
            "google_authorize_url": f"{base}/google/authorize",
            "google_token_url": f"{base}/google/token",
            "google_jwks_url": f"{base}/google/jwks",
            "google_issuer": self._server.issuer,
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
