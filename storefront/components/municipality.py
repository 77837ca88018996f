"""The choice of a booking's municipality (models/municipalities.py), in the page's language
and sorted, and the order summary's transport line (services/booking/transport.py)."""

from __future__ import annotations

import reflex as rx

import storefront.models.municipalities as places
from storefront import i18n
from storefront.i18n import _


def municipality_options() -> list[rx.Component]:
    """'Choose your municipality' and the 38, by their names in the page's language."""
    return [
        rx.el.option(_("Choose your municipality"), value="", disabled=True),
        *[rx.el.option(name, value=key) for key, name in places.choices(i18n.language())],
    ]


def transport_rows(owed: rx.Var, test_prefix: str) -> rx.Component:
    """The transport line once the municipality is known ('Transport (Gjakovë)   20,00 €'), or
    why it cannot be booked online."""
    return rx.fragment(
        rx.cond(
            owed["transport"],  # "" and not yet known (undefined) are both false
            rx.el.div(
                rx.el.dt(_("Transport ({municipality})").format(municipality=owed["municipality"])),
                rx.el.dd(owed["transport"], data_testid=f"{test_prefix}-transport"),
                class_name="flex justify-between gap-3 text-sm",
            ),
        ),
        rx.cond(
            owed["refusal"],
            rx.el.p(
                owed["refusal"],
                class_name="text-sm text-red-700",
                data_testid=f"{test_prefix}-transport-refusal",
            ),
        ),
    )


def deposit_note(owed: rx.Var, test_prefix: str) -> rx.Component:
    """Under the total, when the owner's rule asks this booking a deposit (transport.owed)."""
    return rx.cond(
        owed["deposit"],  # "" and not yet known (undefined) are both false
        rx.el.p(
            _("A deposit of {amount} is asked by bank transfer before the event.").format(
                amount=owed["deposit"]
            ),
            class_name="mt-2 text-sm text-slate-700",
            data_testid=f"{test_prefix}-deposit",
        ),
    )
