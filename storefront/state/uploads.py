"""What every image upload shows while it runs (SPEC 4, 5), for any state that uploads: progress
that rises while the file is sent, a busy flag that disables the button, and SPEC's message
when the picker or a drop refuses a file. The page draws it with components/image_upload.py."""

from __future__ import annotations

import asyncio
from typing import ClassVar

import reflex as rx

# SPEC 4: 10% every 300 ms, held at 90% until the server has the file.
PROGRESS_STEP = 10
PROGRESS_EVERY_SECONDS = 0.3
PROGRESS_HOLD = 90
# The codes react-dropzone gives a refused file.
REFUSAL_CODES = {
    "file-invalid-type": "wrong_type",
    "file-too-large": "too_large",
    "too-many-files": "too_many",
}


class ImageUploadMixin(rx.State, mixin=True):
    upload_progress: int = 0
    uploading: bool = False
    upload_error: str = ""
    _upload_run: int = 0

    # SPEC's words for a refused file; a state uploading other images sets its own.
    upload_messages: ClassVar[dict[str, str]] = {
        "wrong_type": "Please upload an image file",
        "too_large": "Image size should be less than 2MB",
        "too_many": "Please upload only one image at a time",
    }

    @rx.event
    def begin_upload(self):
        """Runs in the click that starts the upload, before the file is sent."""
        self.uploading, self.upload_progress, self.upload_error = True, 0, ""
        self._upload_run += 1
        return type(self).advance_upload_progress

    @rx.event(background=True)
    async def advance_upload_progress(self):
        async with self:
            run = self._upload_run
        while True:
            await asyncio.sleep(PROGRESS_EVERY_SECONDS)
            async with self:
                if not self.uploading or self._upload_run != run:
                    return
                self.upload_progress = min(PROGRESS_HOLD, self.upload_progress + PROGRESS_STEP)

    @rx.event
    def upload_progressed(self, progress: dict):
        """The browser's own count of bytes sent: it may run ahead of the steps, never past 90%."""
        try:
            fraction = float(progress.get("progress", 0))
        except (AttributeError, TypeError, ValueError):
            return
        if self.uploading:
            share = min(PROGRESS_HOLD, int(fraction * 100))
            self.upload_progress = max(self.upload_progress, share)

    @rx.event
    def upload_refused(self, refused: list):
        """The picker or a drop turned the files down (type, size or count): say why."""
        reasons = {
            REFUSAL_CODES.get(str(error.get("code")), "wrong_type")
            for entry in (refused if isinstance(refused, list) else [])
            if isinstance(entry, dict)
            for error in (entry.get("errors") or [])
            if isinstance(error, dict)
        }
        for reason in ("wrong_type", "too_large", "too_many"):
            if reason in reasons:
                self.upload_error = self.upload_messages[reason]
                return
        self.upload_error = self.upload_messages["wrong_type"]

    def _finish_upload(self, *, error: str = "") -> None:
        """The upload ended: full bar on success, the error otherwise."""
        self.upload_progress = 100 if not error else 0
        self.upload_error = error
        self.uploading = False
