"""Every date and time a person sees is local (Europe/Belgrade), DD.MM.YYYY, 24 h."""

from datetime import UTC, date, datetime

from storefront.services import dates


def test_utc_moments_are_shown_in_belgrade_time():
    winter = datetime(2026, 12, 31, 23, 30, tzinfo=UTC)  # CET, UTC+1: already next year
    summer = datetime(2026, 7, 1, 22, 15, tzinfo=UTC)  # CEST, UTC+2
    assert (dates.local_date(winter), dates.local_time(winter)) == ("01.01.2027", "00:30")
    assert (dates.local_date(summer), dates.local_time(summer)) == ("02.07.2026", "00:15")


def test_days_are_shown_day_first():
    assert dates.display_day("2027-06-12") == "12.06.2027"
    assert dates.display_day(date(2027, 6, 12)) == "12.06.2027"
    assert dates.display_day("soon") == "soon"


def test_today_is_the_business_day_not_the_servers():
    """At 23:30 UTC on 31 December it is already 1 January in Belgrade (UTC+1)."""
    from datetime import UTC, date, datetime

    from storefront.services import dates

    assert dates.today(datetime(2026, 12, 31, 23, 30, tzinfo=UTC)) == date(2027, 1, 1)
    assert dates.today(datetime(2026, 12, 31, 22, 30, tzinfo=UTC)) == date(2026, 12, 31)
