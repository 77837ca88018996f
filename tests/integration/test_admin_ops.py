"""The rest of the back office on SQLite and PostgreSQL: the dashboard's figures and System
Status, User Management's search and pages, role debug, business settings and the audit log."""

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from storefront import i18n
from storefront.models import Booking, NotificationOutbox, User
from storefront.services import audit, business
from storefront.services.accounts import users
from storefront.services.booking import admin as admin_bookings
from storefront.services.booking.placing import place_booking
from storefront.services.operations import dashboard
from storefront.settings import get_settings
from tests.factories import contact, line, make_service, settings_form

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)  # a Monday, 08:00 in Prishtina


def _user(session, role="user", email=None, name=None) -> str:
    user = User(
        email=email or f"{role}-{uuid.uuid4().hex[:6]}@example.com", role=role, full_name=name
    )
    session.add(user)
    session.commit()
    return str(user.id)


def _book(session, service, day, start, *, created, key):
    lines = [line(service, day, start)]
    session.commit()
    placed = place_booking(
        session=session,
        lines=lines,
        contact=contact(),
        idempotency_key=key,
        now=created,
    )
    return placed


def test_the_dashboard_counts_weeks_and_upcoming_services(session):
    admin = _user(session, "admin")
    _user(session)
    _user(session)
    bouncer = make_service(session, units=5, price="100.00")
    mascot = make_service(session, title="Mascot Elsa", units=5, price="50.00")
    # Two bookings this week, one three weeks ago (cancelled later), one 20 weeks ago.
    _book(session, bouncer, "2026-06-10", "10:00", created=NOW, key="dash-0001")
    _book(session, mascot, "2026-06-11", "10:00", created=NOW, key="dash-0002")
    old = _book(
        session, bouncer, "2026-05-20", "10:00", created=NOW - timedelta(weeks=3), key="dash-0003"
    )
    _book(
        session, mascot, "2026-01-20", "10:00", created=NOW - timedelta(weeks=20), key="dash-0004"
    )
    admin_bookings.set_status(
        session=session, actor_id=admin, booking_id=old.id, status="cancelled"
    )

    stats = dashboard.statistics(session=session, actor_id=admin, now=NOW)

    assert stats.counts == dashboard.Counts(users=3, admins=1, services=2, bookings=4)
    assert len(stats.weeks) == 12
    assert stats.weeks[-1].week == "01.06." and stats.weeks[0].week == "16.03."
    assert (stats.weeks[-1].bookings, stats.weeks[-1].value) == (2, 150.0)
    assert (stats.weeks[-4].bookings, stats.weeks[-4].value) == (1, 0.0)  # cancelled: no value
    assert sum(w.bookings for w in stats.weeks) == 3  # 20 weeks ago is outside
    assert [(s.service, s.bookings) for s in stats.upcoming] == [
        ("Bouncy castle", 1),
        ("Mascot Elsa", 1),
    ]
    with pytest.raises(dashboard.DashboardError):
        dashboard.statistics(session=session, actor_id=_user(session), now=NOW)


def test_system_status_reports_the_real_state(session, monkeypatch):
    from storefront.settings import get_settings

    admin = _user(session, "admin")
    monkeypatch.setattr(get_settings(), "notify_webhook_url", None)
    monkeypatch.setattr(get_settings(), "backup_url", None)
    monkeypatch.setattr(get_settings(), "backup_dir", None)
    session.add(NotificationOutbox(channel="email", topic="mail", recipient="a@b.c", payload={}))
    session.add(
        NotificationOutbox(
            channel="email", topic="mail", recipient="a@b.c", payload={}, status="failed"
        )
    )
    session.add(
        NotificationOutbox(
            channel="whatsapp",
            topic="booking_placed",
            recipient="+38344000000",
            payload={},
            status="sent",
            sent_at=datetime(2026, 5, 31, 20, 30, tzinfo=UTC),
        )
    )
    session.commit()

    checks = dashboard.system_status(session=session, actor_id=admin, now=NOW)
    named = {c.name: c for c in checks}

    # The spec's four first, in its order.
    assert [c.name for c in checks[:4]] == [
        "Database Connection",
        "Storage Service",
        "WhatsApp API",
        "Last Backup",
    ]
    assert named["Database Connection"].ok and named["Storage Service"].ok
    # Without a webhook nothing is delivered: it says only that (issue 20, layout item 2).
    assert not named["WhatsApp API"].ok
    assert named["WhatsApp API"].detail == "Not configured (messages are logged)"
    assert (named["Last Backup"].ok, named["Last Backup"].detail) == (False, "Not configured")
    assert named["Notification Outbox"].detail == "1 waiting, 1 failed"
    assert not named["Notification Outbox"].ok

    # With one, the last staff message it delivered (a delivered mail is not one).
    monkeypatch.setattr(get_settings(), "notify_webhook_url", "https://hooks.example.com/wa")
    session.add(
        NotificationOutbox(
            channel="email",
            topic="mail",
            recipient="a@b.c",
            payload={},
            status="sent",
            sent_at=datetime(2026, 6, 1, 5, 0, tzinfo=UTC),
        )
    )
    session.commit()
    named = {c.name: c for c in dashboard.system_status(session=session, actor_id=admin)}
    assert named["WhatsApp API"].ok
    assert named["WhatsApp API"].detail == "Active; last delivered 31.05.2026 22:30"


def test_user_management_searches_and_pages_on_the_server(session):
    admin = _user(session, "admin", email="boss@example.com")
    for n in range(25):
        _user(session, email=f"guest{n:02d}@example.com", name=f"Guest {n}")
    _user(session, email="arta@example.com", name="Arta Krasniqi")

    first = users.users_page(session=session, actor_id=admin, per_page=10)
    assert (first.total, first.pages, len(first.users), first.admin_count) == (27, 3, 10, 1)
    last = users.users_page(session=session, actor_id=admin, page=99, per_page=10)
    assert (last.page, len(last.users)) == (3, 7)
    found = users.users_page(session=session, actor_id=admin, search="KRASNIQI")
    assert [u.email for u in found.users] == ["arta@example.com"]
    assert users.users_page(session=session, actor_id=admin, search="guest1").total == 10
    assert users.users_page(session=session, actor_id=admin, search="_").total == 0
    with pytest.raises(users.RoleError):
        users.users_page(session=session, actor_id=_user(session))


def test_role_debug_reads_the_database(session):
    plain = _user(session, email="plain@example.com")
    admin = _user(session, "admin")
    info = users.role_info(session=session, actor_id=plain)
    assert (info.email, info.role_in_database, info.admin_check) == (
        "plain@example.com",
        "user",
        False,
    )
    assert users.role_info(session=session, actor_id=admin).admin_check is True
    with pytest.raises(users.RoleError):
        users.admin_function(session=session, actor_id=plain)
    users.admin_function(session=session, actor_id=admin)
    with pytest.raises(users.RoleError):
        users.role_info(session=session, actor_id=None)


def test_make_admin_promotes_and_is_audited_and_refused_to_plain_users(session):
    admin = _user(session, "admin")
    plain = _user(session)
    target = _user(session)
    with pytest.raises(users.RoleError) as refused:
        users.set_admin_role(session=session, actor_id=plain, target_user_id=target)
    assert refused.value.code == "not_allowed"
    users.set_admin_role(session=session, actor_id=admin, target_user_id=target)
    session.commit()
    assert users.get_role(session=session, user_id=target) == "admin"
    page = audit.entries(session=session, actor_id=admin, entity_type="user")
    assert [(e.action, e.entity_id) for e in page.entries] == [("set_admin_role", target)]
    assert page.entries[0].changes == ("Role: user -> admin",)
    assert page.entries[0].entity.startswith("User: ")


_settings = settings_form


def test_settings_are_validated_saved_audited_and_read_by_the_site(session):
    admin = _user(session, "admin")
    # In the back office's default language, English: SPEC's words for each rule.
    with i18n.using("en"), pytest.raises(business.SettingsError) as refused:
        business.update_settings(
            session=session,
            actor_id=admin,
            values=_settings(
                business_name=" ",
                email="nope",
                whatsapp_number="call me",
                min_notice_hours="-3",
                phone=["+1"],
            ),
        )
    assert refused.value.details["fields"] == {
        "business_name": "required",
        "email": "invalid",
        "whatsapp_number": "invalid",
        "min_notice_hours": "invalid",
        "phone": "invalid",
    }
    # Each says its field and its rule (business.check_settings), not 'This value is not valid'.
    assert refused.value.details["messages"]["min_notice_hours"] == (
        "Minimum notice (hours): enter whole hours from 0 to 720"
    )
    assert refused.value.details["messages"]["email"].startswith("Email: enter one email")
    with pytest.raises(business.SettingsError):
        business.update_settings(session=session, actor_id=_user(session), values=_settings())

    business.update_settings(session=session, actor_id=admin, values=_settings())
    session.commit()

    details = business.business_details(session=session)
    assert (details.name, details.phone, details.instagram_handle) == (
        "Magic Events Prishtina",
        "+383 44 111 222",
        "@magic.ks",
    )
    saved = business.editable_settings(session=session)
    assert (saved["whatsapp_number"], saved["min_notice_hours"]) == ("+38344111222", "48")
    assert "currency" not in saved  # the server's CURRENCY, not a business setting
    from storefront.services.booking.availability import min_notice

    assert min_notice(session=session) == timedelta(hours=48)
    (entry,) = audit.entries(session=session, actor_id=admin, entity_type="settings").entries
    # The viewer says it in words (services/audit.describe); the row keeps the JSON.
    assert entry.entity == "Settings"
    assert [line for line in entry.changes if line.startswith("Business name:")] == [
        "Business name: Magic Events Prishtina"
    ]


def test_the_audit_log_filters_by_actor_entity_and_day(session):
    first = _user(session, "admin", email="first.admin@example.com")
    second = _user(session, "admin", email="second.admin@example.com")
    bouncer = make_service(session, units=3)
    placed = _book(session, bouncer, "2026-06-10", "10:00", created=NOW, key="audit-0001")
    admin_bookings.set_status(
        session=session, actor_id=first, booking_id=placed.id, status="confirmed"
    )
    business.update_settings(session=session, actor_id=second, values=_settings())
    session.commit()

    everything = audit.entries(session=session, actor_id=first)
    assert everything.total == 2 and set(everything.entity_types) == {"booking", "settings"}
    by_actor = audit.entries(session=session, actor_id=first, actor="second.admin")
    assert [e.action for e in by_actor.entries] == ["settings_update"]
    assert by_actor.entries[0].actor == "second.admin@example.com"
    by_entity = audit.entries(session=session, actor_id=first, entity_type="booking")
    assert [e.entity_id for e in by_entity.entries] == [placed.id]
    assert by_entity.entries[0].entity == f"Booking: {placed.reference}"
    assert by_entity.entries[0].changes == ("Status: pending -> confirmed",)
    # The viewer's days are the business's days (Europe/Belgrade), not UTC's: between 23:00
    # and midnight UTC, UTC's tomorrow is already today there.
    zone = ZoneInfo(get_settings().timezone)
    tomorrow = (datetime.now(zone) + timedelta(days=1)).date().isoformat()
    assert audit.entries(session=session, actor_id=first, date_from=tomorrow).total == 0
    assert audit.entries(session=session, actor_id=first, date_to=tomorrow).total == 2
    with pytest.raises(audit.AuditError):
        audit.entries(session=session, actor_id=_user(session))
    with pytest.raises(audit.AuditError):
        audit.entries(session=session, actor_id=first, date_from="yesterday")
    assert session.get(Booking, uuid.UUID(placed.id)).total_amount == Decimal("100.00")


def test_the_staff_whatsapp_messages_go_to_the_number_in_settings(session):
    from sqlmodel import select

    admin = _user(session, "admin")
    business.update_settings(
        session=session, actor_id=admin, values=_settings(whatsapp_number="+383 49 123 456")
    )
    bouncer = make_service(session, units=2)
    _book(session, bouncer, "2026-06-10", "10:00", created=NOW, key="staff-0001")

    staff = session.exec(
        select(NotificationOutbox).where(NotificationOutbox.topic == "booking_placed")
    ).one()
    assert staff.recipient == "+38349123456"


def test_settings_hold_the_english_texts_and_the_staffs_language(session):
    """Issue 21: the address and opening hours in English beside the default ones (empty shows
    the default on the English pages), and the language of the staff's WhatsApp messages."""
    from storefront import i18n

    admin = _user(session, "admin")
    business.update_settings(
        session=session,
        actor_id=admin,
        values=_settings(
            address="Rruga UÇK 1, Prishtinë",
            address_en="1 UÇK Street, Prishtina",
            opening_hours_en="",
            staff_language="en",
        ),
    )
    session.commit()
    saved = business.editable_settings(session=session)
    assert (saved["address_en"], saved["opening_hours_en"], saved["staff_language"]) == (
        "1 UÇK Street, Prishtina",
        "",
        "en",
    )
    with i18n.using("en"):
        english = business.business_details(session=session)
    default = business.business_details(session=session)
    assert (english.address, default.address) == (
        "1 UÇK Street, Prishtina",
        "Rruga UÇK 1, Prishtinë",
    )
    assert english.opening_hours == default.opening_hours  # no English written: the default
    with pytest.raises(business.SettingsError) as refused:
        business.update_settings(
            session=session,
            actor_id=admin,
            values=_settings(staff_language="de", address_en="two\nlines"),
        )
    assert set(refused.value.details["fields"]) == {"staff_language", "address_en"}


def test_an_admin_chooses_the_back_offices_language(session):
    from storefront.models import User
    from storefront.services.accounts import users

    admin = _user(session, "admin")
    plain = _user(session)
    users.set_back_office_language(session=session, user_id=admin, language="sq")
    session.commit()
    assert session.get(User, uuid.UUID(admin)).language == "sq"
    users.set_back_office_language(session=session, user_id=admin, language="en")
    session.commit()
    assert session.get(User, uuid.UUID(admin)).language is None  # the default: English
    for who, language in ((plain, "sq"), (admin, "de")):
        with pytest.raises(users.ProfileError):
            users.set_back_office_language(session=session, user_id=who, language=language)
    # Staff (the day sheet's drivers) choose theirs too.
    staff = _user(session, "staff")
    users.set_back_office_language(session=session, user_id=staff, language="sq")
    session.commit()
    assert session.get(User, uuid.UUID(staff)).language == "sq"
