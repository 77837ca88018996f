"""How a person sees a moment: the business's time zone (Europe/Belgrade by default), dates as
DD.MM.YYYY and times on the 24-hour clock in every language, and the names of months and
weekdays in the language of the moment (Babel's locale data: 'Korrik', 'July'; 'Hën', 'Mo').
Stored times are UTC; they are turned local here."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import get_day_names, get_month_names

from storefront import i18n
from storefront.i18n import N_, N_o
from storefront.settings import get_settings

DATE_FORMAT = "%d.%m.%Y"
TIME_FORMAT = "%H:%M"
# A weekday as availability rows store it (day_of_week 0 is Sunday); marked for translation,
# whoever shows one passes it through `_()`.
DAY_NAMES = (
    N_("Sunday"),
    N_("Monday"),
    N_("Tuesday"),
    N_("Wednesday"),
    N_("Thursday"),
    N_("Friday"),
    N_("Saturday"),
)


# The same weekdays as the back office names them (its catalog, `_o()`).
OFFICE_DAY_NAMES = (
    N_o("Sunday"),
    N_o("Monday"),
    N_o("Tuesday"),
    N_o("Wednesday"),
    N_o("Thursday"),
    N_o("Friday"),
    N_o("Saturday"),
)


def month_name(month: int) -> str:
    """1 -> 'Janar' / 'January': a calendar's month, as its heading names it."""
    names = get_month_names("wide", context="stand-alone", locale=i18n.locale())
    return names[month][:1].upper() + names[month][1:]


def month_in_sentence(month: int) -> str:
    """1 -> 'janar' / 'January': a month inside a sentence ('Në nëntor ...': Albanian writes
    months in lowercase there, English capitalises them)."""
    return get_month_names("wide", context="format", locale=i18n.locale())[month]


def weekday_initials() -> list[str]:
    """Monday first: a calendar's column heads ('Hën', 'Mar', ... / 'Mo', 'Tu', ...)."""
    names = get_day_names("short", context="stand-alone", locale=i18n.locale())
    return [names[day][:1].upper() + names[day][1:] for day in range(7)]


def business_zone() -> ZoneInfo:
    return ZoneInfo(get_settings().timezone)


def today(now: datetime | None = None) -> date:
    """Today as the business sees it (its time zone), not the server's: the one way to ask."""
    return (now or datetime.now(business_zone())).astimezone(business_zone()).date()


def local_date(moment: datetime, zone: ZoneInfo | None = None) -> str:
    return moment.astimezone(zone or business_zone()).strftime(DATE_FORMAT)


def local_time(moment: datetime, zone: ZoneInfo | None = None) -> str:
    return moment.astimezone(zone or business_zone()).strftime(TIME_FORMAT)


def typed_day(value: object) -> date | None:
    """A day as a person types it, DD.MM.YYYY (the site's one format; 1.6.2027 too), or as the
    date fields of older links sent it, YYYY-MM-DD; None for anything else."""
    text = str(value or "").strip()[:10]
    try:
        if "." in text:
            day, month, year = text.split(".")
            if len(year) != 4:
                return None
            return date(int(year), int(month), int(day))
        if len(text) == 10 and text[4] == "-" and text[7] == "-":
            return date.fromisoformat(text)
    except ValueError:
        return None
    return None


def display_day(value: date | str) -> str:
    """A calendar day ('2027-06-12' or a date) as '12.06.2027'; other text as it is."""
    try:
        day = value if isinstance(value, date) else date.fromisoformat(value)
    except ValueError:
        return str(value)
    return day.strftime(DATE_FORMAT)


def typed_days(date_from: object, date_to: object) -> tuple[date | None, date | None]:
    """The first and last day of a list's date filter as typed (`typed_day`; blank: no bound),
    or ValueError naming the field, 'date_from' or 'date_to', of the first that is no day."""
    days: list[date | None] = []
    for name, value in (("date_from", date_from), ("date_to", date_to)):
        day = typed_day(value) if value else None
        if value and day is None:
            raise ValueError(name)
        days.append(day)
    return days[0], days[1]


def day_start_utc(day: date) -> datetime:
    """The first moment of local day `day` (the business's zone), in UTC."""
    return datetime.combine(day, time(0), tzinfo=business_zone()).astimezone(UTC)


def within_days(column: Any, first: date | None, last: date | None) -> list[Any]:
    """The conditions that keep `column` (a UTC moment) within local days `first` to `last`,
    both included; either may be None (no bound). The one date-range filter of the back
    office's lists (bookings, the audit log)."""
    conditions: list[Any] = []
    if first is not None:
        conditions.append(column >= day_start_utc(first))
    if last is not None:
        conditions.append(column < day_start_utc(last + timedelta(days=1)))
    return conditions
