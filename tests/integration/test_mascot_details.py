"""A mascot's detail dialog reads its texts when it opens (issue 23): the full description and
'Suitable for' of one published character of the mascots page, in the language of the moment,
cached like the page; anything else is refused with a code the state turns into one line."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from reflex.state import State

import storefront.storefront  # noqa: F401  (registers every page and state)
from storefront import i18n
from storefront.i18n import _
from storefront.models import Service, ServiceCategory
from storefront.services.cache import CACHE
from storefront.services.catalog import showcase
from storefront.state.mascots import DETAILS_FAILED, NO_DETAILS, MascotsState

META = {
    "number": 1,
    "short_description": "A winter princess.",
    "full_description": "Our Ice Princess sings winter songs with the children.",
    "suitable_for": ["Birthday Parties", "Weddings"],
}
ENGLISH = {"en": {"details": {"full_description": "In English: winter songs."}}}


def _category(session, slug: str) -> ServiceCategory:
    category = ServiceCategory(name=slug.title(), slug=slug)
    session.add(category)
    session.flush()
    return category


def _mascot(session, category, *, slug="ice-princess", kind="mascot", meta=META, **fields):
    service = Service(
        title=slug.replace("-", " ").title(),
        slug=slug,
        kind=kind,
        price=Decimal("250"),
        category_id=category.id,
        meta=meta,
        **fields,
    )
    session.add(service)
    session.flush()
    return str(service.id)


def test_the_dialog_gets_the_full_description_and_suitable_for(session):
    mascot_id = _mascot(session, _category(session, "mascots"), translations=ENGLISH)
    details = showcase.mascot_details(session=session, mascot_id=mascot_id)
    assert details == showcase.MascotDescription(
        mascot_id, META["full_description"], META["suitable_for"]
    )
    with i18n.using("en"):
        english = showcase.mascot_details(session=session, mascot_id=mascot_id)
    assert english.full_description == "In English: winter songs."


def test_a_character_without_its_own_texts_gets_the_specs_defaults(session):
    mascot_id = _mascot(session, _category(session, "mascots"), meta={})
    session.get(Service, uuid.UUID(mascot_id)).description = "Short text."
    session.flush()
    details = showcase.mascot_details(session=session, mascot_id=mascot_id)
    assert details.full_description == "Short text."
    # No language named: the spec's defaults in the default edition's words.
    assert details.suitable_for == [_("Birthday Parties"), _("School Events")]


def test_details_are_read_once_per_catalogue_version(session):
    mascot_id = _mascot(session, _category(session, "mascots"))
    session.commit()
    first = showcase.mascot_details(session=session, mascot_id=mascot_id)
    builds = CACHE.builds
    assert showcase.mascot_details(session=session, mascot_id=mascot_id) is first
    assert CACHE.builds == builds


def test_only_a_published_mascot_of_the_page_has_details(session):
    mascots = _category(session, "mascots")
    refused = [
        "",
        "not-a-uuid",
        "ice-princess",  # a slug: the dialog asks by id
        str(uuid.uuid4()),
        _mascot(session, mascots, slug="draft", status="draft"),
        _mascot(session, mascots, slug="hidden", active=False),
        _mascot(session, mascots, slug="a-package", kind="package", meta={"type": "mascot"}),
        _mascot(session, _category(session, "bouncers"), slug="elsewhere"),
    ]
    _mascot(session, mascots)
    for mascot_id in refused:
        with pytest.raises(showcase.ShowcaseError) as error:
            showcase.mascot_details(session=session, mascot_id=mascot_id)
        assert error.value.code == "mascot_missing", mascot_id


@pytest.fixture
def app_database(engine, monkeypatch):
    """The app's own calls (state/base.call_service) on the test database."""
    import storefront.db
    import storefront.state.base

    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)
    monkeypatch.setattr(storefront.state.base, "get_engine", lambda: engine)


def _tab() -> MascotsState:
    root = State(_reflex_internal_init=True)
    return root.get_substate(MascotsState.get_full_name().split(".")[1:])


async def test_opening_the_dialog_reads_that_characters_details(session, app_database):
    mascot_id = _mascot(session, _category(session, "mascots"))
    session.commit()
    tab = _tab()
    assert tab.details == NO_DETAILS

    await MascotsState.show_details.fn(tab, str(uuid.uuid4()))
    assert tab.details.id != mascot_id and tab.details_error == _(DETAILS_FAILED)

    await MascotsState.show_details.fn(tab, mascot_id)
    assert tab.details == showcase.MascotDescription(
        mascot_id, META["full_description"], META["suitable_for"]
    )
    assert tab.details_error == ""


async def test_a_failure_is_said_in_the_pages_language(session, app_database):
    tab = _tab()
    with i18n.using("en"):
        await MascotsState.show_details.fn(tab, str(uuid.uuid4()))
    assert tab.details_error == "This mascot's details could not be loaded. Please try again."


@pytest.mark.parametrize("forged", [None, 5, ["x"], {"id": "x"}, "", "0" * 65])
async def test_a_forged_argument_changes_nothing(session, app_database, forged):
    tab = _tab()
    await MascotsState.show_details.fn(tab, forged)
    assert (tab.details, tab.details_error) == (NO_DETAILS, "")
