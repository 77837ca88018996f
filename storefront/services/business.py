"""The business's own details as the site shows them: contact card, footer, social links.
They come from the one `BusinessSettings` row (admins edit it); its defaults stand in until it
exists."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from decimal import Decimal, InvalidOperation
from urllib.parse import quote

from sqlmodel import Session

from storefront import i18n
from storefront.i18n import N_s, _s
from storefront.models import BusinessSettings
from storefront.services import content, permissions
from storefront.services.cache import cached
from storefront.services.errors import ServiceError

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
    # Until how many hours before the event a customer may move or cancel (the terms say it).
    change_cutoff_hours: str

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
        address=content.text(row.translations, "address", row.address),
        opening_hours=content.text(row.translations, "opening_hours", row.opening_hours),
        instagram_handle=f"@{handle}" if handle else "",
        instagram_url=instagram_url(row.instagram),
        facebook_url=facebook_url(row.facebook),
        change_cutoff_hours=str(row.change_cutoff_hours),
    )


def default_details() -> BusinessDetails:
    """What the site shows before the settings are read (and when the row is missing)."""
    return _details(BusinessSettings())


@cached
def business_details(*, session: Session) -> BusinessDetails:
    row = session.get(BusinessSettings, 1)
    return _details(row) if row is not None else default_details()


def staff_whatsapp(session: Session) -> str:
    """Who the staff WhatsApp messages go to: the number in the admin's Settings, or the
    STAFF_PHONE setting until the settings row exists."""
    from storefront.settings import get_settings

    row = session.get(BusinessSettings, 1)
    return (
        row.whatsapp_number
        if row is not None and row.whatsapp_number
        else get_settings().staff_phone
    )


def settings_row(session: Session) -> BusinessSettings:
    """The business settings row (defaults when it has not been written yet)."""
    return session.get(BusinessSettings, 1) or BusinessSettings()


# --- editing (admin Settings) ---------------------------------------------------------------

SETTINGS_FIELDS = {
    # field: (label, required); the limit is the column's (models.BusinessSettings). The
    # labels name a refused field in its message, in the language of the moment.
    "business_name": (N_s("Business name"), True),
    "phone": (N_s("Phone"), True),
    "whatsapp_number": (N_s("WhatsApp number"), True),
    "instagram": (N_s("Instagram"), False),
    "facebook": (N_s("Facebook page"), False),
    "address": (N_s("Address"), True),
    "email": (N_s("Email"), True),
    "opening_hours": (N_s("Opening hours"), True),
}
# Each field's kind of text (services/fields.rule); the others are one line. The WhatsApp
# number is where staff messages go: E.164.
SETTINGS_KINDS = {"email": "email", "phone": "phone", "whatsapp_number": "phone"}
MAX_NOTICE_HOURS = 24 * 30
NOTICE_MESSAGE = N_s("Minimum notice (hours): enter whole hours from 0 to {most}")
# The whole numbers of the settings: (label, least, most), each refused with its own message.
NUMBER_FIELDS = {
    "min_notice_hours": (N_s("Minimum notice (hours)"), 0, MAX_NOTICE_HOURS),
    # Event-day operations (issue 22): the customer's reminder, the staff's digest, and until
    # when customers change or cancel a booking themselves.
    "reminder_lead_hours": (N_s("Reminder before the event (hours)"), 1, 24 * 7),
    "digest_hour": (N_s("Staff digest of tomorrow's jobs at (hour, 0-23)"), 0, 23),
    "change_cutoff_hours": (N_s("Customers may change a booking until (hours before)"), 0, 24 * 30),
    # What a booking owes (issue 36): a deposit of this percent of the total (0: none).
    "deposit_percent": (N_s("Deposit (%)"), 0, 100),
}
# The fiscal number (NUI) the receipts print: digits only (Kosovo's are 9), or empty.
FISCAL_LABEL = N_s("Fiscal number (NUI)")
FISCAL_MESSAGE = N_s("Fiscal number (NUI): digits only, for example 811234567, or leave it empty")
# A deposit is asked of a booking whose total is above this amount.
DEPOSIT_ABOVE_MESSAGE = N_s(
    "Deposit asked above: enter an amount of 0 or more with up to two decimals, such as 200.00"
)
MAX_DEPOSIT_ABOVE = Decimal("1000000")
NUMBER_MESSAGE = N_s("{label}: enter a whole number from {least} to {most}")


class SettingsError(ServiceError):
    """Codes: not_allowed, invalid (details `fields`: {field: code}: required, too_long,
    invalid, not_one_line, unprintable, out_of_range; `messages`: {field: message})."""

    CODES = {
        "invalid": "Please check the form",
        "not_allowed": "Only admins may do this",
    }


class _AdminCheck(ServiceError):
    """permissions.require_admin's refusals, each answered as SettingsError's not_allowed."""

    CODES = permissions.ADMIN_CHECK_CODES


# The English text of fields the pages show (services/content.py), beside the default one; an
# empty one shows the default text on the English pages.
ENGLISH_FIELDS = {
    "address_en": ("address", N_s("Address (English)")),
    "opening_hours_en": ("opening_hours", N_s("Opening hours (English)")),
}
STAFF_LANGUAGE_MESSAGE = N_s("Staff language: choose one of the site's languages")


def editable_settings(*, session: Session) -> dict[str, str]:
    """The row's editable values as the form shows them."""
    row = settings_row(session)
    values = {name: getattr(row, name) for name in SETTINGS_FIELDS}
    for name in NUMBER_FIELDS:
        values[name] = str(getattr(row, name))
    english = content.written(row.translations, "en")
    for name, (field, _label) in ENGLISH_FIELDS.items():
        values[name] = english.get(field, "")
    values["staff_language"] = row.staff_language
    values["fiscal_number"] = row.fiscal_number or ""
    values["deposit_above"] = str(Decimal(row.deposit_above).quantize(Decimal("0.01")))
    return values


def check_settings(
    values: dict[str, object],
) -> tuple[dict[str, object], dict[str, str], dict[str, str]]:
    """Clean values, {field: code} and {field: message} from what a browser sent."""
    from storefront.services import fields

    def rule(name: str):
        label, required = _s(SETTINGS_FIELDS[name][0]), SETTINGS_FIELDS[name][1]
        limit, value = fields.max_length(BusinessSettings, name), values.get(name, "")
        if name == "phone":
            return lambda: _shown_phone(value, label, limit)
        kind = SETTINGS_KINDS.get(name, "line")
        return fields.rule(kind, value, label, limit, required=required)

    checked = fields.check({name: rule(name) for name in SETTINGS_FIELDS})
    clean: dict[str, object] = dict(checked.values)
    errors: dict[str, str] = dict(checked.codes)
    # Each refused field's message names it and its rule (the screen shows it beside it).
    messages = {
        name: fields.rule_message(
            SETTINGS_KINDS.get(name, "line"),
            _s(SETTINGS_FIELDS[name][0]),
            code,
            fields.max_length(BusinessSettings, name),
        )
        for name, code in errors.items()
    }
    for name, (label, least, most) in NUMBER_FIELDS.items():
        number = str(values.get(name, "")).strip()
        if not number.isdigit():
            errors[name] = "invalid"
        elif not least <= int(number) <= most:
            errors[name] = "out_of_range"
        else:
            clean[name] = int(number)
        if name in errors:
            messages[name] = (
                _s(NOTICE_MESSAGE).format(most=most)
                if name == "min_notice_hours"
                else _s(NUMBER_MESSAGE).format(label=_s(label), least=least, most=most)
            )
    for name, (field, label) in ENGLISH_FIELDS.items():
        limit = fields.max_length(BusinessSettings, field)
        english = fields.check({name: fields.rule("line", values.get(name, ""), _s(label), limit)})
        clean.update(english.values)
        for refused, code in english.codes.items():
            errors[refused] = code
            messages[refused] = fields.rule_message("line", _s(label), code, limit)
    staff_language = str(values.get("staff_language", "") or i18n.DEFAULT)
    if staff_language in i18n.LANGUAGES:
        clean["staff_language"] = staff_language
    else:
        errors["staff_language"] = "invalid"
        messages["staff_language"] = _s(STAFF_LANGUAGE_MESSAGE)
    fiscal = _fiscal_number(values.get("fiscal_number", ""))
    if fiscal is None:
        errors["fiscal_number"] = "invalid"
        messages["fiscal_number"] = _s(FISCAL_MESSAGE)
    else:
        clean["fiscal_number"] = fiscal
    above = _amount(values.get("deposit_above", "0"))
    if above is None:
        errors["deposit_above"] = "invalid"
        messages["deposit_above"] = _s(DEPOSIT_ABOVE_MESSAGE)
    else:
        clean["deposit_above"] = above
    return clean, errors, messages


def _fiscal_number(value: object) -> str | None:
    """The NUI as stored (spaces left out), '' for none; None when it is not digits."""
    text = "".join(str(value or "").split())
    limit = fields_limit("fiscal_number")
    if not text:
        return ""
    return text if text.isascii() and text.isdigit() and len(text) <= limit else None


def _amount(value: object) -> Decimal | None:
    """'200', '200.5', '200,50' -> Decimal('200.50'); None unless 0 <= amount, two decimals."""
    text = str(value if value is not None else "").strip().replace(",", ".") or "0"
    try:
        amount = Decimal(text)
    except (InvalidOperation, ValueError):
        return None
    if not amount.is_finite() or not 0 <= amount <= MAX_DEPOSIT_ABOVE:
        return None
    if amount != amount.quantize(Decimal("0.01")):
        return None
    return amount.quantize(Decimal("0.01"))


def fields_limit(name: str) -> int:
    from storefront.services import fields

    return fields.max_length(BusinessSettings, name)


def _shown_phone(value: object, label: str, limit: int) -> str:
    """The business phone as typed ('+383 44 000 000', as the pages show it), once the field
    rules read it as a valid number."""
    from storefront.services import fields

    fields.phone(value, label, max_len=limit)
    return fields.single_line(value, label, limit, required=True)


def set_settings(session: Session, actor_id: object, **values: object) -> None:
    """Write settings an admin (already checked by the caller) changed, audited as a settings
    change in the caller's transaction: the switches of their own cards (two-factor for admins,
    the daily backup)."""
    from storefront.models import utcnow
    from storefront.services import audit

    existing = session.get(BusinessSettings, 1)
    row = existing or BusinessSettings(id=1)
    with audit.changing(
        session,
        row,
        actor_id=actor_id,
        action="settings_update",
        entity_type="settings",
        new=existing is None,
    ):
        for name, value in values.items():
            setattr(row, name, value)
        row.updated_at = utcnow()


def update_settings(*, session: Session, actor_id: object, values: dict[str, object]) -> None:
    """Save the business settings (admins only), with an audit entry, in one transaction."""
    from storefront.models import utcnow
    from storefront.services import audit

    try:
        permissions.require_admin(session, actor_id, _AdminCheck)
    except _AdminCheck:
        raise SettingsError("not_allowed", "Only admins may do this") from None
    clean, errors, messages = check_settings(values if isinstance(values, dict) else {})
    if errors:
        raise SettingsError("invalid", "Please check the form", fields=errors, messages=messages)
    existing = session.get(BusinessSettings, 1)
    row = existing or BusinessSettings(id=1)
    with audit.changing(
        session,
        row,
        actor_id=actor_id,
        action="settings_update",
        entity_type="settings",
        new=existing is None,
    ):
        english = {ENGLISH_FIELDS[name][0]: clean.pop(name, "") for name in ENGLISH_FIELDS}
        row.translations = content.with_texts(row.translations, "en", english)
        for name, value in clean.items():
            setattr(row, name, value)
        row.updated_at = utcnow()
