"""The Bouncers page: bouncer options, packages and photos, loaded once per visit."""

from __future__ import annotations

import logging

import reflex as rx

from storefront.i18n import N_, _
from storefront.services.catalog import showcase
from storefront.services.errors import ServiceError
from storefront.state.access import access
from storefront.state.base import call_service

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
        self.options = page.options
        self.bubble_packages = page.packages["bouncer"]
        self.castle_packages = page.packages["castle"]
        self.combo_packages = page.packages["combo"]
        self.banner = page.banner
        self.strip = page.strip
        self.bubbles = page.bubbles
        self.bouncers = page.bouncers
        self.error = ""
        self.loaded = True

    def _failed(self, message: str) -> None:
        self.error = message
        self.loaded = True
