"""The Mascots page: characters, packages and photos, loaded once per visit."""

from __future__ import annotations

import logging

import reflex as rx

from storefront.i18n import N_, _
from storefront.services import showcase
from storefront.services.errors import ServiceError
from storefront.state.access import access
from storefront.state.base import call_service

log = logging.getLogger(__name__)

UNKNOWN_ERROR = N_("Unknown error occurred")


@access("public")
class MascotsState(rx.State):
    mascots: list[showcase.Mascot] = []
    mascot_packages: list[showcase.Package] = []
    activity_packages: list[showcase.Package] = []
    banner: list[showcase.Photo] = []
    works: list[showcase.Photo] = []
    error: str = ""
    loaded: bool = False

    @rx.event
    async def load(self):
        try:
            page = await call_service(showcase.mascots_page)
        except ServiceError as exc:
            self._failed(exc.message)
            return
        except Exception:
            log.exception("loading the mascots page failed")
            self._failed(_(UNKNOWN_ERROR))
            return
        self.mascots = page.mascots
        self.mascot_packages = page.packages["mascot"]
        self.activity_packages = page.packages["mascot-activities"]
        self.banner = page.banner
        self.works = page.works
        self.error = ""
        self.loaded = True

    def _failed(self, message: str) -> None:
        self.error = message
        self.mascots = []
        self.loaded = True
