"""Languages: the default edition (Albanian, at `/...`) and English (at `/en/...`).

Every string a person reads is written once, in the source, in English (SPEC's copy, word for
word), and marked for translation. Two catalogs (gettext domains), both translated into
Albanian (`sq/LC_MESSAGES/<domain>.po`):
- `messages`: what visitors read on the site, marked with `_()`;
- `office`: what the business writes to people outside the site's pages (mails, the staff's
  WhatsApp messages, a booking's calendar file) and the back office's pages, marked `_o()`.
A string shown both on the site and in the back office (the service form, the event types) is
marked `_s()` and kept in both catalogs: each page reads it from its own (`shared_gettext`).
`N_()` / `N_o()` / `N_s()` mark a string that is only named (a module-level constant, a table's value)
and translated where it is shown. `make translations` extracts the marked strings with Babel into
`storefront/translations/<domain>.pot` and merges them into each catalog, where the translation
is written (docs/extending.md, 'Add or change a string'). No Albanian entry may be left equal to
its English source but for a few names (tests/unit/test_translations.py: SAME_IN_ALBANIAN).

Which language `_()` answers in is the one of the moment (`language()`):
- while a page is compiled, the page's edition (pages/editions.py registers every page once per
  language and compiles each in its own), so static text is in the prerendered HTML and never
  goes over the websocket;
- while an event is handled, the edition of the page that sent it (state/guard.py reads it from
  the page's address), so toasts, validation messages and computed text follow the visitor;
- elsewhere (mails, the outbox, a booking's calendar file), the language a caller names with
  `using(lang)`: a booking's own (`Booking.language`), the staff's (business settings).
When nobody named one (a script, a test calling a service), `_()` speaks the default edition's
Albanian and `_o()` English.

A text in its source language is the source itself: the English edition shows SPEC's copy word
for word, whatever any catalog holds. The `.po` files are read (and compiled in memory with
Babel's own compiler) when first needed; a change to a `.po` shows at the next start.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from urllib.parse import unquote

DEFAULT = "sq"
LANGUAGES = ("sq", "en")
# Where each edition lives: its address prefix.
PREFIXES = {"sq": "", "en": "/en"}
# The Babel locale of each language: how prices, numbers, dates, weekdays and months are written.
LOCALES = {"sq": "sq_XK", "en": "en"}
# What the language switch calls each language, in that language.
NAMES = {"sq": "Shqip", "en": "English"}
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
# Each catalog and the language its source text is written in; every other language has a .po.
SOURCES = {"messages": "en", "office": "en"}

# None: nobody named a language (a script, a test calling a service): each catalog speaks the
# language its source is written in, and `language()` says the default edition's.
_language: ContextVar[str | None] = ContextVar("storefront_language", default=None)
# The route of the page being compiled ('/services/[service_id]'), for the language switch.
_page_route: ContextVar[str | None] = ContextVar("storefront_page_route", default=None)
# Whether the page of the moment is one of the back office's: a string shown both on the site
# and in the back office (`_s()`) then reads from the back office's catalog.
_office_page: ContextVar[bool] = ContextVar("storefront_office_page", default=False)


def translated(domain: str) -> tuple[str, ...]:
    """The languages `domain` is translated into (all but its source's)."""
    return tuple(lang for lang in LANGUAGES if lang != SOURCES[domain])


def po_path(lang: str, domain: str = "messages") -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po"


@cache
def catalog(lang: str, domain: str = "messages") -> NullTranslations:
    """The translations of `domain` into `lang`, compiled from its `.po` by Babel (an empty one
    for the language its source is written in)."""
    if lang not in translated(domain):
        return NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with po_path(lang, domain).open("rb") as source:
        messages = read_po(source, locale=LOCALES[lang], domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, messages, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, domain=domain)


def known(lang: str | None) -> str:
    """`lang` when it is one of the site's languages, else the default."""
    return lang if lang in LANGUAGES else DEFAULT


def language() -> str:
    """The language of the moment (see the module's docstring)."""
    return _language.get() or DEFAULT


@contextmanager
def using(
    lang: str | None, *, page_route: str | None = None, office: bool | None = None
) -> Iterator[str]:
    """Everything inside speaks `lang` (an unknown one speaks the default); `page_route`: the
    route of the page being compiled inside, in the default edition; `office`: whether that
    page is one of the back office's (unchanged when not given)."""
    token = _language.set(known(lang))
    route_token = _page_route.set(page_route) if page_route is not None else None
    office_token = _office_page.set(office) if office is not None else None
    try:
        yield known(lang)
    finally:
        _language.reset(token)
        if route_token is not None:
            _page_route.reset(route_token)
        if office_token is not None:
            _office_page.reset(office_token)


@contextmanager
def on_page(path: str | None) -> Iterator[str]:
    """Everything inside speaks as the page at `path` does: its edition's language, and the
    back office's words when it is one of the back office's pages."""
    lang, rest = split(path or "/")
    with using(lang, office=is_back_office(rest)) as spoken:
        yield spoken


def page_route() -> str | None:
    """The route of the page being compiled (in the default edition), or None."""
    return _page_route.get()


def set_page(path: str | None) -> None:
    """The rest of this task speaks as the page at `path` does (an event's, set once by the
    guard from the page that sent it): its language, and the back office's words on its pages."""
    lang, rest = split(path or "/")
    _language.set(lang)
    _office_page.set(is_back_office(rest))


def gettext(message: str) -> str:
    """`message` (written in English, SPEC's copy) in the language of the moment."""
    return catalog(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return catalog(language()).ngettext(singular, plural, n)


def _office_language() -> str:
    return _language.get() or SOURCES["office"]


def office_gettext(message: str) -> str:
    """`message` (written in English: the back office, a mail, a staff message) in the language
    of the moment; in English when none was named."""
    return catalog(_office_language(), "office").gettext(message)


def office_ngettext(singular: str, plural: str, n: int) -> str:
    return catalog(_office_language(), "office").ngettext(singular, plural, n)


def shared_gettext(message: str) -> str:
    """`message`, shown both on the site and in the back office (the service form an owner
    fills in too, the event types, the rules of a field), in the words of the page of the
    moment: from the back office's catalog on its pages, from the site's elsewhere. Its source
    is in both catalogs (`make translations` extracts `_s()` into each)."""
    return office_gettext(message) if _office_page.get() else gettext(message)


_ = gettext
_o = office_gettext
_s = shared_gettext


def N_(message: str) -> str:  # noqa: N802 (gettext's own name for it)
    """Marks `message` for translation where it is only named (a constant, a table's value);
    the code that shows it passes it through `_()`."""
    return message


N_o = N_  # the same, for the `office` catalog (shown through `_o()`)
N_s = N_  # the same, for a string of both catalogs (shown through `_s()`)


def locale() -> str:
    """The Babel locale of the moment's language."""
    return LOCALES[language()]


def prefix(lang: str | None = None) -> str:
    return PREFIXES[known(lang) if lang else language()]


# The back office has editions of its own: English (the product's copy for it) at `/admin/...`,
# Albanian at `/sq/admin/...`. Which one an admin sees is their profile's setting, not the
# site's edition they came from (state/auth.py sends them there).
BACK_OFFICE = "/admin"
BACK_OFFICE_DEFAULT = "en"
BACK_OFFICE_PREFIXES = {"en": "", "sq": "/sq"}


def is_back_office(path: str) -> bool:
    """Whether `path` (without an edition's prefix) is a page of the back office."""
    return path == BACK_OFFICE or path.startswith((BACK_OFFICE + "/", BACK_OFFICE + "?"))


def href(path: str, lang: str | None = None) -> str:
    """The address of the page at `path` (a route of storefront/routes.py, or a path with its
    query) in `lang`'s edition, by default the edition of the moment: '/cart' -> '/en/cart',
    '/admin/users' -> '/sq/admin/users'. Addresses that are not pages (the API, media, other
    sites) are left as they are."""
    lang = known(lang) if lang else language()
    if not path.startswith("/") or not is_page_path(path):
        return path
    if is_back_office(path):
        return BACK_OFFICE_PREFIXES[lang] + path
    head = PREFIXES[lang]
    if not head:
        return path
    if path == "/" or path.startswith(("/?", "/#")):
        return head + path[1:]
    return head + path


# Addresses served by the backend or the build, never a page of an edition.
_NOT_PAGES = (
    "/api/",
    "/_",
    "/assets/",
    "/media/",
    "/uploads/",
    "/sitemap.xml",
    "/robots.txt",
    "/metrics",
)


def is_page_path(path: str) -> bool:
    """Whether `path` is a page (each edition has it at its own address)."""
    return not path.startswith(_NOT_PAGES) and not path.startswith("//")


_EDITION = re.compile(r"^/(en|sq)(?=/|$|\?|#)")


def split(path: str) -> tuple[str, str]:
    """('en', '/cart') for '/en/cart'; ('sq', '/cart') for '/cart'; ('sq', '/admin') for
    '/sq/admin' and ('en', '/admin') for '/admin' (the back office's own editions); the rest of
    the address (query, fragment) is kept."""
    path = path or "/"
    match = _EDITION.match(path)
    rest = path[match.end() :] if match else path
    rest = rest if rest.startswith("/") else "/" + rest
    if is_back_office(rest):
        return (match.group(1) if match else BACK_OFFICE_DEFAULT), rest
    if not match or match.group(1) == DEFAULT:
        return DEFAULT, path if not match else rest
    return match.group(1), rest


def language_of(path: str | None) -> str:
    """The language of the page at `path` (its edition's prefix)."""
    return split(path or "/")[0]


def site_language_of(path: str | None) -> str:
    """The edition of the site a visitor going to `path` is in: its language, the default
    for a back-office page (its sign-in page is the site's own)."""
    lang, rest = split(path or "/")
    return DEFAULT if is_back_office(rest) else lang


def in_language(path: str, lang: str) -> str:
    """The same page as `path` in `lang`'s edition: '/en/services/mascots', 'sq' ->
    '/services/mascots'."""
    return href(split(path)[1], lang)


LOCAL_PATH_MAX = 2048


def local_path(target: object, *, lang: str | None = None, default: str = "/") -> str:
    """The one rule for an address that a request asks to be sent to (a query's `next` or
    `redirectTo`, a Referer, a page's own address, an event's argument): `target`, moved into
    `lang`'s edition when one is given, kept only when that final address is a path of this
    site; otherwise `default`. The check runs after the language change, because dropping an
    edition's prefix can turn a harmless '/en//host' into '//host'."""
    text = str(target or "")
    if lang is not None and _is_local(text):
        text = in_language(text, lang)
    return text if _is_local(text) else default


def _is_local(text: str) -> bool:
    """A path of this site: it starts with one '/', holds no '//' before its query, no
    backslash, no control character (browsers drop tabs and newlines, so '/<tab>/host' would
    be '//host') and no white space in its path, and says the same once percent-decoded."""
    for _round in range(4):  # '/%2F%2Fhost', '/%252F%252Fhost', ...
        path = text.split("?", 1)[0].split("#", 1)[0]
        if (
            not text.startswith("/")
            or len(text) > LOCAL_PATH_MAX
            or "//" in path
            or "\\" in text
            or any(ord(c) < 32 or ord(c) == 0x7F for c in text)
            or any(c.isspace() for c in path)
        ):
            return False
        decoded = unquote(text)
        if decoded == text:
            return True
        text = decoded
    return False
