"""docs/extending.md, 'Add a notification', applied as it is written: the recipe's renderer,
its two registry entries and its two templates are taken from the doc (under a throwaway
topic), the mail is queued for a booking in each language and read back from a real SMTP
server. A step left out of the doc (a registry entry, a template) fails here."""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from storefront.services.messaging import mail_templates, notify, outbox
from tests.integration.test_mail_html import NOW, _booking, _parts

DOC = Path(__file__).resolve().parents[2] / "docs" / "extending.md"
TOPIC = "recipe_thanks"


def recipe_blocks() -> tuple[str, str, str]:
    """The recipe's python block and its two templates (text, HTML), renamed."""
    text = DOC.read_text()
    section = text[text.index("## Add a notification") :]
    section = section[: section.index("\n## ", 1)]
    python = re.findall(r"```python\n(.*?)```", section, re.S)
    templates = re.findall(r"```jinja\n(.*?)```", section, re.S)
    assert len(python) == 1 and len(templates) == 2, "the recipe's blocks"
    rename = lambda block: textwrap.dedent(block).replace("booking_thanks", TOPIC)  # noqa: E731
    return rename(python[0]), rename(templates[0]), rename(templates[1])


@pytest.fixture
def recipe_topic(monkeypatch, tmp_path):
    code, text_part, html_part = recipe_blocks()
    # Step 1: the renderer, in notify.py's own scope; the registries' new entries.
    scope = dict(vars(notify))
    renderer_code = code[: code.index("\nTOPIC_CHANNELS")]
    exec(renderer_code, scope)  # noqa: S102 (the doc's own code)
    for registry in ("TOPIC_CHANNELS", "RENDERERS"):
        block = code[code.index(f"{registry} = {{") :]
        block = block[: block.index("\n}") + 2]
        for key, value in re.findall(r'^\s*"(\w+)": (.+),$', block, re.M):
            monkeypatch.setitem(getattr(notify, registry), key, eval(value, scope))  # noqa: S307
    # Step 2: the templates, beside the real ones.
    folder = tmp_path / "mail"
    shutil.copytree(mail_templates.TEMPLATES, folder)
    (folder / f"{TOPIC}.txt").write_text(text_part)
    (folder / f"{TOPIC}.html").write_text(html_part)
    monkeypatch.setattr(mail_templates, "TEMPLATES", folder)
    mail_templates.environment.cache_clear()
    yield
    mail_templates.environment.cache_clear()


def _queue_and_send(session, engine, booking) -> None:
    # Step 3, as the doc writes it.
    outbox.enqueue(
        session=session,
        channel="email",
        topic=TOPIC,
        recipient=booking.contact_email,
        payload={"booking_id": str(booking.id)},
        booking_id=booking.id,
        now=NOW,
    )
    session.commit()
    assert outbox.run_once(now=NOW, engine=engine).sent == 1


@pytest.mark.parametrize("language", ["en", "sq"])
def test_the_recipes_mail_arrives_with_both_parts(recipe_topic, session, engine, mailbox, language):
    booking = _booking(session, language=language, name="<b>Arta</b> & Co")
    _queue_and_send(session, engine, booking)
    [message] = mailbox.messages
    text, html, page = _parts(message)
    assert booking.reference in message["Subject"]
    # The text part: the greeting, the reference, the booked line and the total, the signature.
    assert "Dear <b>Arta</b> & Co," in text
    digits = re.sub(r"\D", "", text)
    assert booking.reference in text and "119800" in digits
    # The HTML part: on the layout, in the booking's language, what the customer typed as text.
    assert page.first("html").get("lang") == language
    assert "<b>Arta</b>" not in html and "&lt;b&gt;Arta&lt;/b&gt;" in html
    assert "Arta" in page.all_text() and booking.reference in page.all_text()
    total_word = "Total" if language == "en" else "Totali"
    assert total_word in text and total_word in page.all_text()


def test_a_topic_without_its_registry_entry_is_refused(recipe_topic, session, monkeypatch):
    """Step 1's channel left out: the outbox refuses the topic where it is queued."""
    monkeypatch.delitem(notify.TOPIC_CHANNELS, TOPIC)
    booking = _booking(session, language="en")
    with pytest.raises(Exception) as refused:
        outbox.enqueue(
            session=session,
            channel="email",
            topic=TOPIC,
            recipient=booking.contact_email,
            payload={"booking_id": str(booking.id)},
            booking_id=booking.id,
            now=NOW,
        )
    assert getattr(refused.value, "code", "") == "unknown_topic"
