"""The public catalogue's cache on SQLite and PostgreSQL (services/cache.py): a page's
shapes are built once, not per visitor; any committed change of the catalogue (an admin's
toggle, a bulk statement, a banner, the business settings) raises the version in the same
transaction and shows at once in this worker, and in another worker within its bound; an
uncommitted or rolled-back change is never served to anyone else."""

from __future__ import annotations

import pytest
from sqlalchemy import event, update
from sqlmodel import Session, select

from storefront.db import in_transaction
from storefront.models import BusinessSettings, Service
from storefront.models.operations import CacheVersion
from storefront.services import business
from storefront.services import cache as catalog_cache
from storefront.services.booking import cart
from storefront.services.cache import CACHE, CATALOGUE, MISSING, CatalogueCache
from storefront.services.catalog import banner_admin, banners
from storefront.services.catalog import listing as catalog_list
from storefront.services.catalog import public as catalog
from tests.clock import FakeClock
from tests.factories import make_service, make_user


@pytest.fixture
def queries(engine):
    """The SQL statements the engine runs while the test reads."""
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args):
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    yield seen
    event.remove(engine, "before_cursor_execute", count)


def _version(session: Session) -> int:
    return session.exec(select(CacheVersion.version).where(CacheVersion.name == CATALOGUE)).one()


def _titles(engine) -> list[str]:
    return in_transaction(
        lambda s: [v.title for v in catalog.list_public_services(session=s)], engine
    )


def test_a_page_is_built_once_and_then_served_without_the_database(session, engine, queries):
    make_service(session, title="Mickey")
    session.commit()
    assert _titles(engine) == ["Mickey"]
    builds = CACHE.builds
    queries.clear()
    for _ in range(20):
        assert _titles(engine) == ["Mickey"]
    assert CACHE.builds == builds
    # Within the bound, no statement at all; past it, only the version's primary-key lookup.
    assert all("cache_versions" in q for q in queries), queries
    assert len(queries) <= 1


def test_each_language_is_cached_apart(session, engine):
    """Issue 21: a cached read shapes words and prices in the language of the moment, so the
    cache keeps one value per language (an English page never gets the default's)."""
    from storefront import i18n
    from storefront.services import content

    service = make_service(session, title="Kështjellë", price="1300")
    service.translations = content.with_texts({}, "en", {"title": "Castle"})
    session.add(service)
    session.commit()

    def read():
        views = in_transaction(lambda s: catalog.list_public_services(session=s), engine)
        return [(v.title, str(v.price)) for v in views]

    assert read() == [("Kështjellë", "1300.00")]
    with i18n.using("en"):
        assert read() == [("Castle", "1300.00")]
        assert business.business_details.cache_key((), {})[2] == "en"
    assert read() == [("Kështjellë", "1300.00")]


def test_an_admin_change_shows_at_once_in_this_worker(session, engine):
    boss = make_user(session, role="admin")
    service = make_service(session, title="Mickey")
    session.commit()
    before = _version(session)
    assert _titles(engine) == ["Mickey"]
    catalog_list.toggle_active(session=session, actor_id=boss.id, service_id=service.id)
    session.commit()
    assert _version(session) == before + 1
    assert _titles(engine) == []


def test_a_bulk_statement_raises_the_version_too(session, engine):
    make_service(session, title="Mickey")
    session.commit()
    before = _version(session)
    assert _titles(engine) == ["Mickey"]
    session.exec(update(Service).values(title="Minnie"))
    session.commit()
    assert _version(session) == before + 1
    assert _titles(engine) == ["Minnie"]


def test_another_worker_sees_a_change_within_its_bound(session, engine):
    """`other` stands for the cache of another worker: the change clears only this worker's
    cache; the other learns of it from the version, no later than its bound."""
    clock = FakeClock()
    other = CatalogueCache(check_seconds=0.5, clock=clock)
    make_service(session, title="Mickey")
    session.commit()

    def read() -> list[str]:
        def titles(s: Session) -> list[str]:
            build = lambda: [v.title for v in catalog.list_public_services.uncached(session=s)]  # noqa: E731
            return other.get(("titles",), build, session=s)

        return in_transaction(titles, engine)

    assert read() == ["Mickey"]
    session.exec(update(Service).values(title="Minnie"))
    session.commit()
    # Stale, but only within the bound; without a bound the old title would stay for good.
    assert read() == ["Mickey"]
    clock.advance(0.49)
    assert read() == ["Mickey"]
    clock.advance(0.02)
    assert read() == ["Minnie"]


def test_an_uncommitted_change_is_read_through_and_never_cached(session, engine):
    service = make_service(session, title="Mickey")
    session.commit()
    assert _titles(engine) == ["Mickey"]
    service.title = "Draft title"
    session.add(service)
    session.flush()
    # The writing transaction sees its own change ...
    assert [v.title for v in catalog.list_public_services(session=session)] == ["Draft title"]
    session.rollback()
    # ... and after the rollback nobody is served it.
    assert _titles(engine) == ["Mickey"]


def test_banners_and_business_settings_are_catalogue_too(session, engine):
    boss = make_user(session, role="admin")
    session.commit()
    home = banner_admin.create_banner(session=session, actor_id=boss.id, name=banners.HOME_BANNER)
    session.commit()

    def cards() -> list[str]:
        return in_transaction(
            lambda s: [
                c.title for c in banners.active_banner_items(banners.HOME_BANNER, session=s)
            ],
            engine,
        )

    assert cards() == []
    banner_admin.create_item(
        session=session,
        actor_id=boss.id,
        banner_id=home.id,
        item=banner_admin.check_item(title="Dasma", image_url="/media/banners/a.webp"),
    )
    session.commit()
    assert cards() == ["Dasma"]

    def phone() -> str:
        return in_transaction(lambda s: business.business_details(session=s).phone, engine)

    phone()
    row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    row.phone = "+383 44 999 999"
    session.add(row)
    session.commit()
    assert phone() == "+383 44 999 999"


def test_a_fresh_value_is_served_without_a_session_and_a_change_ends_that(session, engine):
    """What lets a page load skip the worker thread and the session (state/base.py)."""
    database = str(engine.url)
    make_service(session, title="Mickey")
    session.commit()
    assert catalog_cache.fresh(catalog.list_public_services, {}, database=database) is MISSING
    assert _titles(engine) == ["Mickey"]
    served = catalog_cache.fresh(catalog.list_public_services, {}, database=database)
    assert [v.title for v in served] == ["Mickey"]
    # Not cached, or an argument the cache cannot key: the caller reads in a session.
    assert catalog_cache.fresh(catalog_list.list_services, {}, database=database) is MISSING
    assert catalog_cache.fresh(catalog.list_public_services, {"kind": []}, database=database) is (
        MISSING
    )
    session.exec(update(Service).values(title="Minnie"))
    session.commit()
    assert catalog_cache.fresh(catalog.list_public_services, {}, database=database) is MISSING


def test_a_days_slots_are_served_from_the_caches_and_an_admin_block_shows_at_once(
    session, engine, queries
):
    from datetime import date, timedelta

    from storefront.models import BlockedDate
    from storefront.services.booking import availability

    service = make_service(
        session, title="Castle", hours=[(d, "10:00", "14:00", 60, 1) for d in range(7)]
    )
    session.commit()
    day = (date.today() + timedelta(days=10)).isoformat()

    def slots() -> list[str]:
        return in_transaction(
            lambda s: [
                x.start_time
                for x in availability.day_slots(
                    session=s, service_id=str(service.id), day=day, duration_hours=1, quantity=1
                )
                if x.available
            ],
            engine,
        )

    assert slots() == ["10:00", "11:00", "12:00", "13:00"]
    queries.clear()
    assert slots() == ["10:00", "11:00", "12:00", "13:00"]
    read = [
        q for q in queries if "cache_versions" not in q and q.lstrip().upper().startswith("SELECT")
    ]
    assert read == []  # the rules and the month's bookings are both cached (issue 23)
    session.add(
        BlockedDate(
            service_id=service.id,
            start_date=date.fromisoformat(day),
            end_date=date.fromisoformat(day),
        )
    )
    session.commit()
    assert slots() == []


def _free_slots(engine, service_id: str, day: str) -> list[str]:
    from storefront.services.booking import availability

    return in_transaction(
        lambda s: [
            x.start_time
            for x in availability.day_slots(
                session=s, service_id=service_id, day=day, duration_hours=1, quantity=1
            )
            if x.available
        ],
        engine,
    )


def test_a_booking_placed_or_cancelled_shows_in_the_slots_at_once(session, engine):
    """The month's bookings are cached (catalog_cache.OCCUPANCY); placing or cancelling a
    booking raises the bookings' version in its own transaction, so the slots change at once."""
    from datetime import date, timedelta

    from storefront.services.booking import admin as admin_bookings
    from tests.factories import line, place

    castle = make_service(
        session, title="Castle", hours=[(d, "10:00", "12:00", 60, 1) for d in range(7)]
    )
    session.commit()
    day = (date.today() + timedelta(days=10)).isoformat()
    assert _free_slots(engine, str(castle.id), day) == ["10:00", "11:00"]
    placed = place(session, [line(castle, day, "10:00")], now=None)
    assert _free_slots(engine, str(castle.id), day) == ["11:00"]
    admin = make_user(session, role="admin")
    session.commit()
    admin_bookings.set_status(
        session=session, actor_id=str(admin.id), booking_id=placed.id, status="cancelled"
    )
    assert _free_slots(engine, str(castle.id), day) == ["10:00", "11:00"]


def test_a_day_s_slots_are_answered_without_a_thread_once_cached(session, engine):
    """`fresh` answers a `@from_caches` read from the caches alone once its entries are there
    and the versions were read within the bound; with nothing cached it says MISSING."""
    from datetime import date, timedelta

    from storefront.services.booking import availability

    castle = make_service(
        session, title="Castle", hours=[(d, "10:00", "12:00", 60, 1) for d in range(7)]
    )
    session.commit()
    day = (date.today() + timedelta(days=10)).isoformat()
    database = str(engine.url)
    kwargs = {"service_id": str(castle.id), "day": day, "duration_hours": 1, "quantity": 1}
    assert catalog_cache.fresh(availability.day_slots, kwargs, database=database) is MISSING
    assert _free_slots(engine, str(castle.id), day) == ["10:00", "11:00"]
    served = catalog_cache.fresh(availability.day_slots, kwargs, database=database)
    assert [s.start_time for s in served if s.available] == ["10:00", "11:00"]
    # A bad day is refused as the call with a session refuses it.
    with pytest.raises(availability.AvailabilityError):
        catalog_cache.fresh(
            availability.day_slots, {**kwargs, "day": "2026-13-45"}, database=database
        )


def test_an_add_to_cart_is_answered_from_the_caches_once_its_service_is_cached(session, engine):
    """Adding to the cart reads only catalogue data (the service, its units): once cached, an
    add is answered in the event loop (CartState.add_service, issue 23)."""
    from storefront.services.booking import cart

    castle = make_service(session, title="Castle", units=2)
    castle.images = [{"path": "services/castle.webp", "url": "/media/services/castle.webp"}]
    session.commit()
    database = str(engine.url)
    kwargs = {"cart": cart.EMPTY, "service_ref": str(castle.id), "count": 1}
    assert catalog_cache.fresh(cart.add_to_cart, kwargs, database=database) is MISSING
    first = in_transaction(lambda s: cart.add_to_cart(session=s, **kwargs), engine)
    served = catalog_cache.fresh(cart.add_to_cart, kwargs, database=database)
    assert served == first and served.held == 1 and served.most == 2


def test_the_cart_view_is_answered_from_the_caches(session, engine):
    """The cart's every event prices its lines again (CartState.refresh): an empty cart needs
    nothing, and a cart of cached services nothing but the caches, so neither waits for a
    thread (issue 23: even 'remove' went through one)."""

    castle = make_service(session, title="Castle", units=2)
    castle.images = [{"path": "services/castle.webp", "url": "/media/services/castle.webp"}]
    session.commit()
    database = str(engine.url)
    empty = catalog_cache.fresh(cart.cart_view, {"cart": cart.EMPTY}, database=database)
    assert empty.lines == [] and empty.complete is False
    typed = in_transaction(
        lambda s: (
            cart.add_to_cart(session=s, cart=cart.EMPTY, service_ref=str(castle.id), count=1).cart
        ),
        engine,
    )
    kwargs = {"cart": typed}
    # The add read the service and its units into the caches: its cart is priced from them.
    served = catalog_cache.fresh(cart.cart_view, kwargs, database=database)
    assert served is not MISSING and served.lines[0].name == "Castle"
    assert served == in_transaction(lambda s: cart.cart_view(session=s, **kwargs), engine)
    # A service the caches have not seen needs the database.
    for cache in catalog_cache.CACHES:
        cache.clear()
    assert catalog_cache.fresh(cart.cart_view, kwargs, database=database) is MISSING
