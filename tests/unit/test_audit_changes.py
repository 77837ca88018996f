"""Snapshot, change, audit: services/audit.changing and audit.removed record a row's before
and after in the caller's transaction, as the hand-written pattern did."""

from collections.abc import Iterator

import pytest
from sqlmodel import Session, SQLModel, create_engine, select

from storefront.models import AuditLog, Banner
from storefront.services import audit


@pytest.fixture
def session() -> Iterator[Session]:
    engine = create_engine("sqlite://")
    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        yield session
    engine.dispose()


def _banner(session: Session) -> Banner:
    banner = Banner(name="banner-test", is_active=True, display_order=1)
    session.add(banner)
    session.flush()
    return banner


def test_a_change_is_recorded_with_the_row_before_and_after(session):
    banner = _banner(session)
    before = audit.snapshot(banner)
    with audit.changing(session, banner, actor_id=None, action="edit", entity_type="banner"):
        banner.is_active = False
    (entry,) = session.exec(select(AuditLog)).all()
    assert (entry.action, entry.entity_type, entry.entity_id) == ("edit", "banner", str(banner.id))
    assert entry.details == {"before": before, "after": audit.snapshot(banner)}
    assert entry.details["before"]["is_active"] and not entry.details["after"]["is_active"]


def test_a_new_row_has_no_before_and_a_failed_change_records_nothing(session):
    banner = Banner(name="banner-new", is_active=True, display_order=2)
    with audit.changing(
        session, banner, actor_id=None, action="add", entity_type="banner", new=True
    ):
        pass
    with pytest.raises(ValueError):
        with audit.changing(session, banner, actor_id=None, action="x", entity_type="banner"):
            raise ValueError
    (entry,) = session.exec(select(AuditLog)).all()
    assert entry.details["before"] is None and entry.details["after"]["name"] == "banner-new"


def test_a_removal_is_recorded_with_the_row_as_it_was(session):
    banner = _banner(session)
    before = audit.snapshot(banner)
    audit.removed(session, banner, actor_id=None, action="delete", entity_type="banner")
    (entry,) = session.exec(select(AuditLog)).all()
    assert session.get(Banner, banner.id) is None
    assert entry.entity_id == str(banner.id)
    assert entry.details == {"before": before, "after": None}
