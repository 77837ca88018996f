"""Reflex's own `/_upload` endpoint, built from the real app, behind the real body cap: an
upload is an event like any other and passes the app's event middleware (our AuthGuard), so a
guest cannot reach an account state's upload handler; but Reflex reads the whole body before
that event exists, which is why the body cap sits in front of it."""

from __future__ import annotations

import io
import logging
import uuid

import pytest
import pytest_asyncio
from PIL import Image

from tests.conftest import upload_client

# One event processor for the module, on one event loop: Reflex sets it up once per server.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def upload_api():
    """The real app's event processor running, its upload endpoint mounted as Reflex mounts it,
    wrapped by the storefront's body cap."""
    async with upload_client() as client:
        yield client


# The page the tab is on (the default edition's): the upload's handler speaks its language.
PROFILE_PAGE = "/account/profile"


async def a_tab() -> str:
    """A tab's token after its page hydrated, as a browser's is when it uploads (a tab that
    never hydrated is told to reload instead: state/guard.py)."""
    from reflex.event import Event
    from reflex.state import State

    import storefront.storefront as site

    token = str(uuid.uuid4())
    hydrate = Event(
        name=f"{State.get_full_name()}.hydrate",
        router_data={"pathname": PROFILE_PAGE, "query": {}},
    )
    async for _delta in site.app.event_processor.enqueue_stream_delta(token, hydrate):
        pass
    return token


def a_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (1, 2, 3)).save(buffer, format="PNG")
    return buffer.getvalue()


def avatar_failed() -> str:
    """What the avatar's handler says when it runs and finds no signed-in caller, in the words
    of the tab's page."""
    from storefront import i18n

    with i18n.on_page(PROFILE_PAGE):
        return i18n._("Failed to upload avatar")


def avatar_handler() -> str:
    from storefront.state.account import ProfileState

    return ProfileState.get_full_name() + ".upload_avatar"


async def test_a_guests_upload_event_is_refused_by_the_guard(upload_api, media_dir, caplog):
    before = set((media_dir / "avatars").glob("*")) if (media_dir / "avatars").exists() else set()
    token = await a_tab()
    with caplog.at_level(logging.WARNING, logger="storefront.state.guard"):
        answer = await upload_api.post(
            "/_upload",
            files={"files": ("me.png", a_png(), "image/png")},
            headers={
                "reflex-client-token": token,
                "reflex-event-handler": avatar_handler(),
            },
        )
    assert answer.status_code == 200
    assert avatar_failed() not in answer.text  # the handler never ran
    assert f"refused {avatar_handler()} for a guest" in caplog.text
    after = set((media_dir / "avatars").glob("*")) if (media_dir / "avatars").exists() else set()
    assert after == before


async def test_an_oversize_upload_never_reaches_reflex(upload_api, caplog):
    with caplog.at_level(logging.WARNING, logger="storefront.state.guard"):
        answer = await upload_api.post(
            "/_upload",
            content=b"x" * (7 * 1024 * 1024),
            headers={
                "content-type": "multipart/form-data; boundary=xyz",
                "reflex-client-token": str(uuid.uuid4()),
                "reflex-event-handler": avatar_handler(),
            },
        )
    assert answer.status_code == 413
    assert "refused" not in caplog.text  # no event was made of it


async def test_an_unknown_handler_is_refused_before_the_body_is_read(upload_api):
    answer = await upload_api.post(
        "/_upload",
        files={"files": ("me.png", a_png(), "image/png")},
        headers={"reflex-client-token": str(uuid.uuid4()), "reflex-event-handler": "state.nope.x"},
    )
    assert answer.status_code == 400


async def test_without_the_guard_the_same_upload_would_reach_the_handler(
    upload_api, monkeypatch, caplog
):
    """The control for the guard test: with the avatar state made public, the very same
    request runs the handler (which then finds no signed-in caller and says so)."""
    from storefront.state import guard

    monkeypatch.setattr(guard, "access_of", lambda state_class: "public")
    token = await a_tab()
    with caplog.at_level(logging.WARNING, logger="storefront.state.guard"):
        answer = await upload_api.post(
            "/_upload",
            files={"files": ("me.png", a_png(), "image/png")},
            headers={
                "reflex-client-token": token,
                "reflex-event-handler": avatar_handler(),
            },
        )
    assert answer.status_code == 200
    assert avatar_failed() in answer.text
    assert "refused" not in caplog.text
