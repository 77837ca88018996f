"""The Mascots page: characters, packages and photos, loaded once per visit; a character's
detail dialog reads its longer texts when it opens."""

from __future__ import annotations

import logging

import reflex as rx

from storefront.i18n import N_, _
from storefront.services.catalog import showcase
from storefront.services.errors import ServiceError
from storefront.state.access import access
from storefront.state.base import call_service, set_changed
from storefront.state.errors import log_failure

log = logging.getLogger(__name__)

UNKNOWN_ERROR = N_("Unknown error occurred")
DETAILS_FAILED = N_("This mascot's details could not be loaded. Please try again.")
# A service id is a UUID (36 characters); anything longer names nothing.
MAX_ID_LENGTH = 64
NO_DETAILS = showcase.MascotDescription(id="", full_description="", suitable_for=[])


@access("public", catalogue_only=True)
class MascotsState(rx.State):
    mascots: list[showcase.Mascot] = []
    mascot_packages: list[showcase.Package] = []
    activity_packages: list[showcase.Package] = []
    banner: list[showcase.Photo] = []
    works: list[showcase.Photo] = []
    error: str = ""
    loaded: bool = False
    # The texts of the character whose detail dialog opened last (`id` says which), and what
    # to say instead when they could not be read.
    details: showcase.MascotDescription = NO_DETAILS
    details_error: str = ""

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
        set_changed(
            self,
            mascots=page.mascots,
            mascot_packages=page.packages["mascot"],
            activity_packages=page.packages["mascot-activities"],
            banner=page.banner,
            works=page.works,
            error="",
            loaded=True,
        )

    def _failed(self, message: str) -> None:
        self.error = message
        self.mascots = []
        self.loaded = True

    @rx.event
    async def show_details(self, mascot_id: str):
        """Read the detail dialog's texts of `mascot_id` (the dialog opens at once with what its
        slide has; it shows these when `details.id` is its character's)."""
        if not isinstance(mascot_id, str) or not 0 < len(mascot_id) <= MAX_ID_LENGTH:
            return
        try:
            details = await call_service(showcase.mascot_details, mascot_id=mascot_id)
        except ServiceError:
            self._details_failed(mascot_id)
            return
        except Exception as exc:
            log_failure("MascotsState.show_details", exc, mascot=mascot_id)
            self._details_failed(mascot_id)
            return
        self.details = details
        self.details_error = ""

    def _details_failed(self, mascot_id: str) -> None:
        self.details = showcase.MascotDescription(
            id=mascot_id, full_description="", suitable_for=[]
        )
        self.details_error = _(DETAILS_FAILED)
