"""A scrolling strip of banner cards; a click opens the card in a modal (or does what the page
asks, such as enlarging a photo).

The list is drawn three times so the CSS animation loops without a seam; only the first five
images load eagerly. The two copies are inert: neither focusable nor read, so a keyboard or a
screen reader meets each card once. A card's photo has an empty alt: the title on it names it.
The strip pauses under the pointer or the keyboard focus; for visitors who ask for reduced
motion it stands still, shows each card once and scrolls by hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from storefront.components.modal import modal
from storefront.components.photo import img
from storefront.i18n import _

EAGER_IMAGES = 5

selected_card = ClientStateVar.create("selected_banner_card", default={}, global_ref=True)


def _card(
    card: rx.Var,
    index: rx.Var,
    copy: int,
    width: int,
    height: int,
    gap: int,
    open_card: Callable[[rx.Var], Any],
    test_id: str,
) -> rx.Component:
    return rx.el.button(
        img(
            src=card["image_url"],
            alt="",
            width=width,
            height=height,
            # The first five cards are on screen at once; the rest may wait.
            loading=rx.cond(index < EAGER_IMAGES, "eager", "lazy") if copy == 0 else "lazy",
            # The first card is the strip's largest paint: fetched ahead of the others.
            fetch_priority=rx.cond(index == 0, "high", "auto") if copy == 0 else None,
            sizes=f"{width}px",
            class_name="w-full h-full object-cover",
        ),
        rx.el.div(
            rx.el.p(card["title"], class_name="text-white font-semibold text-left"),
            class_name="absolute inset-x-0 bottom-0 p-4 bg-gradient-to-t from-black/70 to-transparent",
        ),
        on_click=open_card(card),
        type="button",
        class_name="relative shrink-0 overflow-hidden rounded-2xl shadow-md hover:shadow-xl "
        "transition-shadow focus:outline-none focus-visible:ring-4 focus-visible:ring-fuchsia-400"
        + (" banner-copy" if copy else ""),
        # A margin, not the track's gap, so each copy is exactly a third of the track.
        style={"width": f"{width}px", "height": f"{height}px", "margin_right": f"{gap}px"},
        data_testid=test_id if copy == 0 else f"{test_id}-copy",
    )


def _card_renderer(copy: int, *args):
    def render(card: rx.Var, index: rx.Var) -> rx.Component:
        return _card(card, index, copy, *args)

    return render


def _open_in_modal(card: rx.Var):
    return selected_card.set_value(card)


def banner_modal() -> rx.Component:
    card = selected_card.value
    return modal(
        img(
            src=card["image_url"],
            alt=card["title"],
            width=560,
            height=700,
            loading="eager",
            class_name="w-full max-h-[60vh] object-cover rounded-lg",
        ),
        rx.dialog.title(card["title"], class_name="mt-4"),
        rx.dialog.description(
            rx.cond(card["description"], card["description"], _("No description available.")),
        ),
        open=card["title"].to(bool),
        on_close=selected_card.set_value({}),
        test_id="banner-modal",
    )


def banner_strip(
    cards: rx.Var,
    *,
    speed: int = 80,
    card_width: int = 280,
    card_height: int = 350,
    gap: int = 24,
    test_id: str = "banner-strip",
    open_card: Callable[[rx.Var], Any] | None = None,
    card_test_id: str = "banner-card",
    class_name: str = "",
) -> rx.Component:
    """`speed` in pixels per second; the strip scrolls left and pauses under the pointer.
    A click on a card runs `open_card(card)`; by default the card opens in the banner modal."""
    seconds = (cards.length() * (card_width + gap) / speed).to_string()
    renderer_args = (
        card_width,
        card_height,
        gap,
        open_card or _open_in_modal,
        card_test_id,
    )
    copies = [
        rx.foreach(cards, _card_renderer(0, *renderer_args)),
        *[
            # `contents`: the wrapper draws no box, so the track's layout is unchanged.
            rx.el.div(
                rx.foreach(cards, _card_renderer(copy, *renderer_args)),
                class_name="contents",
                custom_attrs={"inert": True},
                aria_hidden="true",
            )
            for copy in (1, 2)
        ],
    ]
    return rx.el.div(
        rx.el.div(
            *copies,
            class_name="banner-track flex w-max",
            style={"animation_duration": seconds + "s"},
            data_testid=f"{test_id}-track",
        ),
        banner_modal() if open_card is None else rx.fragment(),
        class_name=f"banner-strip overflow-hidden py-4 {class_name}",
        # The strip's height is known before its cards arrive: hold it so nothing below jumps.
        style={"min_height": f"{card_height + 32}px"},
        data_testid=test_id,
    )
