"""The business's social links are its own accounts, derived from the settings in one place."""

import pytest

from storefront import i18n
from storefront.models import BusinessSettings
from storefront.services import business
from tests.factories import settings_form


@pytest.fixture(autouse=True)
def _english_edition():
    """These tests read SPEC's English copy: the English edition's words (the default edition
    says them in Albanian, tests/unit/test_translations.py)."""
    with i18n.using("en"):
        yield


def test_social_links_lead_to_the_business_accounts():
    details = business.default_details()
    assert details.instagram_handle == "@magicevents.ks"
    assert details.instagram_url == "https://www.instagram.com/magicevents.ks/"
    assert details.facebook_url == "https://www.facebook.com/magicevents.ks"


def test_handles_are_read_however_they_were_typed():
    for typed in ("@magic.events", "magic.events", "https://www.instagram.com/magic.events/"):
        assert business.instagram_url(typed) == "https://www.instagram.com/magic.events/"
    assert business.facebook_url("https://facebook.com/MagicEventsKS") == (
        "https://www.facebook.com/MagicEventsKS"
    )
    # Nothing set: the network's home page rather than a broken address.
    assert business.instagram_url(" ") == "https://www.instagram.com/"
    assert business.facebook_url("") == "https://www.facebook.com/"
    assert business.instagram_url("a b/<x>") == "https://www.instagram.com/%3Cx%3E/"


def test_details_follow_the_settings_row():
    row = BusinessSettings(instagram="@other.shop", facebook="othershop", phone="+383 49 111 222")
    details = business._details(row)
    assert details.instagram_handle == "@other.shop"
    assert details.instagram_url == "https://www.instagram.com/other.shop/"
    assert details.facebook_url == "https://www.facebook.com/othershop"
    assert details.phone == "+383 49 111 222"


_settings = settings_form


def test_a_refused_setting_names_its_field_and_its_rule():
    _clean, codes, messages = business.check_settings(
        _settings(
            business_name=" ",
            phone="call the office",
            whatsapp_number="+383 44",
            email="a@x.com, b@x.com",
            opening_hours="Mon\nTue",
            min_notice_hours="soon",
        )
    )
    assert set(messages) == set(codes)
    assert messages == {
        "business_name": "Business name: required; write it on one line, up to 120 characters",
        "phone": "Phone: use digits, spaces and a leading +, like +383 44 123 456, "
        "up to 64 characters",
        "whatsapp_number": "WhatsApp number: use digits, spaces and a leading +, like "
        "+383 44 123 456, up to 32 characters",
        "email": "Email: enter one email address like name@example.com, up to 255 characters",
        "opening_hours": "Opening hours: write it on one line, up to 120 characters",
        "min_notice_hours": "Minimum notice (hours): enter whole hours from 0 to 720",
    }
    # The limits are the model's columns (services/fields.max_length).
    assert BusinessSettings.__table__.c["whatsapp_number"].type.length == 32
    _clean, codes, messages = business.check_settings(_settings(min_notice_hours="9999"))
    assert codes == {"min_notice_hours": "out_of_range"}
    assert messages["min_notice_hours"].startswith("Minimum notice (hours): ")
    assert business.check_settings(_settings())[1:] == ({}, {})


@pytest.mark.parametrize(
    ("name", "value", "ok"),
    [
        ("reminder_lead_hours", "24", True),
        ("reminder_lead_hours", "0", False),
        ("reminder_lead_hours", "169", False),
        ("digest_hour", "0", True),
        ("digest_hour", "23", True),
        ("digest_hour", "24", False),
        ("digest_hour", "7pm", False),
        ("change_cutoff_hours", "0", True),
        ("change_cutoff_hours", "-1", False),
    ],
)
def test_the_event_day_settings_are_whole_numbers_in_their_range(name, value, ok):
    clean, errors, messages = business.check_settings(settings_form(**{name: value}))
    if ok:
        assert clean[name] == int(value) and name not in errors
    else:
        assert name in errors and "whole number" in messages[name]
