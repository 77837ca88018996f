"""What every image upload shows while it runs (docs/product.md §4, 5), for any state that uploads:
progress
that rises while the file is sent, a busy flag that disables the button, and the spec's message
when the picker or a drop refuses a file. The page draws it with components/image_upload.py.

No handler here starts work of its own (issue 18, finding 2): the bar moves only when the
browser reports the bytes it has sent (`upload_progressed`, several times a second while a file
is on its way), to the spec's steps of 10% per 300 ms since the click or the share actually sent,
whichever is ahead, held at 90% until the upload handler has the file. So nothing runs once the
upload has ended or the tab has gone, and a report after PROGRESS_MAX_SECONDS moves nothing."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import ClassVar

import reflex as rx

from storefront.i18n import N_, _
from storefront.services.errors import ServiceError
from storefront.services.media import storage

# docs/product.md §4: 10% every 300 ms, held at 90% until the server has the file.
PROGRESS_STEP = 10
PROGRESS_EVERY_SECONDS = 0.3
PROGRESS_HOLD = 90
# An upload still reporting after this long moves the bar no more (the body cap of one image
# takes far less even on a slow line); a new click starts a new upload.
PROGRESS_MAX_SECONDS = 300
clock = time.time  # what the progress steps are timed by; tests move their own (tests/clock.py)
# The codes react-dropzone gives a refused file.
REFUSAL_CODES = {
    "file-invalid-type": "wrong_type",
    "file-too-large": "too_large",
    "too-many-files": "too_many",
}


def shown(text: str, values: Mapping[str, object] | None = None) -> str:
    """`text` (SPEC's English words, marked with N_) in the language of the moment, its
    `{placeholders}` filled from `values`."""
    translated = _(text)
    return translated.format(**values) if values else translated


def refusal_message(
    exc: ServiceError,
    messages: dict[str, str],
    fallback: str,
    values: Mapping[str, object] | None = None,
) -> str:
    """The words for a refused upload: the account's limits (storage.LIMIT_CODES: uploads per
    hour, storage quota) say their own, with their numbers; the rest are the state's, by code
    (N_-marked texts, translated here; `values` fill their placeholders)."""
    if exc.code in storage.LIMIT_CODES:
        return exc.message
    return shown(messages.get(exc.code, fallback), values)


class ImageUploadMixin(rx.State, mixin=True):
    upload_progress: int = 0
    uploading: bool = False
    upload_error: str = ""
    _upload_started: float = 0.0  # clock() of the click that began the running upload

    # The spec's words for a refused file (N_-marked, shown translated); a state uploading
    # other images sets its own, and the values of their {placeholders} if they have any.
    upload_messages: ClassVar[dict[str, str]] = {
        "wrong_type": N_("Please upload an image file"),
        "too_large": N_("Image size should be less than 2MB"),
        "too_many": N_("Please upload only one image at a time"),
    }
    upload_message_values: ClassVar[dict[str, object]] = {}

    @rx.event
    def begin_upload(self):
        """Runs in the click that starts the upload, before the file is sent. Starts nothing:
        a click while an upload runs (or a forged call) only leaves that upload as it is."""
        if self.uploading and clock() - self._upload_started < PROGRESS_MAX_SECONDS:
            return
        self.uploading, self.upload_progress, self.upload_error = True, 0, ""
        self._upload_started = clock()

    @rx.event
    def upload_progressed(self, progress: dict):
        """The browser's count of bytes sent: the bar shows the spec's steps since the click or
        the share sent, whichever is ahead, never past 90% and never backwards."""
        if not self.uploading:
            return
        try:
            fraction = float(progress.get("progress", 0))
        except (AttributeError, TypeError, ValueError):
            return
        elapsed = clock() - self._upload_started
        if not 0 <= elapsed <= PROGRESS_MAX_SECONDS or fraction != fraction:  # NaN
            return
        steps = int(elapsed / PROGRESS_EVERY_SECONDS) * PROGRESS_STEP
        share = int(min(max(fraction, 0.0), 1.0) * 100)
        self.upload_progress = max(self.upload_progress, min(PROGRESS_HOLD, max(steps, share)))

    @rx.event
    def upload_refused(self, refused: list):
        """The picker or a drop turned the files down (type, size or count): say why. The
        browser sends the refusal codes of each file (components/image_upload.refusal_codes),
        never the file."""
        reasons = {
            REFUSAL_CODES.get(str(code), "wrong_type")
            for codes in (refused if isinstance(refused, list) else [])
            for code in (codes if isinstance(codes, list) else [codes])
        }
        for reason in ("wrong_type", "too_large", "too_many"):
            if reason in reasons:
                self.upload_error = shown(self.upload_messages[reason], self.upload_message_values)
                return
        self.upload_error = shown(self.upload_messages["wrong_type"], self.upload_message_values)

    def _finish_upload(self, *, error: str = "") -> None:
        """The upload ended: full bar on success, the error otherwise."""
        self.upload_progress = 100 if not error else 0
        self.upload_error = error
        self.uploading = False
