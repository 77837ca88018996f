"""A booking's receipt as a PDF (docs/payments.md, 'Receipts'), drawn from its rows each time it
is asked for, under the number `receipts` gave it, in the booking's language, with the
business's details from the settings. Its text is real text (fpdf2 with the bundled DejaVu
Sans, storefront/data/fonts: nothing is fetched), so it can be searched and copied, and ë and ç
print as they are. A booking without a number has no receipt.

    pdf = receipt_pdf.receipt_pdf(session, booking_id)  # bytes, or None before a number

It also draws the receipt the `booking_paid` mail attaches (`paid_attachments`, registered in
`notify.ATTACHMENTS` when this module is imported: messaging may not import payments).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import TableCellFillMode
from fpdf.fonts import FontFace
from sqlmodel import Session, col, select

from storefront import i18n
from storefront.i18n import N_o, _o
from storefront.models import Booking, BookingItem, BusinessSettings, Receipt
from storefront.services import content, dates
from storefront.services.business import settings_row
from storefront.services.messaging import mail, notify
from storefront.services.money import CENT, format_price, format_price_with_unit
from storefront.services.payments import ledger
from storefront.services.payments.receipts import receipt_of

FONTS = Path(__file__).resolve().parents[2] / "data" / "fonts"
FONT = "DejaVu"
PDF_TYPE = "application/pdf"

# --- the PDF ------------------------------------------------------------------------------------

# What the PDF says, in the booking's language (the office catalog: the business writes it).
TITLE = N_o("Receipt {number}")
LINE_HEADINGS = (
    N_o("Service"),
    N_o("Rate"),
    N_o("Quantity"),
    N_o("Hours booked"),
    N_o("Line total"),
)
PAYMENT_HEADINGS = (N_o("Date"), N_o("Payment"), N_o("Amount"))


@dataclass(frozen=True)
class ReceiptDocument:
    """A drawn receipt: its number, the file's name and its bytes."""

    number: str
    filename: str
    content: bytes


def receipt_filename(number: str) -> str:
    return f"receipt-{number}.pdf"


def receipt_pdf(session: Session, booking_id: object) -> bytes | None:
    """The booking's receipt as a PDF, or None when it has no number yet (or no such booking)."""
    document = receipt_document(session, booking_id)
    return document.content if document else None


def receipt_document(session: Session, booking_id: object) -> ReceiptDocument | None:
    """`receipt_pdf` with its number and file name (the download and the paid mail name it)."""
    try:
        target = uuid.UUID(str(booking_id))
    except (TypeError, ValueError):
        return None
    booking = session.get(Booking, target)
    receipt = receipt_of(session, target) if booking else None
    if booking is None or receipt is None:
        return None
    items = session.exec(
        select(BookingItem)
        .where(BookingItem.booking_id == target)
        .order_by(col(BookingItem.start_datetime), col(BookingItem.service_name))
    ).all()
    payments = ledger.payments_of(session, target)
    money = ledger.balance(session, booking)
    content_bytes = draw_receipt(
        booking, list(items), payments, money, receipt, settings_row(session)
    )
    return ReceiptDocument(receipt.number, receipt_filename(receipt.number), content_bytes)


class _ReceiptPdf(FPDF):
    """A4 pages with the business's name and the receipt's number at the foot of each."""

    footer_text = ""

    def footer(self) -> None:
        self.set_y(-14)
        self.set_font(FONT, size=8)
        self.set_text_color(100, 116, 139)
        self.cell(0, 6, self.footer_text, align="L")
        self.cell(
            0, 6, _o("Page {page} of {pages}").format(page=self.page_no(), pages="{nb}"), align="R"
        )


def draw_receipt(
    booking: Booking,
    items: Sequence[BookingItem],
    payments: Sequence[ledger.PaymentRow],
    money: ledger.Balance,
    receipt: Receipt,
    business: BusinessSettings,
) -> bytes:
    """The receipt's PDF from rows already read, in the booking's language."""
    with i18n.using(booking.language):
        return _draw(booking, items, payments, money, receipt, business)


def _draw(booking, items, payments, money, receipt, business) -> bytes:
    currency = booking.currency
    price = lambda value: format_price(value, currency)  # noqa: E731
    pdf = _ReceiptPdf(format="A4", unit="mm")
    pdf.set_margins(15, 15, 15)
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.add_font(FONT, "", str(FONTS / "DejaVuSans.ttf"))
    pdf.add_font(FONT, "B", str(FONTS / "DejaVuSans-Bold.ttf"))
    pdf.set_title(_o(TITLE).format(number=receipt.number))
    pdf.set_author(business.business_name)
    pdf.set_creation_date(receipt.issued_at)
    pdf.set_lang(i18n.LOCALES[i18n.known(booking.language)].replace("_", "-"))
    pdf.footer_text = f"{business.business_name} · {_o(TITLE).format(number=receipt.number)}"
    pdf.add_page()
    width = pdf.epw

    # The business, then the title with the number and the date it was issued.
    pdf.set_font(FONT, "B", 16)
    pdf.multi_cell(width, 8, business.business_name, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, size=9)
    details = [
        content.text(business.translations, "address", business.address),
        _o("Phone: {phone}").format(phone=business.phone) if business.phone else "",
        business.email or "",
        _o("Fiscal number (NUI): {number}").format(number=business.fiscal_number)
        if business.fiscal_number
        else "",
    ]
    for detail in details:
        if detail:
            pdf.multi_cell(width, 4.5, detail, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(5)
    pdf.set_font(FONT, "B", 18)
    pdf.cell(width, 9, _o(TITLE).format(number=receipt.number), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, size=10)
    pdf.cell(
        width,
        5,
        _o("Date: {date}").format(date=dates.local_date(receipt.issued_at)),
        new_x="LMARGIN",
        new_y="NEXT",
    )
    pdf.ln(3)

    # The booking and the customer.
    starts = [item.start_datetime for item in items]
    facts = [
        (_o("Booking reference"), booking.reference),
        (_o("Event date"), dates.local_date(min(starts)) if starts else "-"),
        (_o("Customer"), notify.customer_name(booking)),
        (_o("Phone"), booking.contact_phone or ""),
        (_o("Email"), booking.contact_email or ""),
        (_o("Venue"), ", ".join(p for p in (booking.venue_address, booking.city) if p)),
    ]
    facts = [(label, value) for label, value in facts if value]
    pdf.set_font(FONT, "B", 10)
    room = max(pdf.get_string_width(label) for label, _value in facts) + 4
    for label, value in facts:
        pdf.set_font(FONT, "B", 10)
        pdf.cell(room, 5.5, label)
        pdf.set_font(FONT, size=10)
        pdf.multi_cell(width - room, 5.5, value, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)

    # The lines: service (and when), rate, quantity, hours (per hour), line total.
    lines_total = Decimal("0")
    pdf.set_font(FONT, size=9)
    with pdf.table(
        col_widths=(66, 34, 20, 26, 34),
        text_align=("LEFT", "RIGHT", "RIGHT", "RIGHT", "RIGHT"),
        headings_style=_headings(pdf),
        cell_fill_color=(248, 250, 252),
        cell_fill_mode=TableCellFillMode.ROWS,
        line_height=5,
        borders_layout="HORIZONTAL_LINES",
        first_row_as_headings=True,
    ) as table:
        table.row([_o(h) for h in LINE_HEADINGS])
        for item in items:
            total = (Decimal(item.service_price) * item.quantity).quantize(CENT)
            lines_total += total
            rate = notify.stored_rate(item)
            per_hour = item.price_unit == "per_hour"
            when = (
                f"{dates.local_date(item.start_datetime)} {dates.local_time(item.start_datetime)}"
            )
            table.row(
                [
                    f"{item.service_name}\n{when}",
                    format_price_with_unit(rate, item.price_unit, currency)
                    if per_hour
                    else price(rate),
                    str(item.quantity),
                    str(notify.booked_hours(item)) if per_hour else "–",
                    price(total),
                ]
            )
    pdf.ln(2)

    # The sums: the lines, transport to the municipality, a total set by hand, the total.
    transport = Decimal(booking.transport_amount or 0).quantize(CENT)
    sums = [(_o("Services"), price(lines_total), False)]
    if transport:
        where = booking.city or ""
        label = (
            _o("Transport ({municipality})").format(municipality=where)
            if where
            else _o("Transport")
        )
        sums.append((label, price(transport), False))
    adjustment = money.due - lines_total - transport
    if adjustment:
        sums.append((_o("Adjustment"), price(adjustment), False))
    sums.append((_o("Total"), price(money.due), True))
    _sums(pdf, sums)
    pdf.ln(4)

    # The payments, reversals shown as such, then what was paid and the balance.
    pdf.set_font(FONT, "B", 12)
    pdf.cell(width, 7, _o("Payments"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, size=9)
    if payments:
        with pdf.table(
            col_widths=(36, 108, 36),
            text_align=("LEFT", "LEFT", "RIGHT"),
            headings_style=_headings(pdf),
            line_height=5,
            borders_layout="HORIZONTAL_LINES",
        ) as table:
            table.row([_o(h) for h in PAYMENT_HEADINGS])
            for row in payments:
                table.row(
                    [
                        f"{dates.local_date(row.recorded_at)} {dates.local_time(row.recorded_at)}",
                        _payment_words(row),
                        price(row.amount),
                    ]
                )
    else:
        pdf.multi_cell(width, 5, _o("No payment yet."), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    sums = [
        (_o("Amount paid"), price(money.paid), False),
        (_o("Balance"), price(money.balance), True),
    ]
    if money.over:
        sums.append((_o("Paid over the total"), price(money.over), False))
    _sums(pdf, sums)
    pdf.ln(6)
    pdf.set_font(FONT, size=10)
    pdf.multi_cell(
        width,
        5,
        _o("Paid in full. Thank you!") if money.balance <= 0 else _o("Thank you!"),
        new_x="LMARGIN",
        new_y="NEXT",
    )
    return bytes(pdf.output())


def _headings(pdf: FPDF) -> FontFace:
    return FontFace(family=FONT, emphasis="BOLD", fill_color=(226, 232, 240))


def _sums(pdf: FPDF, rows: list[tuple[str, str, bool]]) -> None:
    """Label and amount, right-aligned under the table's last column."""
    for label, amount, strong in rows:
        pdf.set_font(FONT, "B" if strong else "", 11 if strong else 10)
        pdf.cell(pdf.epw - 40, 6.5, label, align="R")
        pdf.cell(40, 6.5, amount, align="R", new_x="LMARGIN", new_y="NEXT")


def _payment_words(row: ledger.PaymentRow) -> str:
    method = ledger.METHOD_WORDS.get(row.method)
    how = _o(method) if method else row.method
    if row.kind == "reversal":
        words = _o("Reversal of a payment ({method})").format(method=how)
        return f"{words}: {row.note}" if row.note else words
    words = how
    if row.reversed:
        words = _o("{method} (reversed)").format(method=how)
    return words


# --- the mail after a full payment -----------------------------------------------------------


def paid_attachments(session: Session, booking: Booking) -> tuple[mail.Attachment, ...]:
    """The receipt PDF for the paid mail, drawn now; the mail is stale (never sent) when the
    booking is no longer paid in full (a payment reversed since) or has no number."""
    if ledger.balance(session, booking).balance > 0:
        raise notify.NotifyError("stale", f"Booking {booking.reference} is no longer paid in full")
    document = receipt_document(session, booking.id)
    if document is None:
        raise notify.NotifyError("stale", f"Booking {booking.reference} has no receipt number")
    return ((document.filename, document.content, PDF_TYPE),)


notify.ATTACHMENTS["booking_paid"] = paid_attachments
