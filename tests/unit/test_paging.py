"""The one paging rule of the back office's lists (services/paging.py)."""

from storefront.services import paging


def test_a_page_past_either_end_is_the_nearest_one_and_an_empty_list_has_one():
    assert paging.window(total=0, page=5, per_page=20) == paging.Window(1, 1, 0, 20)
    assert paging.window(total=41, page=9, per_page=20) == paging.Window(3, 3, 40, 20)
    assert paging.window(total=41, page=-2, per_page=20) == paging.Window(1, 3, 0, 20)
    assert paging.window(total=40, page="2", per_page=20) == paging.Window(2, 2, 20, 20)


def test_rows_on_a_page_are_at_least_one_and_at_most_the_lists_most():
    assert paging.window(total=5, page=1, per_page=0).limit == 1
    assert paging.window(total=500, page=2, per_page=1000, most=100) == paging.Window(
        2, 5, 100, 100
    )


def test_next_and_previous_stay_within_the_list():
    assert (paging.next_page(2, 3), paging.next_page(3, 3)) == (3, 3)
    assert (paging.previous_page(2), paging.previous_page(1)) == (1, 1)
