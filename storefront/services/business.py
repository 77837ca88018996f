"""The business's own details as the site shows them: contact card, footer, social links.
They come from the one `BusinessSettings` row (admins edit it); its defaults stand in until it
exists."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from urllib.parse import quote

from sqlmodel import Session

from storefront.models import BusinessSettings

# The site's name in every page title (titles are compiled with the pages, before any settings
# are read).
SITE_NAME = "Magic Events"
INSTAGRAM = "https://www.instagram.com/"
FACEBOOK = "https://www.facebook.com/"


@dataclass(frozen=True)
class BusinessDetails:
    name: str
    phone: str
    email: str
    address: str
    opening_hours: str
    instagram_handle: str
    instagram_url: str
    facebook_url: str

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def page_title(title: str) -> str:
    """'Mascots' -> 'Mascots | Magic Events'; the home page is the site's name alone."""
    return title if title in ("", SITE_NAME) else f"{title} | {SITE_NAME}"


def _account(value: str) -> str:
    """'@magicevents.ks', 'magicevents.ks' or a pasted profile address -> 'magicevents.ks'."""
    name = value.strip().rstrip("/").rsplit("/", 1)[-1].lstrip("@")
    return quote(name, safe="._-")


def instagram_url(handle: str) -> str:
    """The profile address of an Instagram handle; the Instagram home page when there is none."""
    account = _account(handle)
    return f"{INSTAGRAM}{account}/" if account else INSTAGRAM


def facebook_url(page: str) -> str:
    """The address of a Facebook page by its name; the Facebook home page when there is none."""
    account = _account(page)
    return f"{FACEBOOK}{account}" if account else FACEBOOK


def _details(row: BusinessSettings) -> BusinessDetails:
    handle = _account(row.instagram)
    return BusinessDetails(
        name=row.business_name,
        phone=row.phone,
        email=row.email,
        address=row.address,
        opening_hours=row.opening_hours,
        instagram_handle=f"@{handle}" if handle else "",
        instagram_url=instagram_url(row.instagram),
        facebook_url=facebook_url(row.facebook),
    )


def default_details() -> BusinessDetails:
    """What the site shows before the settings are read (and when the row is missing)."""
    return _details(BusinessSettings())


def business_details(*, session: Session) -> BusinessDetails:
    row = session.get(BusinessSettings, 1)
    return _details(row) if row is not None else default_details()


def settings_row(session: Session) -> BusinessSettings:
    """The business settings row (defaults when it has not been written yet)."""
    return session.get(BusinessSettings, 1) or BusinessSettings()
