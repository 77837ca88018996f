"""The structured data (schema.org JSON-LD) of the page being shown."""

from __future__ import annotations

import logging

import reflex as rx

from storefront.services.catalog import seo
from storefront.state.access import access
from storefront.state.base import call_service

log = logging.getLogger(__name__)


@access("public", catalogue_only=True)
class SeoState(rx.State):
    json_ld: str = ""

    @rx.event
    async def load(self):
        self.json_ld = ""
        try:
            found = await call_service(seo.structured_data, path=self.router.url.path)
        except Exception:  # a page without structured data still works
            log.exception("building the structured data of %r failed", self.router.url.path)
            return
        self.json_ld = seo.json_ld(found)
