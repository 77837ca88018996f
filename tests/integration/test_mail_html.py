"""Every customer mail has an HTML part beside its text part (issue 22, item 6): in the
business's name and colours, in the booking's language, with what the customer typed shown as
text, and nothing fetched from elsewhere. Sent by the outbox to a real SMTP server and read back
as a mail program would: multipart/alternative (text, then HTML), inside multipart/mixed when
the booking's .ics is attached."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from decimal import Decimal
from html.parser import HTMLParser
from urllib.parse import urlsplit

from storefront import i18n
from storefront.models import Booking, BookingItem, BusinessSettings
from storefront.services.accounts import auth
from storefront.services.accounts.password_reset import request_reset
from storefront.services.messaging import outbox
from storefront.settings import get_settings

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
SCRIPT_NAME = "<script>alert('x')</script> Arta & Co"


class Page(HTMLParser):
    """What a test asks of an HTML part: its tags and attributes, its title and its text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.title = ""
        self._in: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in self._in:
            del self._in[len(self._in) - 1 - self._in[::-1].index(tag) :]

    def handle_data(self, data):
        if self._in and self._in[-1] == "title":
            self.title += data
        self.text.append(data)

    def first(self, tag: str) -> dict[str, str | None]:
        return next(attrs for name, attrs in self.tags if name == tag)

    def all_text(self) -> str:
        return " ".join(" ".join(self.text).split())


def _booking(session, *, language: str, name: str = "Arta Krasniqi") -> Booking:
    booking = Booking(
        language=language,
        idempotency_key=f"key-{os.urandom(6).hex()}",
        contact_name=name,
        contact_email="arta.krasniqi@example.com",
        contact_phone="+38344123456",
        venue_address="Rruga UCK 1",
        city="Prishtina",
        event_type="birthday",
        guest_count=30,
        total_amount=Decimal("1198.00"),
        created_at=NOW,
        updated_at=NOW,
    )
    session.add(booking)
    session.flush()
    session.add(
        BookingItem(
            booking_id=booking.id,
            service_name="Ice Princess",
            service_price=Decimal("1198"),
            unit_price=Decimal("599"),
            price_unit="per_hour",
            quantity=1,
            start_datetime=datetime(2027, 6, 12, 16, 0, tzinfo=UTC),
            end_datetime=datetime(2027, 6, 12, 18, 0, tzinfo=UTC),
        )
    )
    return booking


def _send(session, engine, booking: Booking, topic: str, **payload) -> None:
    outbox.enqueue(
        session=session,
        channel="email",
        topic=topic,
        recipient=booking.contact_email,
        payload={"booking_id": str(booking.id), **payload},
        booking_id=booking.id,
        now=NOW,
    )
    session.commit()
    assert outbox.run_once(now=NOW, engine=engine).sent == 1


def _parts(message) -> tuple[str, str, Page]:
    """The text and the HTML part, checking the order a mail program relies on: in
    multipart/alternative, the text first and the HTML (the preferred one) last."""
    [alternative] = [p for p in message.walk() if p.get_content_type() == "multipart/alternative"]
    kinds = [part.get_content_type() for part in alternative.iter_parts()]
    assert kinds == ["text/plain", "text/html"]
    text = message.get_body(("plain",)).get_content().replace("\r\n", "\n")  # SMTP's line ends
    html = message.get_body(("html",)).get_content()
    return text, html, Page(html)


def _assert_self_contained(page: Page, *, lang: str, subject: str, own_links: int) -> None:
    """The lang and title a screen reader needs; nothing the mail program would fetch; links
    only to the site itself (the booking or reset link), a phone number or an address."""
    assert page.first("html")["lang"] == lang
    assert " ".join(page.title.split()) == subject
    names = {name for name, _ in page.tags}
    assert not names & {"img", "script", "link", "iframe", "object", "embed", "form", "style"}
    for _name, attrs in page.tags:
        assert not any(v and "url(" in v for v in attrs.values()), attrs  # no CSS images
        assert "src" not in attrs and "background" not in attrs
    site = urlsplit(get_settings().public_url).netloc
    hrefs = [attrs["href"] for name, attrs in page.tags if name == "a"]
    web = [href for href in hrefs if not href.startswith(("tel:", "mailto:"))]
    assert len(web) == own_links and all(urlsplit(h).netloc == site for h in web), hrefs
    assert any(href.startswith("tel:") for href in hrefs)
    assert any(href.startswith("mailto:") for href in hrefs)


def test_the_english_confirmation_has_an_html_part_and_keeps_its_ics(session, engine, mailbox):
    booking = _booking(session, language="en")
    _send(session, engine, booking, "booking_confirmation")

    [message] = mailbox.messages
    assert message.get_content_type() == "multipart/mixed"
    text, html, page = _parts(message)
    subject = f"Booking {booking.reference} received"
    assert message["Subject"] == subject
    _assert_self_contained(page, lang="en", subject=subject, own_links=1)
    [link] = [
        attrs["href"] for name, attrs in page.tags if name == "a" and "booking" in attrs["href"]
    ]
    assert f"/en/booking-confirmation/{booking.id}?key=" in link
    assert link in text  # the same signed link in both parts
    words = page.all_text()
    for shown in (
        "Magic Events",
        "Hello Arta Krasniqi,",
        "Thank you for your booking at Magic Events.",
        f"Booking reference: {booking.reference}",
        "Ice Princess",
        "12.06.2027, 18:00",
        "Total: €1,198.00",
        "View your booking",
        "Questions?",
    ):
        assert shown in words, (shown, words)
    assert "Thank you for your booking at Magic Events." in text
    [attachment] = message.iter_attachments()
    assert attachment.get_filename() == f"booking-{booking.reference}.ics"
    assert attachment.get_content_type() == "text/calendar"


def test_the_albanian_confirmation_is_albanian_in_both_parts(session, engine, mailbox):
    booking = _booking(session, language="sq")
    _send(session, engine, booking, "booking_confirmation")

    [message] = mailbox.messages
    text, _html, page = _parts(message)
    subject = f"Morëm rezervimin {booking.reference}"
    _assert_self_contained(page, lang="sq", subject=subject, own_links=1)
    words = page.all_text()
    for shown in ("Përshëndetje Arta Krasniqi,", "Faleminderit për rezervimin", "Totali:"):
        assert shown in words and shown in text, shown
    assert "Thank you" not in words
    link = next(attrs["href"] for name, attrs in page.tags if name == "a")
    assert urlsplit(link).path.startswith("/booking-confirmation/")  # the default edition


def test_what_the_customer_typed_shows_as_text(session, engine, mailbox):
    booking = _booking(session, language="en", name=SCRIPT_NAME)
    _send(session, engine, booking, "booking_confirmation")

    [message] = mailbox.messages
    text, html, page = _parts(message)
    assert "<script" not in html
    assert "&lt;script&gt;" in html
    assert f"Hello {SCRIPT_NAME}," in page.all_text()  # read back as the words typed
    assert f"Hello {SCRIPT_NAME}," in text  # the text part is not escaped


def test_the_status_mail_has_both_parts_in_the_bookings_language(session, engine, mailbox):
    booking = _booking(session, language="sq")
    _send(session, engine, booking, "booking_status", status="confirmed")

    [message] = mailbox.messages
    # The confirmed calendar file goes with it (issue 34, item 6).
    assert message.get_content_type() == "multipart/mixed"
    [attachment] = message.iter_attachments()
    assert attachment.get_filename() == f"booking-{booking.reference}.ics"
    text, _html, page = _parts(message)
    # The title, not the Subject header: Python 3.11's folding of a long non-ASCII header can
    # drop a space between two encoded words ('në në rrugë' read back as 'në nërrugë').
    subject = f"Rezervimi {booking.reference}: statusi u ndryshua në konfirmuar"
    _assert_self_contained(page, lang="sq", subject=subject, own_links=1)
    headline = "Statusi i rezervimit u ndryshua në: konfirmuar"
    assert page.first("h1") is not None and headline in page.all_text()
    # It greets the customer by name, as every mail about a booking does (issue 34, item 7).
    assert text.startswith("Përshëndetje Arta Krasniqi,\n\n" + headline + "\n\n")
    assert "Përshëndetje Arta Krasniqi," in page.all_text()
    assert "Ice Princess" in page.all_text() and "Totali:" in page.all_text()


def test_the_mail_wears_the_name_in_the_business_settings(session, engine, mailbox):
    session.add(BusinessSettings(business_name="Festa & <Co>", phone="+383 45 111 222"))
    booking = _booking(session, language="en")
    _send(session, engine, booking, "booking_status", status="confirmed")

    [message] = mailbox.messages
    text, html, page = _parts(message)
    assert "Festa &amp; &lt;Co&gt;" in html
    assert "Festa & <Co>" in page.all_text()
    assert 'href="tel:+38345111222"' in html
    assert "Questions? +383 45 111 222 or" in text


def test_the_reset_mail_has_both_parts_in_the_language_it_was_asked_in(session, engine, mailbox):
    auth.register(
        session=session,
        full_name="<b>Arta</b>",
        email="arta@example.com",
        password="correct horse battery",
        confirm="correct horse battery",
        accepted_terms=True,
        now=NOW,
    )
    session.commit()
    with i18n.using("en"):
        request_reset(session=session, email="arta@example.com", now=NOW)
    session.commit()
    outbox.run_once(now=NOW, engine=engine)

    [message] = mailbox.messages
    text, html, page = _parts(message)
    _assert_self_contained(page, lang="en", subject="Reset your password", own_links=2)
    [link] = [word for word in text.split() if "/reset-password?" in word]
    hrefs = [attrs["href"] for name, attrs in page.tags if name == "a"]
    assert hrefs.count(link) == 2  # the button and the address under it, to copy
    assert "Set a new password" in page.all_text()
    assert "Hello <b>Arta</b>," in page.all_text() and "<b>Arta" not in html
    assert text.startswith("Hello <b>Arta</b>,\n\nSomeone asked to reset the password")
