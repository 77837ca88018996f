"""Driving times between municipalities (issue 37): how long a van takes from the depot to a
venue, what every run's leave and return times add to the setup lead (services/operations/
runs.py).

The settings hold the depot's municipality (`BusinessSettings.depot_municipality`, a key of
models/municipalities.py) and a table of minutes the owner fills (`travel_minutes`: {"a|b": 75},
the two keys sorted, so one entry serves both ways). The settings' Travel card writes the depot's
row (the depot to each municipality); a pair not written is DEFAULT_MINUTES, within one
municipality LOCAL_MINUTES."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from storefront import i18n
from storefront.i18n import N_s, _s
from storefront.models import municipalities as places
from storefront.services import business, permissions
from storefront.services.errors import ServiceError

# A drive the owner has not written, and one within a municipality.
DEFAULT_MINUTES = 30
LOCAL_MINUTES = 15
# The longest drive the table takes (a typo of 600 instead of 60 is refused beyond it).
MAX_MINUTES = 480

MINUTES_MESSAGE = N_s("{municipality}: enter whole minutes from 0 to {most}, or leave it empty")
DEPOT_MESSAGE = N_s("Choose the depot's municipality from the list")


class TravelError(ServiceError):
    """Codes: not_allowed (not an admin), invalid (details `fields`: {key: code}, `messages`:
    {key: message}; the depot's own is under 'depot')."""

    CODES = {
        "invalid": "Please check the driving times",
        "not_allowed": "Only admins may do this",
    }


class _AdminCheck(ServiceError):
    CODES = permissions.ADMIN_CHECK_CODES


def pair(a: str, b: str) -> str:
    """The table's key of the drive between two municipalities (either way)."""
    return "|".join(sorted((a, b)))


def _minutes(value: object) -> int | None:
    """Whole minutes from 0 to MAX_MINUTES as typed ('45', 45), or None."""
    text = str(value).strip() if value is not None else ""
    if not text.isdigit() or len(text) > 4:
        return None
    minutes = int(text)
    return minutes if minutes <= MAX_MINUTES else None


@dataclass(frozen=True)
class Travel:
    """The depot and the table, read once for a day's runs."""

    depot: str
    table: dict[str, object]

    def between(self, a: str, b: str) -> int:
        written = _minutes(self.table.get(pair(a, b)))
        if written is not None:
            return written
        return LOCAL_MINUTES if a == b else DEFAULT_MINUTES

    def from_depot(self, city: object) -> int:
        """Minutes from the depot to a booking's municipality (its `city`, any spelling; one not
        known is DEFAULT_MINUTES away)."""
        found = places.find(city) if isinstance(city, str) else None
        return self.between(self.depot, found.key) if found else DEFAULT_MINUTES


def travel_of(session: Session) -> Travel:
    row = business.settings_row(session)
    depot = row.depot_municipality if places.by_key(row.depot_municipality) else places.HOME
    return Travel(depot, dict(row.travel_minutes or {}))


def editable_travel(*, session: Session) -> dict[str, str]:
    """The Travel card's values: 'depot' (its key) and each municipality's minutes from the
    depot as written ('' when not written: DEFAULT_MINUTES, or LOCAL_MINUTES for the depot's)."""
    travel = travel_of(session)
    values = {"depot": travel.depot}
    for m in places.MUNICIPALITIES:
        written = _minutes(travel.table.get(pair(travel.depot, m.key)))
        values[m.key] = "" if written is None else str(written)
    return values


def check_travel(
    values: dict[str, object],
) -> tuple[str, dict[str, int], dict[str, str], dict[str, str]]:
    """The card's values as stored: the depot's key and {municipality key: minutes from the
    depot} of those written, with {key: code} and {key: message} of those refused."""
    codes: dict[str, str] = {}
    messages: dict[str, str] = {}
    depot = str(values.get("depot") or "").strip()
    if places.by_key(depot) is None:
        codes["depot"] = "invalid"
        messages["depot"] = _s(DEPOT_MESSAGE)
    written: dict[str, int] = {}
    language = i18n.language()
    for m in places.MUNICIPALITIES:
        value = values.get(m.key)
        if value is None or str(value).strip() == "":
            continue
        minutes = _minutes(value)
        if minutes is None:
            codes[m.key] = "invalid"
            messages[m.key] = _s(MINUTES_MESSAGE).format(
                municipality=m.name(language), most=MAX_MINUTES
            )
            continue
        written[m.key] = minutes
    return depot, written, codes, messages


def update_travel(*, session: Session, actor_id: object, values: dict[str, object]) -> None:
    """Save the depot and its driving times (admins only): each value checked (TravelError
    `invalid` names each refused one), audited as a settings change; drives between other
    municipalities already written are kept. The caller commits."""
    try:
        permissions.require_admin(session, actor_id, _AdminCheck)
    except _AdminCheck:
        raise TravelError("not_allowed") from None
    depot, written, codes, messages = check_travel(values if isinstance(values, dict) else {})
    if codes:
        raise TravelError("invalid", fields=codes, messages=messages)
    table = {
        key: value
        for key, value in dict(business.settings_row(session).travel_minutes or {}).items()
        if depot not in key.split("|")
    }
    table.update({pair(depot, key): minutes for key, minutes in written.items()})
    business.set_settings(session, actor_id, depot_municipality=depot, travel_minutes=table)
