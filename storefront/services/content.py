"""Catalogue content in the language of the moment (storefront/i18n.py).

Services, categories, banner items and the business settings keep their text in the default
edition's language in their own columns, and the text of each other language in `translations`:
`{"en": {"title": "...", "description": "...", "details": {...}}}`. A page shows a field in its
language when an admin wrote it there, and the default edition's text otherwise: the page never
shows an empty title or a placeholder where English was not written yet.

`details` holds the kind's own texts (a theme's long description, its features, the add-ons'
names; models/service_details.py): the keys given replace the default's, the rest are kept."""

from __future__ import annotations

import re
from typing import Any

from storefront import i18n
from storefront.i18n import N_s, _s

# The fields of each model that have a text per language (the admin forms edit them side by
# side; the seed gives the demo catalogue both).
SERVICE_FIELDS = ("title", "description")
CATEGORY_FIELDS = ("name", "description")
BANNER_ITEM_FIELDS = ("title", "description")
BUSINESS_FIELDS = ("address", "opening_hours")


def _of(translations: dict[str, Any] | None, lang: str | None) -> dict[str, Any]:
    lang = lang or i18n.language()
    if lang == i18n.DEFAULT or not isinstance(translations, dict):
        return {}
    found = translations.get(lang)
    return found if isinstance(found, dict) else {}


def text(translations: dict[str, Any] | None, field: str, default: str, lang: str | None = None):
    """`field` in `lang` (the moment's by default): its translation when one was written (not
    blank), else `default`, the default edition's text."""
    value = _of(translations, lang).get(field)
    return value if isinstance(value, str) and value.strip() else default


def details(
    translations: dict[str, Any] | None, meta: dict[str, Any], lang: str | None = None
) -> dict[str, Any]:
    """A service's details (`meta`) with the texts written in `lang` put over the default's."""
    written = _of(translations, lang).get("details")
    if not isinstance(written, dict) or not written:
        return meta
    merged = dict(meta)
    for key, value in written.items():
        if value not in ("", None, [], {}):
            merged[key] = value
    return merged


def written(translations: dict[str, Any] | None, lang: str) -> dict[str, Any]:
    """What was written in `lang` (for a form that edits it)."""
    return dict(_of(translations, lang)) if lang != i18n.DEFAULT else {}


def with_texts(
    translations: dict[str, Any] | None, lang: str, texts: dict[str, Any]
) -> dict[str, Any]:
    """`translations` with `lang`'s texts set to `texts` (blank ones removed, so the field shows
    the default edition's text again). A new dict: JSON columns are replaced, not mutated."""
    result = {k: dict(v) for k, v in (translations or {}).items() if isinstance(v, dict)}
    own = result.setdefault(lang, {})
    for field, value in texts.items():
        if value in ("", None, [], {}) or (isinstance(value, str) and not value.strip()):
            own.pop(field, None)
        else:
            own[field] = value.strip() if isinstance(value, str) else value
    if not own:
        result.pop(lang, None)
    return result


# What a package is, said with its name wherever a booked line is named: four kinds of package
# are all called 'Paketa 1' ... 'Paketa 6' on their own pages, where the tab says which.
PACKAGE_KINDS = {
    "mascot": N_s("Mascot package"),
    "mascot-activities": N_s("Activity package"),
    "bouncer": N_s("Bubble house package"),
    "castle": N_s("Bouncy castle package"),
    "combo": N_s("Bubble house and castle package"),
}
_NUMBERED = re.compile(r"\S+\s+(\d+)")


def line_name(title: str, kind: str, package_type: str | None = None) -> str:
    """How a booked line of a service is named in the cart, the booking and everything made
    from it (mails, calendar files, staff messages, the day sheet), in the language of the
    moment: a numbered package with what it is ('Paketa 1' -> 'Paketa maskotash 1', 'Mascot
    package 1'); a package with a name of its own, and anything else, by its title. `title`
    is already in the language of the moment (`text`)."""
    label = PACKAGE_KINDS.get(package_type or "") if kind == "package" else None
    if not label:
        return title
    numbered = _NUMBERED.fullmatch(title.strip())
    return f"{_s(label)} {numbered.group(1)}" if numbered else title
