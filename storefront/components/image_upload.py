"""The one image upload control: a picker that takes one image (click or drop), the button,
a progress bar while the file is sent, and the spec's message when a file is refused. Its state
side is state/uploads.py's ImageUploadMixin."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from storefront.components.ui import SECONDARY_BUTTON
from storefront.i18n import _

IMAGE_TYPES = {
    "image/png": [".png"],
    "image/jpeg": [".jpg", ".jpeg"],
    "image/webp": [".webp"],
    "image/gif": [".gif"],
}


def refusal_codes(refused: rx.Var) -> rx.Var:
    """react-dropzone's refused files as their error codes only (a list per file). The File
    itself must never reach the server: socket.io would send its bytes over the websocket, and
    a file over the socket's 1 MB frame limit closes the connection, whose reconnect loads the
    page's state afresh and wipes every field typed into the form."""
    return refused.to(ArrayVar).map(
        lambda entry: (
            entry.to(ObjectVar)["errors"]
            .to(ArrayVar)
            .map(lambda error: error.to(ObjectVar)["code"])
        )
    )


def image_upload(
    state,
    *,
    upload_id: str,
    on_upload,
    max_bytes: int,
    prompt: str,
    button_label: str,
    test_id: str,
) -> rx.Component:
    """`state` is an ImageUploadMixin state; `on_upload` its handler taking the files, which
    ends with `_finish_upload`. `prompt` and `button_label` are given translated (`_()`)."""
    chosen = rx.selected_files(upload_id)
    nothing_chosen = chosen.length() == 0
    return rx.el.div(
        rx.upload.root(
            rx.el.div(
                prompt,
                class_name="px-4 py-2 rounded-lg border-2 border-dashed border-slate-300 text-sm "
                "cursor-pointer hover:border-fuchsia-400",
            ),
            id=upload_id,
            accept=IMAGE_TYPES,
            multiple=False,
            max_files=1,
            max_size=max_bytes,
            disabled=state.uploading,
            on_drop_rejected=lambda refused: state.upload_refused(refusal_codes(refused)),
            data_testid=f"{test_id}-input",
        ),
        rx.el.p(
            chosen.join(", "),
            class_name="text-xs text-slate-500",
            data_testid=f"{test_id}-chosen",
        ),
        rx.el.button(
            rx.cond(state.uploading, _("Uploading..."), button_label),
            on_click=[
                state.begin_upload,
                on_upload(
                    rx.upload_files(upload_id=upload_id, on_upload_progress=state.upload_progressed)
                ),
            ],
            disabled=state.uploading | nothing_chosen,
            type="button",
            class_name=SECONDARY_BUTTON + " disabled:opacity-50 disabled:cursor-not-allowed",
            data_testid=f"{test_id}-upload",
        ),
        rx.cond(
            state.uploading,
            rx.el.progress(
                value=state.upload_progress,
                max=100,
                aria_label=_("Upload progress"),
                class_name="upload-progress",
                data_testid=f"{test_id}-progress",
            ),
        ),
        # A newly chosen file replaces the message about the one before.
        rx.cond(
            (state.upload_error != "") & nothing_chosen,
            rx.el.p(
                state.upload_error,
                role="alert",
                class_name="rounded-lg bg-red-50 border border-red-200 text-red-700 px-3 py-2 "
                "text-sm",
                data_testid=f"{test_id}-error",
            ),
        ),
        class_name="flex flex-col gap-2",
    )
