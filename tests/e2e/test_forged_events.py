"""Security on the server: forged events sent over the real websocket, as a browser would send
them, cannot do what the caller may not do, and no delta carries a secret."""

import uuid

import pytest
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import LoginSession, User
from storefront.services.accounts import auth
from storefront.state.account import ProfileState
from storefront.state.admin_users import AdminUsersState
from tests.e2e.socket_client import Tab as Browser
from tests.e2e.socket_client import run as _run

pytestmark = pytest.mark.e2e


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
            await guest.send(
                ProfileState.save, "/account/profile", form_data={"full_name": "Hacked by a guest"}
            )
        async with Browser(server.url, caller_token) as caller:
            await caller.send(
                ProfileState.save, "/account/profile", form_data={"full_name": "Renamed myself"}
            )

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


def test_a_tab_whose_state_was_lost_is_reloaded_before_anything_runs(server):
    """A tab that has not hydrated since its server-side state was lost (Redis restarted, or
    the state expired) would run on a blank state: its blank cart would overwrite the one in
    the browser. The server asks the page to reload instead; after hydrate it is served."""
    from storefront.models import Service
    from storefront.state.cart import CartState

    engine = make_engine(server.database_url)
    with Session(engine) as session:
        service_id = str(session.exec(select(Service.id).where(Service.kind == "mascot")).first())
    engine.dispose()
    token = str(uuid.uuid4())

    async def scenario() -> tuple[str, str]:
        async with Browser(server.url, None, token, hydrate=False) as lost:
            await lost.send(CartState.add_service, "/services/mascots", service_id=service_id)
            first = lost.text()
        async with Browser(server.url, None, token) as reloaded:
            await reloaded.send(CartState.add_service, "/services/mascots", service_id=service_id)
            return first, reloaded.text()

    lost, reloaded = _run(scenario())
    assert "window.location.reload" in lost
    assert service_id not in lost  # nothing was added, nothing sent
    assert service_id in reloaded and "window.location.reload" not in reloaded


def test_a_lost_tab_is_served_a_catalogue_page_and_reloaded_at_its_first_own_event(server):
    """A catalogue page's load (MascotsState: catalogue_only, state/access.py) has nothing of the
    tab to lose, so a tab whose state was lost is answered without the identity's Redis round
    trip; the first event of a state that holds the tab's own (the cart) still reloads it."""
    from storefront.models import Service
    from storefront.state.cart import CartState
    from storefront.state.mascots import MascotsState

    engine = make_engine(server.database_url)
    with Session(engine) as session:
        service_id = str(session.exec(select(Service.id).where(Service.kind == "mascot")).first())
    engine.dispose()

    async def scenario() -> tuple[str, str]:
        async with Browser(server.url, None, str(uuid.uuid4()), hydrate=False) as lost:
            await lost.send(MascotsState.load, "/services/mascots")
            page = lost.text()
            await lost.send(CartState.add_service, "/services/mascots", service_id=service_id)
            return page, lost.text()[len(page) :]

    page, after = _run(scenario())
    assert "window.location.reload" not in page
    assert service_id in page  # the mascots arrived
    assert "window.location.reload" in after
    assert "cart_json" not in after  # nothing was added, nothing sent


def test_a_flood_of_unknown_event_names_is_logged_in_one_line_each_at_most(server):
    """Issue 18, finding 12: an event name that names no handler was logged by Reflex with a
    traceback and the whole event (payload included), per event. Now each is one line naming
    the event, at most UNKNOWN_EVENT_LINES a minute per worker, and no payload reaches the log."""
    import asyncio

    from storefront.state.guard import UNKNOWN_EVENT_LINES
    from tests.e2e.socket_client import NAMESPACE, event_message

    log_file = server.log
    offset = log_file.stat().st_size
    marker = f"no_such_handler_{uuid.uuid4().hex[:8]}"
    payload_marker = "PAYLOAD-" + uuid.uuid4().hex
    flood = 60  # more than two workers' caps

    async def scenario():
        async with Browser(server.url, None) as tab:
            for i in range(flood):
                name = f"reflex___state____state.{marker}_{i}" + ("\nforged line" if i == 0 else "")
                await tab.client.emit(
                    "event",
                    event_message(name, tab.token, "/", {"x": payload_marker * 20}),
                    namespace=NAMESPACE,
                )
            # The log has the worker's records once it stops growing (the cap reached).
            seen, still = -1, 0
            for _ in range(100):
                size = log_file.stat().st_size
                still = still + 1 if size == seen and marker.encode() in _tail(log_file) else 0
                if still == 5:
                    break
                seen = size
                await asyncio.sleep(0.1)

    def _tail(path):
        with path.open("rb") as log:
            log.seek(offset)
            return log.read()

    _run(scenario())
    with log_file.open("rb") as log:
        log.seek(offset)
        added = log.read().decode("utf-8", "replace")
    # The console handler may wrap a long record onto a second line; count records, not lines.
    records = added.count("refused unknown event")
    # Reflex's record: 'Error processing event queue entry ...', a traceback ending in this KeyError.
    assert "No registered handler found" not in added
    assert "Error processing event queue entry" not in added
    assert payload_marker not in added
    assert "\nforged line" not in added  # the name's line break is escaped, never a new line
    assert records == added.count(marker)  # each logged name once, in its own record
    assert 0 < records <= UNKNOWN_EVENT_LINES * 2 < flood  # the cap of each worker (one or two)
