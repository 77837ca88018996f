"""Forged websocket events against the admin catalogue's handlers (no browser needed): a guest
and a plain user change nothing and see no admin list; the same events from an admin work."""

from __future__ import annotations

import uuid

import pytest
from sqlmodel import Session, func, select

from storefront.db import make_engine
from storefront.models import AuditLog, Service
from storefront.state.admin_services import AdminServicesState
from storefront.state.service_form import ServiceFormState
from tests.e2e.socket_client import Tab
from tests.e2e.socket_client import run as _run
from tests.e2e.test_forged_events import _account

pytestmark = pytest.mark.e2e

LIST = "/admin/services"


def _service(server, **values) -> str:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        service = Service(
            title=values.pop("title", "Forged target"),
            slug=f"forged-target-{uuid.uuid4().hex[:8]}",
            description="A service the forged events aim at.",
            **values,
        )
        session.add(service)
        session.commit()
        service_id = str(service.id)
    engine.dispose()
    return service_id


def _read(server, service_id: str) -> Service:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        service = session.get(Service, uuid.UUID(service_id))
        if service is not None:
            session.expunge(service)
    engine.dispose()
    return service


def _count(server, model) -> int:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        n = session.exec(select(func.count()).select_from(model)).one()
    engine.dispose()
    return n


def _forge_everything(tab: Tab, target: str):
    """Every handler of the list and the form, aimed at `target`."""
    return [
        tab.send(AdminServicesState.load, LIST),
        tab.send(AdminServicesState.search_for, LIST, text="Forged"),
        tab.send(AdminServicesState.toggle_active, LIST, service_id=target),
        tab.send(AdminServicesState.toggle_featured, LIST, service_id=target),
        tab.send(AdminServicesState.publish, LIST, service_id=target),
        tab.send(AdminServicesState.ask_delete, LIST, service_id=target, title="x"),
        tab.send(AdminServicesState.confirm_delete, LIST),
    ]


def test_guests_and_plain_users_cannot_touch_the_catalogue(server):
    target = _service(server, status="draft", title="Forged target private title")
    _plain_id, plain_token, _ = _account(server, "user")
    audit_before = _count(server, AuditLog)
    services_before = _count(server, Service)
    seen: list[str] = []

    async def scenario():
        for cookie in (None, plain_token):
            async with Tab(server.url, cookie) as tab:
                for call in _forge_everything(tab, target):
                    await call
                edit = f"/admin/services/edit/{target}"
                await tab.send(ServiceFormState.load, edit)
                await tab.send(ServiceFormState.set_title, edit, value="Hijacked")
                await tab.send(ServiceFormState.set_status, edit, value="published")
                await tab.send(ServiceFormState.save, edit)
                seen.extend(tab.received)

    _run(scenario())
    service = _read(server, target)
    assert service is not None, "deleted by a forged event"
    assert (service.title, service.status, service.active, service.featured) == (
        "Forged target private title",
        "draft",
        True,
        False,
    )
    assert "Forged target private title" not in "\n".join(seen)  # no list, no form data leaked
    assert _count(server, AuditLog) == audit_before
    # The plain user's 'save' may only have made a draft of their own, never a published one.
    assert _count(server, Service) <= services_before + 1
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        hijacked = session.exec(select(Service).where(Service.title == "Hijacked")).all()
        assert all(s.status == "draft" and s.user_id is not None for s in hijacked)
    engine.dispose()


def test_the_same_events_from_an_admin_work(server):
    target = _service(server, status="draft")
    _admin_id, admin_token, _ = _account(server, "admin")

    async def scenario():
        async with Tab(server.url, admin_token) as tab:
            await tab.send(AdminServicesState.toggle_featured, LIST, service_id=target)
            await tab.send(AdminServicesState.publish, LIST, service_id=target)

    _run(scenario())
    service = _read(server, target)
    assert service.featured and service.status == "published"


def test_an_owner_cannot_approve_their_own_pending_change(server):
    """Issue 18, finding 5: the change an owner made to their published service waits for an
    admin; the owner's forged review/approve events change nothing, an admin's approve does."""
    from storefront.models.catalog import ServiceRevision

    owner_id, owner_token, _ = _account(server, "user")
    _admin_id, admin_token, _ = _account(server, "admin")
    target = _service(server, status="published", user_id=uuid.UUID(owner_id))
    live = _read(server, target)
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        values = {
            "title": "Owner's unapproved title",
            "slug": live.slug,
            "description": live.description,
            "price": None,
            "price_unit": live.price_unit,
            "kind": live.kind,
            "category_id": None,
            "images": [],
            "meta": {},
            "total_units": 1,
            "buffer_time_minutes": 0,
        }
        session.add(ServiceRevision(service_id=live.id, values=values))
        session.commit()
    engine.dispose()

    async def forge(token: str):
        async with Tab(server.url, token) as tab:
            await tab.send(AdminServicesState.review, LIST, service_id=target, title="x")
            await tab.send(AdminServicesState.approve_changes, LIST)
            return tab.text()

    seen = _run(forge(owner_token))
    assert "Owner's unapproved title" not in seen  # the diff is not shown to the owner
    assert _read(server, target).title == "Forged target"
    _run(forge(admin_token))
    assert _read(server, target).title == "Owner's unapproved title"
