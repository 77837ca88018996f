"""'Set up' on the day sheet (issue 37, item 5; services/operations/delivery.py): the crew opens
a job's small form, types who received it, may take a photo (sent as soon as it is chosen, kept
as a draft upload) and saves. A StaffState: the guard refuses its events to anyone else, and the
service checks the crew and the day again for each event.

What was typed is the browser's (`kept_input`, read on submit), so a refused photo or a refused
name leaves it as it is; each refusal is said beside its field."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import N_o, _, _o
from storefront.services.fields import FieldError
from storefront.services.media.images import MAX_BYTES, StorageError
from storefront.services.operations import delivery
from storefront.state.auth import AdminState, StaffState
from storefront.state.base import call_service
from storefront.state.errors import log_failure
from storefront.state.uploads import REFUSAL_CODES

UPLOAD_ID = "set-up-photo"
PHOTO_MAX_BYTES = MAX_BYTES["delivery"]
SAVE_FAILED = N_o("Failed to mark it set up. Please try again.")
PHOTO_FAILED = N_o("Failed to keep the photo. Please try again.")
NOT_AN_IMAGE = N_o("Please choose a photo (JPEG, PNG or WebP).")
TOO_LARGE = N_o("The photo is too large. Maximum size is {max_mb} MB.")
ONE_PHOTO = N_o("Please choose one photo.")


class SetUpState(StaffState):
    open_for: str = ""  # the booking whose form is open
    name_error: str = ""
    photo_error: str = ""
    photo_path: str = ""  # the draft upload of the open form
    photo_url: str = ""
    uploading: bool = False
    saving: bool = False
    # What this tab marked: booking id -> the sheet's line (the sheet's row says it after a load).
    done: dict[str, str] = {}

    def _clear(self) -> None:
        self.name_error = self.photo_error = self.photo_path = self.photo_url = ""
        self.uploading = self.saving = False

    @rx.event
    def open(self, booking_id: str):
        self._clear()
        self.open_for = str(booking_id)[:64]
        return rx.clear_selected_files(UPLOAD_ID)

    @rx.event
    def close(self):
        self._clear()
        self.open_for = ""

    @rx.event
    def photo_refused(self, codes: list):
        """The browser refused the chosen file (its error codes only, never the file)."""
        found = {REFUSAL_CODES.get(str(c)) for entry in codes or [] for c in (entry or [])}
        if "too_large" in found:
            self.photo_error = _o(TOO_LARGE).format(max_mb=PHOTO_MAX_BYTES // (1024 * 1024))
        elif "too_many" in found:
            self.photo_error = _o(ONE_PHOTO)
        else:
            self.photo_error = _o(NOT_AN_IMAGE)

    @rx.event
    async def upload_photo(self, files: list[rx.UploadFile]):
        caller = await self._staff_id()
        if not caller or not self.open_for:
            return
        self.photo_error = ""
        if len(files) != 1:
            self.photo_error = _o(ONE_PHOTO)
            return
        data = await files[0].read(PHOTO_MAX_BYTES + 1)
        try:
            path, url = await call_service(
                delivery.store_photo, actor_id=caller, booking_id=self.open_for, data=data
            )
        except StorageError as exc:
            self.photo_error = self._photo_refusal(exc)
        except delivery.DeliveryError as exc:
            self.photo_error = _o(exc.message)
        except Exception as exc:
            log_failure("SetUpState.upload_photo", exc, booking=self.open_for)
            self.photo_error = _o(PHOTO_FAILED)
        else:
            self.photo_path, self.photo_url = path, url
        yield rx.clear_selected_files(UPLOAD_ID)

    @staticmethod
    def _photo_refusal(exc: StorageError) -> str:
        if exc.code == "too_large":
            return _o(TOO_LARGE).format(max_mb=PHOTO_MAX_BYTES // (1024 * 1024))
        if exc.code in ("not_image", "bad_type", "no_file"):
            return _o(NOT_AN_IMAGE)
        return exc.message or _(PHOTO_FAILED)  # the account's limits say their own

    @rx.event
    async def save(self, form: dict | None = None):
        caller = await self._staff_id()
        if not caller or not self.open_for or self.saving:
            return
        received_by = str((form or {}).get("received_by", ""))[:1000]
        self.name_error, self.saving = "", True
        yield
        try:
            shown = await call_service(
                delivery.mark_set_up,
                actor_id=caller,
                booking_id=self.open_for,
                received_by=received_by,
                photo=self.photo_path or None,
            )
        except FieldError as exc:
            self.name_error = exc.message
        except delivery.DeliveryError as exc:
            self.name_error = _o(exc.message)
        except Exception as exc:
            log_failure("SetUpState.save", exc, booking=self.open_for)
            self.name_error = _o(SAVE_FAILED)
        else:
            self.done[self.open_for] = delivery.sheet_line(shown)
            self._clear()
            self.open_for = ""
        self.saving = False


class SetUpProofState(AdminState):
    """The proof of delivery in the admin's booking detail (pages/admin/bookings.py): when, by
    whom, received by, the photo. Shown by the detail's opening (AdminBookingsState)."""

    proof: dict[str, str] = {}

    @rx.event
    async def show(self, booking_id: str):
        self.proof = {}
        caller = await self._admin_id()
        if not caller:
            return
        try:
            found = await call_service(
                delivery.proof, actor_id=caller, booking_id=str(booking_id)[:64]
            )
        except Exception as exc:  # the detail says its own errors; this part stays empty
            log_failure("SetUpProofState.show", exc, booking=booking_id)
            return
        if found.at:
            self.proof = {
                "when": f"{found.day} {found.at}",
                "by": found.by or "—",
                "received_by": found.received_by,
                "photo": found.photo_url,
            }
