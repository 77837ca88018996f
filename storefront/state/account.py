"""The account area: overview, profile (name, avatar) and the user's own bookings. Every event
here belongs to an AccountState, so the guard refuses it to guests; each handler also asks the
auth state who is calling and acts on that account only."""

from __future__ import annotations

import dataclasses
import logging

import reflex as rx

from storefront.services import booking, users
from storefront.state.auth import AccountState, AuthState
from storefront.state.base import call_service

log = logging.getLogger(__name__)
UPLOAD_ID = "avatar"
TWO_FACTOR_TEXT = "This feature is not yet available."
# ProfileError codes -> SPEC's messages (SPEC 5 and 8).
PROFILE_MESSAGES = {
    "name_missing": "Please enter your full name",
    "name_too_long": f"Your name can be at most {users.FULL_NAME_MAX} characters long",
    "too_large": "Image size should be less than 2MB",
    "not_image": "Please upload an image file",
}
PROFILE_FALLBACK = "Failed to update profile"
AVATAR_FALLBACK = "Failed to upload avatar"


class AccountAreaState(AccountState):
    services: list[dict[str, str]] = []
    bookings: list[dict[str, str]] = []

    @rx.event
    async def load(self):
        user_id = await self._caller_id()
        if not user_id:
            return
        own = await call_service(users.services_of, user_id=user_id)
        booked = await call_service(booking.bookings_for_user, user_id=user_id)
        self.services = [dataclasses.asdict(s) for s in own]
        self.bookings = [dataclasses.asdict(b) for b in booked]


class ProfileState(AccountState):
    full_name: str = ""
    notice: str = ""
    error: str = ""
    saving: bool = False
    upload_progress: int = 0
    uploading: bool = False
    two_factor_notice: str = ""

    @rx.event
    async def load(self):
        auth_state = await self.get_state(AuthState)
        await auth_state._identify()
        self.full_name = auth_state.user_name
        self.notice = self.error = self.two_factor_notice = ""

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
            self.error = PROFILE_MESSAGES.get(exc.code, PROFILE_FALLBACK)
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
    def upload_progressed(self, progress: dict):
        """The browser reports progress; SPEC shows it rising and holding at 90% until done."""
        try:
            fraction = float(progress.get("progress", 0))
        except (AttributeError, TypeError, ValueError):
            return
        self.upload_progress = min(90, int(fraction * 100))

    @rx.event
    async def upload_avatar(self, files: list[rx.UploadFile]):
        user_id = await self._caller_id()
        if not user_id:
            return
        self.notice, self.error = "", ""
        if len(files) != 1:
            self.error = "Please upload only one image at a time" if files else "No file provided"
            return
        self.uploading = True
        yield
        upload = files[0]
        data = await upload.read(users.AVATAR_MAX_BYTES + 1)
        try:
            await call_service(users.set_avatar, user_id=user_id, data=data)
        except users.ProfileError as exc:
            self.error = PROFILE_MESSAGES.get(exc.code, AVATAR_FALLBACK)
        except Exception:
            log.exception("avatar upload failed")
            self.error = AVATAR_FALLBACK
        else:
            self.upload_progress = 100
            self.notice = "Avatar updated successfully!"
            auth_state = await self.get_state(AuthState)
            await auth_state._identify()
        self.uploading = False
        yield rx.clear_selected_files(UPLOAD_ID)
