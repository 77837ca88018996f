"""A real SMTP server for tests (aiosmtpd on 127.0.0.1): it keeps every message it receives.

The `smtp_server` and `mailbox` fixtures in tests/conftest.py use it per test; a test module that
runs the app in another process can start one itself for longer and hand the app its address
through SMTP_HOST/SMTP_PORT/SMTP_STARTTLS=false."""

from __future__ import annotations

import email
import email.policy
import socket
import threading
from email.message import EmailMessage

from aiosmtpd.controller import Controller

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class MailServer:
    """`messages` holds what arrived, parsed; `recipients` the envelope recipients of each."""

    def __init__(self) -> None:
        self.host = HOST
        self.port = free_port()
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self.refused: set[str] = set()
        self._arrived = threading.Condition()
        self._controller = Controller(
            self, hostname=self.host, port=self.port, server_hostname="localhost"
        )

    def start(self) -> MailServer:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def __enter__(self) -> MailServer:
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()

    def refuse(self, address: str) -> None:
        """Answer 550 to RCPT TO this address, as a server does for an unknown mailbox."""
        self.refused.add(address.lower())

    def wait_for(self, count: int = 1, timeout: float = 10.0) -> list[EmailMessage]:
        """The messages once at least `count` have arrived (for mail sent by another process)."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: len(self.messages) >= count, timeout):
                raise AssertionError(f"{len(self.messages)} mail(s) arrived, expected {count}")
            return list(self.messages)

    # aiosmtpd handler hooks

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.refused:
            return "550 5.1.1 Mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        with self._arrived:
            self.messages.append(message)
            self.recipients.append(list(envelope.rcpt_tos))
            self._arrived.notify_all()
        return "250 Message accepted for delivery"
