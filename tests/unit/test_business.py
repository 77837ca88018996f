"""The business's social links are its own accounts, derived from the settings in one place."""

from storefront.models import BusinessSettings
from storefront.services import business


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
