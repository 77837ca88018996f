"""The one paging rule of the back office's lists (bookings, accounts, the audit log, the
catalogue): how many pages a count makes, which page a request lands on, and the rows that
page reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Window:
    """One page of a list: its number (1-based, within the list), how many pages there are,
    and the rows to read (`offset`, `limit`)."""

    page: int
    pages: int
    offset: int
    limit: int

    def of(self, query: Any) -> Any:
        """`query` narrowed to this page's rows (the caller orders it first)."""
        return query.offset(self.offset).limit(self.limit)


def clamp_per_page(per_page: object, most: int | None = None) -> int:
    """Rows on a page: at least 1, at most `most` when it is given."""
    rows = max(1, int(per_page))  # type: ignore[call-overload]
    return min(rows, most) if most is not None else rows


def window(*, total: int, page: object, per_page: object, most: int | None = None) -> Window:
    """The page `page` of a list of `total` rows, `per_page` to a page (at most `most`): an
    empty list has one page, and a page past either end is the nearest one there is."""
    rows = clamp_per_page(per_page, most)
    pages = max(1, -(-total // rows))
    number = max(1, min(int(page), pages))  # type: ignore[call-overload]
    return Window(page=number, pages=pages, offset=(number - 1) * rows, limit=rows)


def next_page(page: int, pages: int) -> int:
    """The page after `page`, the last one at most (a list's 'Next' button)."""
    return min(page + 1, pages)


def previous_page(page: int) -> int:
    """The page before `page`, the first one at least (a list's 'Previous' button)."""
    return max(page - 1, 1)
