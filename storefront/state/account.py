"""The account area: overview, profile (name, avatar) and the user's own bookings. Every event
here belongs to an AccountState, so the guard refuses it to guests; each handler also asks the
auth state who is calling and acts on that account only."""

from __future__ import annotations

import dataclasses
import logging
import secrets

import reflex as rx

from storefront.i18n import N_, _
from storefront.services import dates
from storefront.services.accounts import calendar_feed, users
from storefront.services.booking import views as booking_views
from storefront.state.auth import AccountState, AuthState
from storefront.state.base import call_service
from storefront.state.uploads import ImageUploadMixin, refusal_message

log = logging.getLogger(__name__)
UPLOAD_ID = "avatar"
AVATAR_MAX_BYTES = users.AVATAR_MAX_BYTES
# The messages below are SPEC's English words (N_), translated where a handler shows
# them.
TWO_FACTOR_TEXT = N_("This feature is not yet available.")
# ProfileError codes -> the spec's messages (docs/product.md §5 and 8).
PROFILE_MESSAGES = {
    "name_missing": N_("Please enter your full name"),
    "name_too_long": N_("Your name can be at most {max} characters long"),
    "too_large": N_("Image size should be less than 2MB"),
    "not_image": N_("Please upload an image file"),
}
PROFILE_FALLBACK = N_("Failed to update profile")
AVATAR_FALLBACK = N_("Failed to upload avatar")


SERVICES_FAILED = N_("Failed to load your services. Please try again later.")
# A service's status as the account area shows it (the codes stay as they are); a booking's is
# the site's one word for it (`booking_views.status_words`, the confirmation page's too).
SERVICE_STATUS = {"published": N_("published"), "draft": N_("draft")}


def profile_message(code: str) -> str | None:
    """The words for a ProfileError code, in the language of the moment (None: no words)."""
    text = PROFILE_MESSAGES.get(code)
    return _(text).format(max=users.FULL_NAME_MAX) if text else None


def _shown_status(status: str, labels: dict[str, str]) -> str:
    return _label(_(labels[status]) if status in labels else status.replace("_", " "))


def _label(words: str) -> str:
    """A status as a badge says it, its first letter capital ('Pending', 'Në pritje'): the
    word, never the stored code (issue 34: the orders read 'pending')."""
    return words[:1].upper() + words[1:]


class AccountAreaState(AccountState):
    services: list[dict[str, str]] = []
    bookings: list[dict[str, str]] = []
    error: str = ""

    @rx.event
    async def load(self):
        user_id = await self._caller_id()
        if not user_id:
            return
        self.error = ""
        try:
            own = await call_service(users.services_of, user_id=user_id)
        except Exception:
            log.exception("listing a user's services failed")
            own, self.error = [], _(SERVICES_FAILED)
        booked = await call_service(booking_views.bookings_for_user, user_id=user_id)
        self.services = [
            dataclasses.asdict(s) | {"status_label": _shown_status(s.status, SERVICE_STATUS)}
            for s in own
        ]
        self.bookings = [
            dataclasses.asdict(b)
            | {
                "status_label": _label(booking_views.status_words(b.status)),
                "changeable": "yes" if b.changeable else "",
            }
            for b in booked
        ]


class ProfileState(ImageUploadMixin, AccountState):
    full_name: str = ""
    form_key: str = ""  # new at each load: the fields are drawn again from the state
    # Staff and admins: the phone the customer's 'on the way' mail gives (services/messaging/notify.py).
    phone: str = ""
    # An admin's back-office language (storefront/i18n.py); shown to admins only.
    back_office_language: str = "en"
    notice: str = ""
    error: str = ""
    saving: bool = False
    two_factor_notice: str = ""

    @rx.event
    async def load(self):
        auth_state = await self.get_state(AuthState)
        await auth_state._identify()
        self.full_name = auth_state.user_name
        self.phone = (
            await call_service(users.staff_phone, user_id=auth_state._user_id)
            if auth_state.is_staff
            else ""
        )
        self.back_office_language = auth_state._back_office_language
        self.notice = self.error = self.two_factor_notice = self.upload_error = ""
        self.form_key = secrets.token_hex(6)

    @rx.event
    async def save(self, form_data: dict):
        """'Save Changes', with the fields as the browser holds them (components/ui.py: what is
        typed stays typed). A name is kept whole (within reason) so one over the limit is
        refused, not cut."""
        user_id = await self._caller_id()
        if not user_id or self.saving:
            return
        self.full_name = str(form_data.get("full_name") or "")[: users.FULL_NAME_MAX * 4]
        self.phone = str(form_data.get("phone") or "")[:256]
        self.saving, self.notice, self.error = True, "", ""
        yield
        try:
            auth_state = await self.get_state(AuthState)
            await call_service(
                users.update_profile,
                user_id=user_id,
                full_name=self.full_name,
                phone=self.phone if auth_state.is_staff else None,
            )
        except users.ProfileError as exc:
            self.error = profile_message(exc.code) or (
                exc.message
                if exc.code in ("invalid_name", "invalid_phone")
                else _(PROFILE_FALLBACK)
            )
        except Exception:
            log.exception("profile update failed")
            self.error = _(PROFILE_FALLBACK)
        else:
            self.notice = _("Profile updated successfully!")
            auth_state = await self.get_state(AuthState)
            await auth_state._identify()
        self.saving = False

    @rx.event
    async def choose_back_office_language(self, language: str):
        """Saved at once; the back office opens in it from the next page on."""
        user_id = await self._caller_id()
        if not user_id:
            return
        self.notice = self.error = ""
        try:
            await call_service(
                users.set_back_office_language, user_id=user_id, language=str(language)[:8]
            )
        except users.ProfileError:
            self.error = _(PROFILE_FALLBACK)
            return
        except Exception:
            log.exception("back office language update failed")
            self.error = _(PROFILE_FALLBACK)
            return
        self.back_office_language = str(language)[:8]
        auth_state = await self.get_state(AuthState)
        await auth_state._identify()
        self.notice = _("Profile updated successfully!")

    @rx.event
    def show_two_factor(self):
        self.two_factor_notice = _(TWO_FACTOR_TEXT)

    @rx.event
    async def upload_avatar(self, files: list[rx.UploadFile]):
        """Runs once the file has arrived (begin_upload ran at the click)."""
        user_id = await self._caller_id()
        if not user_id:
            self._finish_upload(error=_(AVATAR_FALLBACK))
            return
        self.notice, self.error = "", ""
        if len(files) != 1:
            self._finish_upload(
                error=_("Please upload only one image at a time")
                if files
                else _("No file provided")
            )
            return
        data = await files[0].read(users.AVATAR_MAX_BYTES + 1)
        try:
            await call_service(users.set_avatar, user_id=user_id, data=data)
        except users.ProfileError as exc:
            self._finish_upload(error=refusal_message(exc, PROFILE_MESSAGES, AVATAR_FALLBACK))
        except Exception:
            log.exception("avatar upload failed")
            self._finish_upload(error=_(AVATAR_FALLBACK))
        else:
            self._finish_upload()
            self.notice = _("Avatar updated successfully!")
            auth_state = await self.get_state(AuthState)
            await auth_state._identify()
        yield rx.clear_selected_files(UPLOAD_ID)


# The calendar subscription of admins and staff (services/accounts/calendar_feed.py), in the words of the
# rest of this page (N_), translated where a handler shows them.
FEED_MESSAGES = {
    "not_allowed": N_("The calendar subscription is for admins and staff."),
    "two_factor_required": N_(
        "Set up two-factor sign-in (Account, Security) to use the calendar subscription."
    ),
}
FEED_FALLBACK = N_("Something went wrong. Please try again.")
FEED_ON = N_("Your calendar address is ready. Copy it now: it is shown only once.")
FEED_REPLACED = N_(
    "A new address is ready; the old one no longer works. Copy it now: it is shown only once."
)
FEED_OFF = N_("The calendar subscription is off; its address no longer works.")


class CalendarFeedState(AccountState):
    """The profile's 'Calendar subscription', for admins and staff: the guard lets any
    signed-in caller send these events, and the service checks the role in the database."""

    allowed: bool = False
    enabled: bool = False
    since: str = ""
    last_used: str = ""
    # The new address, shown once: gone at the next page load.
    url: str = ""
    webcal_url: str = ""
    notice: str = ""
    error: str = ""
    busy: bool = False

    def _show(self, status: calendar_feed.FeedStatus) -> None:
        self.allowed, self.enabled = status.allowed, status.enabled
        self.since = dates.local_date(status.created_at) if status.created_at else ""
        last = status.last_used_at
        self.last_used = f"{dates.local_date(last)} {dates.local_time(last)}" if last else ""

    def _failed(self, exc: Exception) -> None:
        if isinstance(exc, calendar_feed.CalendarFeedError) and exc.code in FEED_MESSAGES:
            self.error = _(FEED_MESSAGES[exc.code])
        else:
            log.error("calendar subscription change failed", exc_info=exc)
            self.error = _(FEED_FALLBACK)

    @rx.event
    async def load(self):
        self.url = self.webcal_url = self.notice = self.error = ""
        self.busy = False
        user_id = await self._caller_id()
        if not user_id:
            return
        self._show(await call_service(calendar_feed.status, user_id=user_id))

    @rx.event
    async def turn_on(self):
        user_id = await self._caller_id()
        if not user_id or self.busy:
            return
        replacing = self.enabled
        self.busy, self.notice, self.error, self.url, self.webcal_url = True, "", "", "", ""
        yield
        try:
            address = await call_service(calendar_feed.turn_on, user_id=user_id)
            self._show(await call_service(calendar_feed.status, user_id=user_id))
        except Exception as exc:
            self._failed(exc)
        else:
            self.url, self.webcal_url = address.url, address.webcal_url
            self.notice = _(FEED_REPLACED if replacing else FEED_ON)
        self.busy = False

    @rx.event
    async def turn_off(self):
        user_id = await self._caller_id()
        if not user_id or self.busy:
            return
        self.busy, self.notice, self.error, self.url, self.webcal_url = True, "", "", "", ""
        yield
        try:
            await call_service(calendar_feed.turn_off, user_id=user_id)
            self._show(await call_service(calendar_feed.status, user_id=user_id))
        except Exception as exc:
            self._failed(exc)
        else:
            self.notice = _(FEED_OFF)
        self.busy = False
