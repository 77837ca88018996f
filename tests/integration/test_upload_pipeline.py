"""Uploads through the real app's event pipeline (its event processor, its middleware, Reflex's
own `/_upload` endpoint behind the body cap), as a signed-in tab drives them (issue 18):

- finding 2: forged calls of the upload progress handlers start no work that lasts, and the
  progress of a real upload still rises;
- finding 6: eight upload/remove cycles on the service form leave in storage only what the form
  holds, and the form's image cap is counted by the server.

The app runs on its own database (DATABASE_URL of the tests, SQLite); the service-level tests
of the same rules run on SQLite and PostgreSQL (test_upload_bounds.py)."""

from __future__ import annotations

import asyncio
import io
import uuid

import httpx
import pytest
import pytest_asyncio
from PIL import Image

from storefront import i18n
from tests.clock import FakeClock
from tests.conftest import migrate, upload_client
from tests.factories import signed_in_account

pytestmark = pytest.mark.asyncio(loop_scope="module")

FORM_PATH = "/services/create"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def app_api():
    """The real app's event processor running, its upload endpoint mounted as Reflex mounts it."""
    from storefront.settings import get_settings

    migrate(get_settings().database_url)
    async with upload_client() as client:
        yield client


def _on_the_tabs_page(gettext, message: str) -> str:
    """`message` as the tab's page (FORM_PATH, in the default edition) says it: the guard makes
    each event speak its page's language."""
    with i18n.on_page(FORM_PATH):
        return gettext(message)


def _router(cookie: str, path: str = FORM_PATH) -> dict:
    return {"pathname": path, "asPath": path, "query": {}, "headers": {"cookie": cookie}}


class SignedInTab:
    """A hydrated tab of a signed-in user, sending events as its browser would."""

    def __init__(self) -> None:
        from storefront.services.accounts import auth
        from storefront.settings import get_settings

        self.user_id, _email, session_token = signed_in_account(
            get_settings().database_url, password="a long pass phrase 42", full_name="Uploader"
        )
        self.cookie = f"{auth.COOKIE_NAME}={session_token}"
        self.token = str(uuid.uuid4())

    async def send(self, handler_name: str, **payload) -> None:
        """The event and everything it chains, to the end."""
        from reflex.event import Event

        import storefront.storefront as site

        event = Event(name=handler_name, payload=payload, router_data=_router(self.cookie))
        async for _delta in site.app.event_processor.enqueue_stream_delta(self.token, event):
            pass

    async def forge(self, handler_name: str, **payload) -> None:
        """The event enqueued as a flood sends it: without waiting for its answer."""
        from reflex.event import Event

        import storefront.storefront as site

        event = Event(name=handler_name, payload=payload, router_data=_router(self.cookie))
        await site.app.event_processor.enqueue(self.token, event)

    async def click(self, handler_name: str) -> None:
        """The upload button's first handler, as the click sends it just before the file; not
        waiting for what it might chain (the old progress loop never ended)."""
        await self.forge(handler_name)
        await asyncio.sleep(0.1)

    async def hydrate(self) -> SignedInTab:
        from reflex.state import State

        await self.send(f"{State.get_full_name()}.hydrate")
        return self

    async def state(self, state_class):
        """The tab's state as the server holds it."""
        import reflex as rx

        import storefront.storefront as site

        async with site.app.modify_state(
            rx.BaseStateToken(ident=self.token, cls=state_class)
        ) as root:
            return await root.get_state(state_class)

    async def upload(self, api: httpx.AsyncClient, handler_name: str, data: bytes) -> str:
        answer = await api.post(
            "/_upload",
            files={"files": ("photo.png", data, "image/png")},
            headers={"reflex-client-token": self.token, "reflex-event-handler": handler_name},
        )
        assert answer.status_code == 200, answer.text
        return answer.text


def a_png(seed: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (16, 12), (seed % 256, 40, 90)).save(buffer, format="PNG")
    return buffer.getvalue()


def _handler(state_class, name: str) -> str:
    return f"{state_class.get_full_name()}.{name}"


def _running() -> int:
    return len([task for task in asyncio.all_tasks() if not task.done()])


async def test_fifty_forged_progress_calls_start_no_lasting_work(app_api):
    from storefront.state.service_form import ServiceFormState

    tab = await SignedInTab().hydrate()
    await tab.send(_handler(ServiceFormState, "load"))
    before = _running()
    # What the report sent: the click's handler once, then the progress handler by name, over
    # and over, with no upload ever coming.
    await tab.forge(_handler(ServiceFormState, "begin_upload"))
    for _ in range(50):
        await tab.forge(_handler(ServiceFormState, "advance_upload_progress"))
        await tab.forge(_handler(ServiceFormState, "upload_progressed"), progress={"progress": 1})
    await asyncio.sleep(1.5)
    after = _running()
    assert after <= before + 2, f"{after - before} tasks still running after the flood"


async def test_a_real_upload_still_shows_progress_to_its_end(app_api, monkeypatch):
    from storefront.state import uploads
    from storefront.state.account import ProfileState

    clock = FakeClock()
    monkeypatch.setattr(uploads, "clock", clock)
    tab = await SignedInTab().hydrate()
    await tab.send(_handler(ProfileState, "load"))
    running = _running()
    await tab.click(_handler(ProfileState, "begin_upload"))
    shown = []
    for sent in (0.05, 0.1, 0.15):
        clock.advance(0.35)
        await tab.send(_handler(ProfileState, "upload_progressed"), progress={"progress": sent})
        shown.append((await tab.state(ProfileState)).upload_progress)
    assert shown == sorted(shown) and shown[-1] > shown[0] > 0, shown  # The spec's steps
    assert shown[-1] <= 90
    await tab.send(_handler(ProfileState, "upload_progressed"), progress={"progress": 1})
    assert (await tab.state(ProfileState)).upload_progress == 90  # held until the server has it
    await tab.upload(app_api, _handler(ProfileState, "upload_avatar"), a_png(7))
    state = await tab.state(ProfileState)
    assert (state.uploading, state.upload_progress, state.upload_error) == (False, 100, "")
    assert state.notice == _on_the_tabs_page(i18n._, "Avatar updated successfully!")
    # Reports arriving after the end move nothing, and start nothing.
    await tab.send(_handler(ProfileState, "upload_progressed"), progress={"progress": 0.5})
    assert (await tab.state(ProfileState)).upload_progress == 100
    assert _running() <= running + 2, "work outlived the upload"


def _stored(media_dir) -> set[str]:
    folder = media_dir / "services"
    return {p.name for p in folder.glob("*")} if folder.exists() else set()


async def test_upload_and_remove_eight_times_leaves_only_what_the_form_holds(app_api, media_dir):
    from storefront.state.service_form import ServiceFormState

    tab = await SignedInTab().hydrate()
    await tab.send(_handler(ServiceFormState, "load"))
    before = _stored(media_dir)
    for seed in range(8):
        await tab.click(_handler(ServiceFormState, "begin_upload"))
        await tab.upload(app_api, _handler(ServiceFormState, "upload_image"), a_png(seed))
        state = await tab.state(ServiceFormState)
        assert state.upload_error == "" and len(state.images) == 1
        await tab.send(_handler(ServiceFormState, "remove_image"), index=0)
    assert _stored(media_dir) - before == set(), "removed images stayed in storage"

    # The cap counts what the server stored for this form, whatever the tab shows.
    for seed in range(6):
        await tab.click(_handler(ServiceFormState, "begin_upload"))
        await tab.upload(app_api, _handler(ServiceFormState, "upload_image"), a_png(seed))
    state = await tab.state(ServiceFormState)
    assert len(state.images) == 5
    assert state.upload_error == _on_the_tabs_page(
        i18n._s, "Maximum of {max_images} images allowed"
    ).format(max_images=5)
    assert len(_stored(media_dir) - before) == 5
