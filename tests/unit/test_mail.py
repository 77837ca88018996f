"""send_mail: printed to the console without SMTP_HOST; over SMTP to a real local server;
a MailError with a stable code whenever the message cannot be sent."""

import logging

import pytest

from storefront.services.messaging.mail import MailError, send_mail
from storefront.settings import get_settings
from tests.mail_server import free_port

LINK = "http://localhost:3000/reset-password?type=recovery&token=abc"


@pytest.fixture
def console_mail(monkeypatch):
    monkeypatch.setattr(get_settings(), "smtp_host", None)


def test_without_smtp_host_the_mail_is_printed_and_logged(console_mail, capsys, caplog):
    caplog.set_level(logging.INFO, logger="storefront.services.messaging.mail")
    send_mail(
        to="arta@example.com",
        subject="Reset your password",
        text=f"Open this link:\n\n{LINK}\n",
        html=f'<a href="{LINK}">Reset</a>',
        attachments=[("booking.ics", b"BEGIN:VCALENDAR", "text/calendar")],
    )
    printed = capsys.readouterr().out
    assert "To:      arta@example.com" in printed
    assert "Subject: Reset your password" in printed
    assert f"\n{LINK}\n" in printed  # on a line of its own, so a terminal makes it clickable
    assert "booking.ics (text/calendar, 15 bytes)" in printed
    assert "HTML part: " in printed and "<a href" not in printed  # the text is what is read
    assert any(
        "arta@example.com" in r.getMessage() and r.levelno == logging.INFO for r in caplog.records
    )


def test_over_smtp_text_html_and_attachments_arrive(mailbox):
    send_mail(
        to="arta@example.com",
        subject="Your booking",
        text="See you soon",
        html="<p>See you soon</p>",
        attachments=[("booking.ics", b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", "text/calendar")],
    )
    [message] = mailbox.messages
    assert mailbox.recipients == [["arta@example.com"]]
    assert message["To"] == "arta@example.com" and message["Subject"] == "Your booking"
    assert message["From"] == get_settings().mail_from and message["Message-ID"]
    assert message.get_body(("plain",)).get_content().strip() == "See you soon"
    assert message.get_body(("html",)).get_content().strip() == "<p>See you soon</p>"
    [attachment] = message.iter_attachments()
    assert attachment.get_filename() == "booking.ics"
    assert attachment.get_content_type() == "text/calendar"
    assert b"BEGIN:VCALENDAR" in attachment.get_payload(decode=True)


def test_a_refused_recipient_is_a_mail_error(mailbox):
    mailbox.refuse("nobody@example.com")
    with pytest.raises(MailError) as error:
        send_mail(to="nobody@example.com", subject="Hi", text="Hi")
    assert error.value.code == "send_failed"
    assert mailbox.messages == []


def test_an_unreachable_server_is_a_mail_error(monkeypatch):
    settings = get_settings()
    monkeypatch.setattr(settings, "smtp_host", "127.0.0.1")
    monkeypatch.setattr(settings, "smtp_port", free_port())  # nothing listens there
    monkeypatch.setattr(settings, "smtp_starttls", False)
    with pytest.raises(MailError) as error:
        send_mail(to="arta@example.com", subject="Hi", text="Hi")
    assert error.value.code == "send_failed"


def test_starttls_required_but_not_offered_sends_nothing_in_clear(mailbox, monkeypatch):
    monkeypatch.setattr(get_settings(), "smtp_starttls", True)
    with pytest.raises(MailError) as error:
        send_mail(to="arta@example.com", subject="Hi", text="Hi")
    assert error.value.code == "send_failed"
    assert mailbox.messages == []


def test_a_line_break_in_a_header_is_refused_before_sending(mailbox):
    with pytest.raises(MailError) as error:
        send_mail(to="arta@example.com", subject="Hi\r\nBcc: all@example.com", text="Hi")
    assert error.value.code == "invalid_message"
    assert mailbox.messages == []
