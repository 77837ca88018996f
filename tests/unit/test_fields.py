"""The field rules (services/fields.py) and the CSV's formula guard, as pure functions."""

from __future__ import annotations

import pytest

from storefront import i18n
from storefront.models import Booking, ContactMessage, User
from storefront.services import fields
from storefront.services.booking import admin_list as admin_booking_list
from storefront.services.fields import FieldError


@pytest.fixture(autouse=True)
def _english_edition():
    """These tests read SPEC's English copy: the English edition's words (the default edition
    says them in Albanian, tests/unit/test_translations.py)."""
    with i18n.using("en"):
        yield


def _code(rule, *args, **kwargs) -> str:
    with pytest.raises(FieldError) as refused:
        rule(*args, **kwargs)
    return refused.value.code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Ana\n\nIMPORTANT: pay at https://x.example", "not_one_line"),
        ("Ana\rB", "not_one_line"),
        ("Ana\u2028B", "not_one_line"),
        ("Ana\u2029B", "not_one_line"),
        ("Ana\x85B", "not_one_line"),
        ("Ana\x00", "unprintable"),
        ("Ana\tBerisha", "unprintable"),
        ("Ana\x1b[31m", "unprintable"),
        ("Ana\u202eevil", "unprintable"),  # a bidi override
        ("Ana\u200b", "unprintable"),  # a zero-width space
        ("\ufeffAna", "unprintable"),
        ("a" * 256, "too_long"),
        (42, "invalid"),
    ],
)
def test_a_single_line_refuses_what_is_not_one_line_of_printable_text(text, code):
    assert _code(fields.single_line, text, "Full name", 255) == code


def test_a_single_line_is_trimmed_and_keeps_what_names_need():
    assert fields.single_line("  Arta Krasniqi \t", "Full name", 255) == "Arta Krasniqi"
    assert fields.single_line("Zoë Ćosić-Hoxha", "Full name", 255) == "Zoë Ćosić-Hoxha"
    assert fields.single_line("می\u200cخواهم", "Full name", 255) == "می\u200cخواهم"  # ZWNJ
    assert fields.single_line("", "City", 120) == ""
    assert _code(fields.single_line, "  ", "Full name", 255, required=True) == "required"


def test_messages_name_the_field():
    with pytest.raises(FieldError) as refused:
        fields.single_line("a\nb", "Address", 500)
    assert refused.value.message == "Address must be on one line"
    with pytest.raises(FieldError) as refused:
        fields.single_line("a" * 21, "ZIP code", 20)
    assert refused.value.message == "ZIP code can be at most 20 characters long"
    assert refused.value.details["max"] == 20


def test_multi_line_text_keeps_its_lines_and_refuses_other_controls():
    assert fields.multi_line(" a\r\nb\tc ", "Message", 100) == "a\nb\tc"
    assert _code(fields.multi_line, "a\x07b", "Message", 100) == "unprintable"
    assert _code(fields.multi_line, "a\u202eb", "Message", 100) == "unprintable"


@pytest.mark.parametrize(
    "text",
    [
        "root,victim@corp.example",
        "root@corp.example,victim@corp.example",
        "root@corp.example victim@corp.example",
        "Ana <ana@corp.example>",
        '"a,b"@corp.example',
        "ana@corp.example\nBcc: victim@corp.example",
        "no-at-sign",
        "ana@",
        "ana@localhost",
    ],
)
def test_an_email_field_holds_exactly_one_address(text):
    assert _code(fields.email, text) == "invalid"


def test_an_email_is_normalised_and_spec_s_message_kept():
    assert fields.email("  Arta.Krasniqi@Example.COM ") == "arta.krasniqi@example.com"
    assert fields.email("", required=False) == ""
    with pytest.raises(FieldError) as refused:
        fields.email("root,victim@corp.example")
    assert refused.value.message == "Email is invalid"


@pytest.mark.parametrize(
    ("typed", "e164"),
    [
        ("+383 44 123 456", "+38344123456"),
        ("044 123 456", "+38344123456"),
        ("044-123-456", "+38344123456"),
        ("(044) 123 456", "+38344123456"),
        ("383 44 123 456", "+38344123456"),
        ("00383 44 123 456", "+38344123456"),
        ("+49 30 1234567", "+49301234567"),
        ("+1 202 555 0143", "+12025550143"),
    ],
)
def test_a_phone_number_becomes_e164_kosovo_by_default(typed, e164):
    assert fields.phone(typed) == e164


@pytest.mark.parametrize(
    "typed", ["12345", "044 123", "call 044 123 456", "044 123 456 ext 5", "+999 1234567", "x"]
)
def test_what_is_not_a_phone_number_is_refused(typed):
    assert _code(fields.phone, typed) == "invalid"
    with pytest.raises(FieldError) as refused:
        fields.phone(typed)
    assert "+383 44 123 456" in refused.value.message


def test_limits_come_from_the_models():
    assert fields.max_length(Booking, "contact_name") == 255
    assert fields.max_length(Booking, "venue_address") == 500
    assert fields.max_length(ContactMessage, "message") == 5000
    assert fields.max_length(User, "full_name") == 255


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠", "﹦"])
def test_a_csv_cell_that_a_spreadsheet_would_run_is_neutralised(start):
    cell = admin_booking_list.spreadsheet_safe(f'{start}HYPERLINK("https://x.example")')
    assert cell.startswith("'")
    assert admin_booking_list.spreadsheet_safe("Arta") == "Arta"
