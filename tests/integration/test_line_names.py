"""Issue 34, item 2: four kinds of package are all called 'Paketa 1' ... 'Paketa 6' on their own
pages; a booked line says which it is ('Paketa maskotash 1'), in the booking's language, in the
cart, the booking, the staff's message, the calendar file and the mails."""

import json
import uuid
from datetime import UTC, datetime

from icalendar import Calendar
from sqlmodel import select

from storefront import i18n
from storefront.models import Booking, BookingItem, NotificationOutbox, Service
from storefront.seed import load_demo
from storefront.services import business, content
from storefront.services.booking import cart
from storefront.services.messaging import ics as booking_calendar
from storefront.services.messaging import notify, outbox
from tests.factories import line, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-13"  # a Saturday


def _service(session, slug: str) -> Service:
    return session.exec(select(Service).where(Service.slug == slug)).one()


def test_the_rule_names_a_package_with_its_kind():
    with i18n.using("sq"):
        assert content.line_name("Paketa 1", "package", "mascot") == "Paketa maskotash 1"
        assert content.line_name("Paketa 6", "package", "castle").endswith(" 6")
        assert content.line_name("Festa e madhe", "package", "combo") == "Festa e madhe"
        assert content.line_name("Ice Princess", "mascot", None) == "Ice Princess"
    with i18n.using("en"):
        assert content.line_name("Package 6", "package", "bouncer") == "Bubble house package 6"


def test_booked_packages_are_told_apart_in_the_bookings_language(session):
    load_demo(session=session)
    session.commit()
    mascots = _service(session, "paketa-maskota-1")
    bubbles = _service(session, "paketa-bubbles-1")
    names = {}
    for language in ("sq", "en"):
        with i18n.using(language):
            placed = place(
                session,
                [line(mascots, DAY, "10:00"), line(bubbles, DAY, "14:00", hours=3)],
                now=NOW,
            )
            # The cart names them as the booking will (cart.cart_view).
            lines = [
                {
                    "id": f"l{i}",
                    "serviceId": str(s.id),
                    "name": s.title,
                    "image": "/placeholder.svg",
                    "price": 1,
                    "quantity": 1,
                    "duration": hours,
                    "date": DAY,
                    "startTime": start,
                }
                for i, (s, start, hours) in enumerate(
                    ((mascots, "10:00", 1), (bubbles, "14:00", 3))
                )
            ]
            view = cart.cart_view(session=session, cart=cart.parse(json.dumps(lines)))
            cart_names = [v.name for v in view.lines]
        items = session.exec(
            select(BookingItem)
            .where(BookingItem.booking_id == uuid.UUID(placed.id))
            .order_by(BookingItem.start_datetime)
        ).all()
        names[language] = [i.service_name for i in items]
        assert cart_names == names[language]
        booking = session.get(Booking, items[0].booking_id)
        # The staff's message and the calendar file say the same.
        row = session.exec(
            select(NotificationOutbox).where(
                NotificationOutbox.booking_id == booking.id,
                NotificationOutbox.topic == "booking_placed",
            )
        ).one()
        staff = notify.render(outbox._detached(row), session=session)
        for name in names[language]:
            assert name in " ".join(str(p) for p in staff.template_params)
        calendar = Calendar.from_ical(
            booking_calendar.ics_for_booking(
                booking, items, business=business.settings_row(session)
            )
        )
        summaries = [str(e["SUMMARY"]) for e in calendar.walk("VEVENT")]
        assert all(any(n in s for s in summaries) for n in names[language])
    assert names == {
        "sq": ["Paketa maskotash 1", "Paketa me shtëpi flluskash 1"],
        "en": ["Mascot package 1", "Bubble house package 1"],
    }
