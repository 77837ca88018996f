"""The receipt section of the admin's booking detail: the number, 'Issue receipt' while there is
none, 'Download receipt' once there is (state/admin_receipt.py, services/payments/receipts.py)."""

import reflex as rx

from storefront.components.admin_layout import SMALL_BUTTON, notices
from storefront.i18n import _o
from storefront.state.admin_receipt import AdminReceiptState


def receipt_section(booking_id: rx.Var) -> rx.Component:
    """Drawn inside the detail for the booking `booking_id`: mounted again (and so loaded) for
    each booking the detail opens."""
    shown = AdminReceiptState.loaded & (AdminReceiptState.booking_id == booking_id)
    return rx.el.section(
        rx.el.h3(_o("Receipt"), class_name="font-semibold"),
        rx.cond(
            shown,
            rx.cond(
                AdminReceiptState.number != "",
                rx.el.div(
                    rx.el.span(
                        _o("Receipt {number}").format(number=AdminReceiptState.number),
                        class_name="text-sm",
                        data_testid="receipt-number",
                    ),
                    rx.el.a(
                        rx.icon("file-down", size=16),
                        _o("Download receipt"),
                        href=AdminReceiptState.href,
                        # A file from a plain HTTP route: the browser fetches it, React
                        # Router does not look it up among the pages.
                        download=True,
                        custom_attrs={"reloadDocument": True},
                        class_name=SMALL_BUTTON,
                        data_testid="receipt-download",
                    ),
                    class_name="mt-2 flex flex-wrap items-center gap-3",
                ),
                rx.el.button(
                    rx.icon("file-plus", size=16),
                    _o("Issue receipt"),
                    on_click=AdminReceiptState.issue,
                    disabled=AdminReceiptState.issuing,
                    class_name=SMALL_BUTTON + " mt-2",
                    type="button",
                    data_testid="receipt-issue",
                ),
            ),
        ),
        notices(AdminReceiptState.notice, AdminReceiptState.error, prefix="receipt"),
        key=booking_id,
        on_mount=AdminReceiptState.load(booking_id),
        class_name="mt-4",
        data_testid="receipt-section",
    )
