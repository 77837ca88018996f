"""The Bouncers page: bouncer options, packages and photos, loaded once per visit."""

from __future__ import annotations

import logging

import reflex as rx

from storefront.i18n import N_, _
from storefront.services.catalog import showcase
from storefront.services.errors import ServiceError
from storefront.state.access import access
from storefront.state.base import call_service, set_changed

log = logging.getLogger(__name__)

UNKNOWN_ERROR = N_("An unknown error occurred")


@access("public", catalogue_only=True)
class BouncersState(rx.State):
    options: list[showcase.BouncerOption] = []
    bubble_packages: list[showcase.Package] = []
    castle_packages: list[showcase.Package] = []
    combo_packages: list[showcase.Package] = []
    banner: list[showcase.Photo] = []
    strip: list[showcase.Photo] = []
    bubbles: list[showcase.Photo] = []
    bouncers: list[showcase.Photo] = []
    error: str = ""
    loaded: bool = False

    @rx.event
    async def load(self):
        try:
            page = await call_service(showcase.bouncers_page)
        except ServiceError as exc:
            self._failed(exc.message)
            return
        except Exception:
            log.exception("loading the bouncers page failed")
            self._failed(_(UNKNOWN_ERROR))
            return
        set_changed(
            self,
            options=page.options,
            bubble_packages=page.packages["bouncer"],
            castle_packages=page.packages["castle"],
            combo_packages=page.packages["combo"],
            banner=page.banner,
            strip=page.strip,
            bubbles=page.bubbles,
            bouncers=page.bouncers,
            error="",
            loaded=True,
        )

    def _failed(self, message: str) -> None:
        self.error = message
        self.loaded = True
