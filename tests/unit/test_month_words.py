"""A month heads a calendar with a capital ('Nëntor 2026') and is lowercase inside an Albanian
sentence ('Në nëntor 2026 nuk ka ...'; the picker said 'Në Nëntor'); English capitalises both."""

from storefront import i18n
from storefront.services import dates
from storefront.state.slot_picker import _no_day_reason

CLOSED = [{"date": "2026-11-30", "day": "30", "available": "no"}]


def test_a_month_in_a_sentence_is_written_as_each_language_writes_it():
    with i18n.using("sq"):
        assert (dates.month_name(11), dates.month_in_sentence(11)) == ("Nëntor", "nëntor")
        assert _no_day_reason(CLOSED, 1, 1, f"{dates.month_in_sentence(11)} 2026").startswith(
            "Në nëntor 2026 "
        )
    with i18n.using("en"):
        assert (dates.month_name(11), dates.month_in_sentence(11)) == ("November", "November")
