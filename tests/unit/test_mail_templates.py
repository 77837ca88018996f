"""services/messaging/mail_templates.py: every mail has both parts, HTML is escaped and text is not, and a
mail's words cannot silently replace the layout's."""

import pytest

from storefront.models import BusinessSettings
from storefront.services.messaging import mail_templates


def test_every_mail_has_a_text_and_an_html_template_on_the_layout():
    names = {path.stem for path in mail_templates.TEMPLATES.iterdir()}
    mails = {name for name in names if not name.startswith("_") and name != "base"}
    assert {"booking_confirmation", "booking_status", "password_reset"} <= mails
    for name in mails:
        assert (mail_templates.TEMPLATES / f"{name}.txt").is_file(), name
        html = (mail_templates.TEMPLATES / f"{name}.html").read_text()
        assert html.startswith('{% extends "base.html" %}'), name


def _render(source: str, **values) -> str:
    return mail_templates.environment().from_string(source).render(**values)


def test_the_html_part_escapes_every_value_and_the_text_part_none():
    text, html = mail_templates.render(
        "password_reset",
        "en",
        subject="<Hi>",
        business=BusinessSettings(business_name="Festa <&> Co", phone="+383 (44) 1"),
        greeting="<b>Arta</b>",
        asked="a",
        within="w",
        link="https://example.com/reset?type=recovery&token=t",
        button_label="Go",
        once="o",
    )
    assert "<title>&lt;Hi&gt;</title>" in html and '<html lang="en"' in html
    assert "Festa &lt;&amp;&gt; Co" in html and "&lt;b&gt;Arta&lt;/b&gt;" in html
    assert 'href="https://example.com/reset?type=recovery&amp;token=t"' in html
    assert 'href="tel:+383441"' in html
    assert text.startswith(
        "<b>Arta</b>\n\na\nw\n\nhttps://example.com/reset?type=recovery&token=t\n"
    )


def test_text_templates_write_words_as_they_are():
    env = mail_templates.environment()
    template = env.from_string("{{ fill(s, name=name) }} {{ link_to('https://x/?a=1&b=2', t) }}")
    assert template.render(s="Hi {name}", name="<b>", t="Go") == "Hi <b> Go"
    assert _render("{{ link_to(u) }}", u="https://x/?a=1&b=2") == "https://x/?a=1&b=2"


def test_a_mail_may_not_reuse_a_name_of_the_layout():
    with pytest.raises(ValueError, match="layout"):
        mail_templates.render(
            "booking_status",
            "en",
            subject="Hi",
            business=BusinessSettings(),
            lang="fr",  # would silently change <html lang>
        )
