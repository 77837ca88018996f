"""The demo catalogue's English (storefront/seed/catalog_en.py) covers every row the seed makes,
says the same as the default edition's data apart from the words, and fits each kind's schema."""

from __future__ import annotations

from typing import Any

import pytest

from storefront.models.kinds import validate_details
from storefront.seed import catalog, catalog_en

SERVICES = {spec["slug"]: spec for spec in catalog.SERVICES}
# Values of a kind's details that are not words: they must be the default's, word for word.
NOT_WORDS = ("amount", "price")
# Letters of Albanian that English never writes: a text with one was left untranslated.
ALBANIAN = set("ëËçÇ")


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _shape(value: Any) -> Any:
    """`value` with its words blanked: what the English must share with the default."""
    if isinstance(value, dict):
        return {k: v if k in NOT_WORDS else _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return "words" if isinstance(value, str) else value


def test_every_category_and_service_of_the_seed_has_its_english():
    assert set(catalog_en.CATEGORIES) == {c["slug"] for c in catalog.CATEGORIES}
    assert set(catalog_en.SERVICES) == set(SERVICES)
    for slug, english in catalog_en.CATEGORIES.items():
        assert english["name"].strip() and english["description"].strip(), slug
    for slug, english in catalog_en.SERVICES.items():
        assert english["title"].strip() and english["description"].strip(), slug
        assert set(english) <= {"title", "description", "details"}, slug


def test_every_banner_caption_and_description_of_the_seed_has_its_english():
    captions = [i["title"] for b in catalog.BANNERS for i in b["items"]]
    captions += [c for names in catalog.GALLERIES.values() for c in names]
    descriptions = [i["description"] for b in catalog.BANNERS for i in b["items"]]
    assert set(captions) == set(catalog_en.BANNER_ITEMS)
    assert {d for d in descriptions if d} == set(catalog_en.BANNER_ITEM_DESCRIPTIONS)
    for text in [*catalog_en.BANNER_ITEMS.values(), *catalog_en.BANNER_ITEM_DESCRIPTIONS.values()]:
        assert text.strip()


@pytest.mark.parametrize("slug", sorted(catalog_en.SERVICES))
def test_english_details_change_only_the_words(slug):
    spec, details = SERVICES[slug], catalog_en.SERVICES[slug].get("details", {})
    assert set(details) <= set(spec["meta"]), slug
    for key, value in details.items():
        # A list is given whole (services/content.details): same length, same amounts.
        assert _shape(value) == _shape(spec["meta"][key]), (slug, key)
    for english, default in zip(
        details.get("features", []), spec["meta"].get("features", []), strict=True
    ):
        mark = default.split(" ")[0]
        if not mark.isalnum():
            assert english.split(" ")[0] == mark, (slug, english)
    validate_details(spec["kind"], {**spec["meta"], **details})


def test_the_kinds_with_words_in_their_details_give_them_in_english():
    words = {
        "wedding_offer": {"lines"},
        "package": {"features"},
        "mascot": {"short_description", "full_description", "suitable_for"},
        "theme": {"age", "duration", "capacity", "long_description", "features", "add_ons"},
    }
    for slug, spec in SERVICES.items():
        expected = words.get(spec["kind"], set()) & set(spec["meta"])
        assert set(catalog_en.SERVICES[slug].get("details", {})) == expected, slug


def test_no_english_text_is_left_in_albanian():
    texts = _texts(catalog_en.CATEGORIES) + _texts(catalog_en.SERVICES)
    texts += list(catalog_en.BANNER_ITEMS.values())
    texts += list(catalog_en.BANNER_ITEM_DESCRIPTIONS.values())
    left = [t for t in texts if ALBANIAN & set(t)]
    assert not left, left
