"""The business's details for the footer and the contact page (phone, address, social links)."""

from __future__ import annotations

import logging

import reflex as rx

from storefront.services import business
from storefront.state.access import access
from storefront.state.base import call_service

log = logging.getLogger(__name__)


@access("public", catalogue_only=True)
class BusinessState(rx.State):
    details: dict[str, str] = business.default_details().as_dict()

    @rx.event
    async def load(self):
        try:
            found = await call_service(business.business_details)
        except Exception:  # the defaults stay; the page still works
            log.exception("reading the business settings failed")
            return
        self.details = found.as_dict()
