"""Outgoing mail, one way only: `send_mail`. SMTP when SMTP_HOST is set; otherwise the message is
printed to the console (and logged), so a developer running `make run` can follow its links. A
printed mail is not a delivered one (the outbox marks it 'printed', not 'sent'), and prod does not
start without SMTP_HOST (settings.py)."""

from __future__ import annotations

import logging
import smtplib
import ssl
from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import urlsplit

from storefront.services import fields
from storefront.services.errors import ServiceError
from storefront.settings import Settings, get_settings

logger = logging.getLogger(__name__)

Attachment = tuple[
    str, bytes, str
]  # file name, content, MIME type ("text/calendar; charset=utf-8")


class MailError(ServiceError):
    """Codes: invalid_message (a header or attachment cannot be built), send_failed (the SMTP
    server is unreachable, refused the message, or could not secure the connection)."""

    CODES = {
        "invalid_message": "Invalid message",
        "send_failed": "The mail could not be sent",
    }


def send_mail(
    *,
    to: str,
    subject: str,
    text: str,
    html: str | None = None,
    attachments: Sequence[Attachment] = (),
) -> bool:
    """Send one message to one recipient; raises MailError when it cannot be sent. True when an
    SMTP server took it, False when it was only printed (no SMTP_HOST)."""
    settings = get_settings()
    message = build_message(
        to=to, subject=subject, text=text, html=html, attachments=attachments, settings=settings
    )
    if settings.smtp_host:
        _send_smtp(message, settings)
        return True
    _print_to_console(message, text=text, html=html, attachments=attachments, settings=settings)
    return False


def build_message(
    *,
    to: str,
    subject: str,
    text: str,
    html: str | None = None,
    attachments: Sequence[Attachment] = (),
    settings: Settings | None = None,
) -> EmailMessage:
    settings = settings or get_settings()
    try:
        fields.email(to)  # one recipient, whatever row the address came from
    except fields.FieldError:
        raise MailError("invalid_message", f"Not one email address: {to!r}") from None
    message = EmailMessage()
    try:
        # The email package refuses line breaks in headers, which stops header injection.
        message["From"] = settings.mail_from
        message["To"] = to
        message["Subject"] = subject
        message["Date"] = formatdate(localtime=False)
        # An explicit domain: the default asks DNS for this machine's name, which can be slow.
        message["Message-ID"] = make_msgid(domain=urlsplit(settings.public_url).hostname)
        # multipart/alternative: the text first, the HTML last (the one a mail program shows
        # when it can); an attachment wraps both in multipart/mixed.
        message.set_content(text)
        if html is not None:
            message.add_alternative(html, subtype="html")
        for filename, content, mime_type in attachments:
            kind, *parameters = (part.strip() for part in mime_type.split(";"))
            maintype, _, subtype = kind.partition("/")
            message.add_attachment(
                bytes(content),
                maintype=maintype,
                subtype=subtype or "octet-stream",
                filename=filename,
                params=dict(p.split("=", 1) for p in parameters if "=" in p),
            )
    except (ValueError, TypeError) as exc:
        raise MailError("invalid_message", f"The mail could not be built: {exc}") from exc
    return message


def _send_smtp(message: EmailMessage, settings: Settings) -> None:
    host, port = settings.smtp_host, settings.smtp_port
    try:
        with smtplib.SMTP(host, port, timeout=settings.smtp_timeout) as smtp:
            if settings.smtp_starttls:
                # Never fall back to plain text: a server without STARTTLS is an error here.
                smtp.starttls(context=ssl.create_default_context())
            if settings.smtp_user:
                smtp.login(settings.smtp_user, settings.smtp_password or "")
            smtp.send_message(message)
    except (smtplib.SMTPException, OSError) as exc:
        logger.warning("Mail to %s via %s:%s failed: %r", message["To"], host, port, exc)
        raise MailError("send_failed", "The mail could not be sent", reason=repr(exc)) from exc
    logger.info("Mail sent to %s via %s:%s: %s", message["To"], host, port, message["Subject"])


def _print_to_console(
    message: EmailMessage,
    *,
    text: str,
    html: str | None,
    attachments: Sequence[Attachment],
    settings: Settings,
) -> None:
    """The text part, readable in a terminal; the HTML part is only counted."""
    if settings.environment == "prod":
        logger.warning("SMTP_HOST is not set: mail is printed to the console, not delivered")
    logger.info("Mail to %s (console, SMTP_HOST not set): %s", message["To"], message["Subject"])
    rule = "=" * 72
    lines = [
        rule,
        "MAIL (printed because SMTP_HOST is not set)",
        f"From:    {message['From']}",
        f"To:      {message['To']}",
        f"Subject: {message['Subject']}",
    ]
    if html is not None:
        lines.append(f"HTML part: {len(html)} characters (not shown)")
    lines += [
        f"Attached: {name} ({mime_type}, {len(content)} bytes)"
        for name, content, mime_type in attachments
    ]
    lines += ["-" * 72, text.rstrip(), rule]
    print("\n".join(lines), flush=True)
