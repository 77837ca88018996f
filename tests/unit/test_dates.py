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


def test_a_lists_date_filter_keeps_local_days_both_included():
    class Column:  # stands in for a table's column: records the comparisons asked of it
        def __ge__(self, moment):
            return (">=", moment)

        def __lt__(self, moment):
            return ("<", moment)

    first, last = dates.typed_days("30.03.2026", "2026-03-31")
    assert dates.within_days(Column(), first, last) == [
        (">=", datetime(2026, 3, 29, 22, 0, tzinfo=UTC)),  # CEST from 29.03.2026
        ("<", datetime(2026, 3, 31, 22, 0, tzinfo=UTC)),
    ]
    assert dates.within_days(Column(), None, None) == []
    assert dates.typed_days("", "") == (None, None)
    for typed, field in ((("soon", "x"), "date_from"), (("", "31.02.2026"), "date_to")):
        try:
            dates.typed_days(*typed)
        except ValueError as bad:
            assert str(bad) == field
        else:
            raise AssertionError(typed)
