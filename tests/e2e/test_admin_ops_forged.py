"""Every handler of the back office's new states, forged over the real websocket by a guest and
by a plain user, changes nothing and shows nothing; the same events from an admin do work.
Needs the production server only, not Chromium."""

import inspect
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import AuditLog, Booking, BookingItem, BusinessSettings, User
from storefront.services.accounts import auth
from storefront.services.booking import placing
from storefront.state.admin_audit import AdminAuditState
from storefront.state.admin_booking_edit import AdminBookingEditState
from storefront.state.admin_bookings import AdminBookingsState
from storefront.state.admin_calendar import AdminCalendarState
from storefront.state.admin_dashboard import AdminDashboardState
from storefront.state.admin_roles import RoleDebugState
from storefront.state.admin_settings import AdminSettingsState, AdminTravelState
from storefront.state.admin_users import AdminUsersState
from storefront.state.admin_vans import AdminVanPlanState, AdminVansState
from storefront.state.admin_weather import AdminWeatherState
from tests.e2e.socket_client import Tab, event_name
from tests.e2e.socket_client import run as _run
from tests.factories import contact, line, make_service

pytestmark = pytest.mark.e2e

STATES = [
    AdminBookingsState,
    AdminBookingEditState,
    AdminCalendarState,
    AdminDashboardState,
    AdminSettingsState,
    RoleDebugState,
    AdminAuditState,
    AdminUsersState,
    # Crews and vans (issue 37): the vans, the day's plan, the driving times, a rainy day.
    AdminVansState,
    AdminVanPlanState,
    AdminTravelState,
    AdminWeatherState,
]


def _engine(server):
    return make_engine(server.database_url)


def _account(server, role: str) -> tuple[str, str]:
    engine = _engine(server)
    with Session(engine) as session:
        user = User(email=f"{role}-{uuid.uuid4().hex[:8]}@example.com", role=role)
        session.add(user)
        session.flush()
        token = auth.create_session(session=session, user_id=user.id, remember=False)
        session.commit()
        result = (str(user.id), token)
    engine.dispose()
    return result


def _booking(server) -> tuple[str, str]:
    """A pending booking of a fresh service, a week from now: (id, reference)."""
    engine = _engine(server)
    with Session(engine, expire_on_commit=False) as session:
        service = make_service(session, title=f"Forged {uuid.uuid4().hex[:6]}", units=3)
        day = (datetime.now(UTC) + timedelta(days=7)).date().isoformat()
        lines = [line(service, day, "12:00")]
        session.commit()
        placed = placing.place_booking(
            session=session,
            lines=lines,
            contact=contact(email="forged.victim@example.com"),
            idempotency_key=f"forged-{uuid.uuid4().hex}",
        )
    engine.dispose()
    return placed.id, placed.reference


def _snapshot(server, booking_id: str) -> tuple:
    engine = _engine(server)
    with Session(engine) as session:
        stored = session.get(Booking, uuid.UUID(booking_id))
        items = session.exec(
            select(BookingItem.status, BookingItem.start_datetime, BookingItem.service_price).where(
                BookingItem.booking_id == uuid.UUID(booking_id)
            )
        ).all()
        settings = session.get(BusinessSettings, 1)
        audits = session.exec(select(func.count()).select_from(AuditLog)).one()
        roles = session.exec(select(User.id, User.role).order_by(User.id)).all()
        result = (
            None
            if stored is None
            else (
                stored.status,
                stored.contact_email,
                stored.venue_address,
                str(stored.total_amount),
            ),
            sorted((s, str(t), str(p)) for s, t, p in items),
            None if settings is None else settings.business_name,
            audits,
            sorted((str(i), r) for i, r in roles),
        )
    engine.dispose()
    return result


def _argument(name: str, booking_id: str, user_id: str):
    return {
        "booking_id": booking_id,
        "user_id": user_id,
        "status": "confirmed",
        "name": "contact_email",
        "value": "hacked@example.com",
        "index": 0,
        "_form": {},
        "_open": False,
    }.get(name, "hacked")


def _forged_events(booking_id: str, user_id: str) -> list[tuple[str, str, dict]]:
    """(event name, page path, payload) for every public handler of the new states; the
    detail and edit loads come first so a later handler would have something to act on."""
    edit_path = f"/admin/bookings/edit/{booking_id}"
    events = []
    for state in STATES:
        path = edit_path if state is AdminBookingEditState else "/admin"
        for handler_name, handler in state.event_handlers.items():
            if handler_name.startswith("set_") and handler_name not in (
                "set_field",
                "set_line",
                "set_value",
            ):
                continue  # Reflex's own setters: none is generated here (auto setters off)
            params = [
                p for p in inspect.signature(handler.fn).parameters.values() if p.name != "self"
            ]
            payload = {p.name: _argument(p.name, booking_id, user_id) for p in params}
            events.append((f"{state.get_full_name()}.{handler_name}", path, payload))
    # The dangerous ones once more, after the loads that would set their targets.
    events += [
        (event_name(AdminBookingsState.open_detail), "/admin/bookings", {"booking_id": booking_id}),
        (event_name(AdminBookingsState.change_status), "/admin/bookings", {"status": "cancelled"}),
        (event_name(AdminBookingsState.override_status), "/admin/bookings", {}),
        (event_name(AdminBookingsState.ask_cancel_from), "/admin/bookings", {"by": "email"}),
        (event_name(AdminBookingsState.confirm_cancel_from), "/admin/bookings", {}),
        (event_name(AdminBookingEditState.load), edit_path, {}),
        (event_name(AdminBookingEditState.save), edit_path, {"_form": {}}),
        (event_name(AdminBookingEditState.delete), edit_path, {}),
        (event_name(AdminSettingsState.save), "/admin/settings", {"_form": {}}),
    ]
    return events


def test_forged_admin_events_change_nothing_for_guests_and_plain_users(server):
    booking_id, reference = _booking(server)
    plain_id, plain_token = _account(server, "user")
    _admin_id, admin_token = _account(server, "admin")
    before = _snapshot(server, booking_id)
    events = _forged_events(booking_id, plain_id)
    assert len(events) > 60  # every handler of the twelve states is in the list
    seen: list[str] = []

    async def scenario():
        for cookie in (None, plain_token):
            async with Tab(server.url, cookie) as tab:
                for name, path, payload in events:
                    await tab.send_event(name, path, payload)
                # The booking's id is in the paths the tab sent (echoed in the root state).
                seen.append(tab.states_text())

    _run(scenario())
    assert _snapshot(server, booking_id) == before
    # The booking's id is in the edit page's path, which the page's own state echoes (the
    # sign-in link's redirectTo): nowhere else.
    everything = "\n".join(seen).replace(f"/admin/bookings/edit/{booking_id}", "/edit-path")
    assert reference not in everything and "forged.victim" not in everything
    assert booking_id[:8] not in everything

    # The same events from an admin do reach the handlers: the refusals above are the guard's.
    async def as_admin():
        async with Tab(server.url, admin_token) as admin:
            await admin.send(
                AdminBookingsState.open_detail, "/admin/bookings", booking_id=booking_id
            )
            await admin.send(
                AdminBookingsState.change_status, "/admin/bookings", status="confirmed"
            )
            return await admin.wait_for("Booking status updated to confirmed")

    text = _run(as_admin())
    assert reference in text and "Booking status updated to confirmed" in text
    assert _snapshot(server, booking_id)[0][0] == "confirmed"
