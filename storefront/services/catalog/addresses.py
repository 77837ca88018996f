"""How the server answers an address of the catalogue before any page is sent (issue 34, item
9; docs/architecture.md §2 'How an address is answered').

The pages of a service (`/services/{id or slug}`, `/themes/{slug}`) and its booking screen
(`/services/{id or slug}/book`), in every edition, are one page each that the build could not
make ahead (their addresses hold a key): whatever the key, the build's fallback page would be
sent with a 200 and the page would find out in the browser that the service moved or does not
exist. Search engines read the status, not the page. So, for these addresses only:

- a key that is an old slug of a service (`ServiceSlugRedirect`) answers 301 to the service's
  address now, in the same edition, with the query kept; the address is made from the stored
  slug alone, never from what was asked;
- a key that leads nowhere (no such service, a draft, an inactive one, a kind without a page
  of its own, a malformed id) answers 404 with the site's not-found page;
- everything else (the current slug, the id) is served as before.

One cached read decides (`catalog.get_public_service`, the read the pages make themselves), so
`answer` is `@from_caches`: a current address costs a look in the worker's cache."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlmodel import Session

from storefront import i18n, routes
from storefront.services.cache import from_caches
from storefront.services.catalog import public as catalog
from storefront.services.catalog import seo


@dataclass(frozen=True)
class Answer:
    """200: serve the page as it is built; 301: moved to `location`; 404: not found."""

    status: int
    location: str = ""


SERVE = Answer(200)
NOT_FOUND = Answer(404)

# The pages of one service: its page (by id or slug), the /themes alias, its booking screen.
_DETAIL = re.compile(r"^/(services|themes)/([^/]+)$")
_BOOK = re.compile(r"^/services/([^/]+)/book$")


def _static_segments() -> frozenset[str]:
    """The pages under /services/ that are not a service (/services/mascots, /services/create,
    /services/edit/..., the old spellings of routes.ALIASES), lower-cased: the router ignores
    case, so '/services/Mascots' is the mascots page whatever a service's slug is."""
    found = [
        value
        for value in (*vars(routes).values(), *routes.ALIASES)
        if isinstance(value, str) and value.startswith("/services/")
    ]
    return frozenset(
        part.lower() for part in (v.split("/")[2] for v in found) if not part.startswith("[")
    )


STATIC_SEGMENTS = _static_segments()
_EDIT = routes.SERVICE_EDIT.split("/")[2]  # 'edit'


@dataclass(frozen=True)
class Entry:
    """An address of a catalogue entry, read from a request's path."""

    lang: str
    key: str  # the id or slug the address holds
    booking: bool  # the booking screen (/services/{key}/book), else the service's page


def entry_of(path: str) -> Entry | str | None:
    """What `path` asks for: an `Entry`; the language of an edition's not-found page itself
    (routes.NOT_FOUND, which answers 404 too); None for any other address (served as it is)."""
    lang, rest = i18n.split(path)
    if rest != "/":
        rest = rest.rstrip("/")
    if i18n.href(rest, lang) != (path.rstrip("/") or "/"):
        return None  # not an edition's address ('/sq/services/x', the back office)
    if rest == routes.NOT_FOUND:
        return lang
    match = _BOOK.match(rest)
    if match:
        key, booking = match.group(1), True
    else:
        match = _DETAIL.match(rest)
        if match is None:
            return None
        key, booking = match.group(2), False
        if match.group(1) == "services" and key.lower() in STATIC_SEGMENTS:
            return None
    if booking and key.lower() == _EDIT:
        return None  # '/services/edit/book': the account's edit page of the service 'book'
    return Entry(lang, key, booking)


@from_caches
def answer(entry: Entry, *, session: Session) -> Answer:
    """How the server answers `entry` (see the module's docstring), judged as its page judges
    it: the service's page shows an active, published service of a kind with a page of its own
    (state/theme.py); the booking screen any active, published one (catalog.service_to_book)."""
    if entry.booking:
        try:
            view = catalog.service_to_book(session=session, service_ref=entry.key)
        except catalog.ServiceRefError:
            return NOT_FOUND
    else:
        view = catalog.get_public_service(session=session, service_id=entry.key)
        if view is None or view.kind not in catalog.detail_page_kinds():
            return NOT_FOUND
    moved = catalog.moved_to(entry.key, view)
    if moved is None:
        return SERVE
    path = seo.detail_path(moved) + ("/book" if entry.booking else "")
    return Answer(301, i18n.href(path, entry.lang))


def moved_location(found: Answer, query: str, lang: str) -> str:
    """The Location of a 301: the stored slug's address with the request's query, checked by
    the one rule for addresses a request leads to (i18n.local_path)."""
    target = found.location + (f"?{query}" if query else "")
    return i18n.local_path(target, default=i18n.href(routes.HOME, lang))
