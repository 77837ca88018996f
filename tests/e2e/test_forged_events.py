"""Security on the server: forged events sent over the real websocket, as a browser would send
them, cannot do what the caller may not do, and no delta carries a secret."""

import asyncio
import json
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import socketio
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import LoginSession, User
from storefront.services import auth
from storefront.state.account import ProfileState
from storefront.state.admin_users import AdminUsersState

pytestmark = pytest.mark.e2e
NAMESPACE = "/_event"  # Reflex's socket.io namespace, as the browser uses it


def _account(server, role: str) -> tuple[str, str, str]:
    """A fresh account of `role` with a signed-in session: (user id, session token, hash)."""
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        user = User(
            email=f"{role}-{uuid.uuid4().hex[:8]}@example.com",
            full_name=f"Original {role}",
            password_hash=auth.hash_password("a long enough password"),
            role=role,
        )
        session.add(user)
        session.flush()
        token = auth.create_session(session=session, user_id=user.id, remember=False)
        session.commit()
        result = (str(user.id), token, user.password_hash)
    engine.dispose()
    return result


def _user(server, user_id: str) -> User:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        user = session.get(User, uuid.UUID(user_id))
        session.expunge(user)
    engine.dispose()
    return user


class Browser:
    """A socket.io client speaking Reflex's event protocol, with an optional session cookie."""

    def __init__(self, url: str, token: str | None) -> None:
        self.url, self.token = url, token
        self.client = socketio.AsyncClient(reconnection=False)
        self.received: list[str] = []
        self.client.on("event", self._on_event, namespace=NAMESPACE)

    async def _on_event(self, data) -> None:
        self.received.append(json.dumps(data))

    async def __aenter__(self) -> "Browser":
        headers = {"Cookie": f"{auth.COOKIE_NAME}={self.token}"} if self.token else {}
        await self.client.connect(
            f"{self.url}?token={uuid.uuid4()}",
            socketio_path="/_event",
            transports=["websocket"],
            headers=headers,
            namespaces=[NAMESPACE],
            wait_timeout=10,
        )
        return self

    async def __aexit__(self, *_exc) -> None:
        await self.client.disconnect()

    async def send(self, handler, path: str = "/", **payload) -> None:
        """Emit `handler` with `payload` and wait until the server has answered it."""
        before = len(self.received)
        name = f"{handler.state_full_name}.{handler.fn.__name__}"
        await self.client.emit(
            "event",
            {"name": name, "payload": payload, "router_data": {"pathname": path, "asPath": path}},
            namespace=NAMESPACE,
        )
        for _ in range(50):
            if len(self.received) > before:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.3)


def _run(coroutine):
    """Run in a thread of its own: Playwright's sync API keeps a loop running in this one."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_admin_events_are_refused_to_guests_and_plain_users(server):
    target_id, _token, _ = _account(server, "user")
    plain_id, plain_token, _ = _account(server, "user")
    admin_id, admin_token, _ = _account(server, "admin")

    seen: list[str] = []

    async def scenario():
        async with Browser(server.url, None) as guest:
            await guest.send(AdminUsersState.make_admin, "/admin/users", user_id=target_id)
            await guest.send(AdminUsersState.load, "/admin/users")
            seen.extend(guest.received)
        async with Browser(server.url, plain_token) as plain:
            await plain.send(AdminUsersState.make_admin, "/admin/users", user_id=target_id)
            await plain.send(AdminUsersState.make_admin, "/admin/users", user_id=plain_id)
            # load has no role check of its own: only the guard keeps the list private.
            await plain.send(AdminUsersState.load, "/admin/users")
            seen.extend(plain.received)

    _run(scenario())
    assert target_id not in "\n".join(seen)
    assert _user(server, target_id).role == "user"
    assert _user(server, plain_id).role == "user"

    # The same forged event from an admin does work: the refusals above are the guard's.
    async def as_admin():
        async with Browser(server.url, admin_token) as admin:
            await admin.send(AdminUsersState.make_admin, "/admin/users", user_id=target_id)

    _run(as_admin())
    assert _user(server, target_id).role == "admin"


def test_account_events_are_refused_to_guests_and_act_only_on_the_caller(server):
    victim_id, _victim_token, _ = _account(server, "user")
    caller_id, caller_token, _ = _account(server, "user")

    async def scenario():
        async with Browser(server.url, None) as guest:
            await guest.send(ProfileState.type_name, "/account/profile", value="Hacked by a guest")
            await guest.send(ProfileState.save, "/account/profile")
        async with Browser(server.url, caller_token) as caller:
            await caller.send(ProfileState.type_name, "/account/profile", value="Renamed myself")
            await caller.send(ProfileState.save, "/account/profile")

    _run(scenario())
    assert _user(server, victim_id).full_name == "Original user"
    assert _user(server, caller_id).full_name == "Renamed myself"


def test_no_delta_carries_a_password_hash_or_session_token(server):
    admin_id, admin_token, admin_hash = _account(server, "admin")
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        hashes = [row.token_hash for row in session.exec(select(LoginSession)).all()]
    engine.dispose()
    received: list[str] = []

    async def scenario():
        async with Browser(server.url, admin_token) as admin:
            from storefront.state.auth import AuthState

            await admin.send(AuthState.check_session, "/account")
            await admin.send(ProfileState.load, "/account/profile")
            await admin.send(AdminUsersState.load, "/admin/users")
            received.extend(admin.received)

    _run(scenario())
    everything = "\n".join(received)
    assert admin_id in everything  # the user list reached the admin: deltas were captured
    assert "$argon2" not in everything and admin_hash not in everything
    assert admin_token not in everything
    assert not any(h in everything for h in hashes)
    assert "sf_session" not in everything
