"""The account area: overview, profile (name, avatar) and the user's own bookings. Every event
here belongs to an AccountState, so the guard refuses it to guests; each handler also asks the
auth state who is calling and acts on that account only."""

from __future__ import annotations

import dataclasses
import logging

import reflex as rx

from storefront.services import booking_views, users
from storefront.state.auth import AccountState, AuthState
from storefront.state.base import call_service
from storefront.state.uploads import ImageUploadMixin, refusal_message

log = logging.getLogger(__name__)
UPLOAD_ID = "avatar"
AVATAR_MAX_BYTES = users.AVATAR_MAX_BYTES
TWO_FACTOR_TEXT = "This feature is not yet available."
# ProfileError codes -> the spec's messages (docs/product.md §5 and 8).
PROFILE_MESSAGES = {
    "name_missing": "Please enter your full name",
    "name_too_long": f"Your name can be at most {users.FULL_NAME_MAX} characters long",
    "too_large": "Image size should be less than 2MB",
    "not_image": "Please upload an image file",
}
PROFILE_FALLBACK = "Failed to update profile"
AVATAR_FALLBACK = "Failed to upload avatar"


SERVICES_FAILED = "Failed to load your services. Please try again later."


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
            own, self.error = [], SERVICES_FAILED
        booked = await call_service(booking_views.bookings_for_user, user_id=user_id)
        self.services = [dataclasses.asdict(s) for s in own]
        self.bookings = [dataclasses.asdict(b) for b in booked]


class ProfileState(ImageUploadMixin, AccountState):
    full_name: str = ""
    notice: str = ""
    error: str = ""
    saving: bool = False
    two_factor_notice: str = ""

    @rx.event
    async def load(self):
        auth_state = await self.get_state(AuthState)
        await auth_state._identify()
        self.full_name = auth_state.user_name
        self.notice = self.error = self.two_factor_notice = self.upload_error = ""

    @rx.event
    def type_name(self, value: str):
        # Kept whole (within reason) so that a name over the limit is refused, not cut.
        self.full_name = str(value)[: users.FULL_NAME_MAX * 4]

    @rx.event
    async def save(self):
        user_id = await self._caller_id()
        if not user_id or self.saving:
            return
        self.saving, self.notice, self.error = True, "", ""
        yield
        try:
            await call_service(users.update_full_name, user_id=user_id, full_name=self.full_name)
        except users.ProfileError as exc:
            self.error = PROFILE_MESSAGES.get(exc.code) or (
                exc.message if exc.code == "invalid_name" else PROFILE_FALLBACK
            )
        except Exception:
            log.exception("profile update failed")
            self.error = PROFILE_FALLBACK
        else:
            self.notice = "Profile updated successfully!"
            auth_state = await self.get_state(AuthState)
            await auth_state._identify()
        self.saving = False

    @rx.event
    def show_two_factor(self):
        self.two_factor_notice = TWO_FACTOR_TEXT

    @rx.event
    async def upload_avatar(self, files: list[rx.UploadFile]):
        """Runs once the file has arrived (begin_upload ran at the click)."""
        user_id = await self._caller_id()
        if not user_id:
            self._finish_upload(error="Failed to upload avatar")
            return
        self.notice, self.error = "", ""
        if len(files) != 1:
            self._finish_upload(
                error="Please upload only one image at a time" if files else "No file provided"
            )
            return
        data = await files[0].read(users.AVATAR_MAX_BYTES + 1)
        try:
            await call_service(users.set_avatar, user_id=user_id, data=data)
        except users.ProfileError as exc:
            self._finish_upload(error=refusal_message(exc, PROFILE_MESSAGES, AVATAR_FALLBACK))
        except Exception:
            log.exception("avatar upload failed")
            self._finish_upload(error=AVATAR_FALLBACK)
        else:
            self._finish_upload()
            self.notice = "Avatar updated successfully!"
            auth_state = await self.get_state(AuthState)
            await auth_state._identify()
        yield rx.clear_selected_files(UPLOAD_ID)
