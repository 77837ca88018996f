"""The contact page's quote form."""

from __future__ import annotations

import logging

import reflex as rx

from storefront.i18n import N_, _
from storefront.services.messaging import contact_form as contact
from storefront.state.access import access
from storefront.state.base import call_service

log = logging.getLogger(__name__)

SUCCESS = N_("Your message was sent successfully. We will be in touch soon.")
FAILURE = N_("Something went wrong. Please try again later.")
TOO_MANY = N_("Too many messages from here. Please try again in {minutes} min.")
FIELDS = ("name", "email", "phone", "event_type", "event_date", "message", "submission_key")


@access("public")
class ContactState(rx.State):
    status: str = "idle"  # idle | submitting | success | error
    errors: dict[str, str] = {}
    # Sent with the form (a hidden field): the server stores one message per key.
    form_key: str = ""

    @rx.event
    def open_form(self):
        self._new_form()

    def _new_form(self) -> None:
        """Each form shown gets its own key."""
        self.status, self.errors, self.form_key = "idle", {}, contact.new_submission_key()

    @rx.event
    async def submit(self, form: dict):
        if self.status == "submitting" or not isinstance(form, dict):
            return
        request = contact.ContactRequest(**{f: str(form.get(f) or "")[:6000] for f in FIELDS})
        self.status, self.errors = "submitting", {}
        yield
        try:
            await call_service(contact.submit, request=request, ip=self.router.session.client_ip)
        except contact.ContactError as exc:
            if exc.code == "rate_limited":
                minutes = max(1, round(int(exc.details.get("retry_after", 60)) / 60))
                self.errors = {"form": _(TOO_MANY).format(minutes=minutes)}
                self.status = "idle"
                return
            # The service's messages: the spec's where the spec names one ('Email is invalid').
            messages = exc.details.get("messages", {})
            self.errors = {
                field: messages.get(field, _("This field is invalid"))
                for field in exc.details.get("fields", {})
            }
            self.status = "idle"
        except Exception:
            log.exception("storing a contact request failed")
            self.status = "error"
        else:
            self.status = "success"

    @rx.event
    def send_another(self):
        self._new_form()
