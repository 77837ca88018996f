"""'Set up' on a day sheet's job (issue 37, item 5; state/set_up.py): what the job says once it
is set up, the button, and its small form: who received it, a photo from the phone's camera,
Save. Big targets, as the rest of the sheet."""

from __future__ import annotations

import reflex as rx

from storefront.components.image_upload import refusal_codes
from storefront.components.ui import kept_input
from storefront.i18n import _o
from storefront.state.set_up import PHOTO_MAX_BYTES, UPLOAD_ID
from storefront.state.set_up import SetUpProofState as P
from storefront.state.set_up import SetUpState as S

BIG = (
    "inline-flex items-center justify-center gap-2 min-h-[48px] px-4 rounded-xl text-base "
    "font-semibold"
)
DARK = f"{BIG} text-white bg-emerald-700 hover:bg-emerald-800 disabled:opacity-50"
PLAIN = f"{BIG} border-2 border-slate-800 text-slate-900 bg-white hover:bg-slate-100"
ERROR = "mt-1 text-red-700 font-medium"


def _camera_input(upload: rx.Component) -> rx.Component:
    """The dropzone's own file input opens the back camera on a phone (`capture`); Reflex's
    upload has no prop for it, so it is set on the input it makes (a desktop ignores it)."""
    zone = upload.children[0]
    zone.children[0].custom_attrs["capture"] = "environment"
    return upload


def _photo() -> rx.Component:
    return rx.el.div(
        rx.el.span(_o("Photo"), class_name="font-semibold"),
        _camera_input(
            rx.upload.root(
                rx.el.div(
                    rx.icon("camera", size=22),
                    rx.cond(
                        S.uploading,
                        _o("Sending the photo..."),
                        rx.cond(S.photo_url != "", _o("Take another photo"), _o("Take a photo")),
                    ),
                    class_name=f"{PLAIN} w-full border-dashed cursor-pointer",
                ),
                id=UPLOAD_ID,
                accept={"image/*": []},
                multiple=False,
                max_files=1,
                max_size=PHOTO_MAX_BYTES,
                disabled=S.uploading,
                on_drop=S.upload_photo(rx.upload_files(upload_id=UPLOAD_ID)),
                on_drop_rejected=lambda refused: S.photo_refused(refusal_codes(refused)),
                class_name="mt-1",
                data_testid="set-up-photo",
            )
        ),
        rx.cond(
            S.photo_url != "",
            rx.image(
                src=S.photo_url,
                alt=_o("Set-up photo"),
                class_name="mt-2 max-h-40 rounded-lg border border-slate-300",
                data_testid="set-up-preview",
            ),
        ),
        rx.cond(
            S.photo_error != "",
            rx.el.p(
                S.photo_error, role="alert", class_name=ERROR, data_testid="set-up-photo-error"
            ),
        ),
        class_name="mt-3",
    )


def _form(booking) -> rx.Component:
    return rx.el.form(
        rx.el.label(_o("Received by"), html_for="set-up-received-by", class_name="font-semibold"),
        kept_input(
            id="set-up-received-by",
            name="received_by",
            auto_complete="off",
            max_length=120,
            aria_describedby="set-up-name-error",
            class_name="w-full mt-1 min-h-[48px] px-3 text-base rounded-xl border-2 bg-white "
            "border-slate-400",
            data_testid="set-up-received-by",
        ),
        rx.cond(
            S.name_error != "",
            rx.el.p(
                S.name_error,
                id="set-up-name-error",
                role="alert",
                class_name=ERROR,
                data_testid="set-up-name-error",
            ),
        ),
        _photo(),
        rx.el.div(
            rx.el.button(
                rx.icon("circle-check", size=20),
                _o("Save"),
                type="submit",
                disabled=S.saving | S.uploading,
                class_name=DARK,
                data_testid="set-up-save",
            ),
            rx.el.button(_o("Cancel"), type="button", on_click=S.close, class_name=PLAIN),
            class_name="mt-3 flex flex-wrap gap-2",
        ),
        on_submit=S.save,
        class_name="mt-3 rounded-xl border-2 border-emerald-300 bg-emerald-50 p-3 no-print",
        data_testid="set-up-form",
    )


def set_up(booking) -> rx.Component:
    """A day sheet's job: 'Set up at 14:05 · received by Besa' once marked, and the button that
    opens the form (the service says whether it is the job's day)."""
    said = rx.cond(S.done.contains(booking.booking_id), S.done[booking.booking_id], booking.set_up)
    return rx.el.div(
        rx.cond(
            said != "",
            rx.el.p(
                rx.icon("circle-check", size=20, class_name="text-emerald-700 shrink-0"),
                said,
                class_name="flex items-center gap-2 text-base font-semibold text-emerald-900",
                data_testid="sheet-set-up",
            ),
        ),
        rx.cond(
            S.open_for == booking.booking_id,
            _form(booking),
            rx.cond(
                (booking.status != "cancelled") & booking.can_change,
                rx.el.button(
                    rx.icon("package-check", size=20),
                    rx.cond(said != "", _o("Change set-up"), _o("Set up")),
                    type="button",
                    on_click=S.open(booking.booking_id),
                    class_name=f"{PLAIN} mt-2 no-print",
                    data_testid="set-up-open",
                ),
            ),
        ),
        class_name="mt-3",
    )


def set_up_proof() -> rx.Component:
    """The admin's booking detail: the proof of delivery once the crew marked it set up."""
    d = P.proof
    return rx.cond(
        d.contains("when"),
        rx.el.section(
            rx.el.h3(_o("Set up at the venue"), class_name="mt-4 font-semibold"),
            rx.el.dl(
                *[
                    rx.el.div(
                        rx.el.dt(label, class_name="text-xs text-slate-500"),
                        rx.el.dd(d[key], class_name="text-sm font-medium"),
                    )
                    for label, key in (
                        (_o("Received by"), "received_by"),
                        (_o("When"), "when"),
                        (_o("Marked by"), "by"),
                    )
                ],
                class_name="mt-2 grid grid-cols-2 gap-3",
            ),
            rx.cond(
                d["photo"] != "",
                rx.el.a(
                    rx.image(
                        src=d["photo"],
                        alt=_o("Set-up photo"),
                        class_name="mt-2 h-32 w-auto rounded-lg border border-slate-300",
                    ),
                    href=d["photo"],
                    target="_blank",
                    rel="noopener",
                    data_testid="set-up-proof-photo",
                ),
            ),
            data_testid="set-up-proof",
        ),
    )
