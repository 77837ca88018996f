"""A demo of the site's building blocks: buttons, cards, inputs and badges."""

import reflex as rx

from storefront import routes
from storefront.components.layout import page_layout
from storefront.components.ui import PRIMARY_BUTTON, SECONDARY_BUTTON, page_title, section_title
from storefront.i18n import N_, _
from storefront.pages import registry

# (the status as the demo shows it, its colours)
BADGES = [
    (N_("pending"), "bg-amber-100 text-amber-800"),
    (N_("confirmed"), "bg-green-100 text-green-800"),
    (N_("on the way"), "bg-sky-100 text-sky-800"),
    (N_("completed"), "bg-slate-200 text-slate-800"),
    (N_("cancelled"), "bg-red-100 text-red-800"),
]
INPUT = (
    "w-full px-4 py-2 rounded-lg border-2 border-slate-200 focus:border-fuchsia-500 outline-none"
)


@registry.page(routes.DESIGN_SYSTEM)
def design_system() -> rx.Component:
    return page_layout(
        page_title(_("Design System"), _("Buttons, cards, fields and badges.")),
        rx.el.div(
            section_title(_("Buttons")),
            rx.el.div(
                rx.el.button(_("Primary"), class_name=PRIMARY_BUTTON),
                rx.el.button(_("Secondary"), class_name=SECONDARY_BUTTON),
                rx.el.button(_("Disabled"), disabled=True, class_name=PRIMARY_BUTTON),
                class_name="flex flex-wrap gap-4 justify-center",
            ),
            section_title(_("Cards")),
            rx.el.div(
                *[
                    rx.el.div(
                        rx.el.h3(_("Card {n}").format(n=n), class_name="font-bold"),
                        rx.el.p(
                            _("A short description of a service."),
                            class_name="text-sm text-slate-600",
                        ),
                        class_name="rounded-3xl border border-slate-100 p-6 shadow-sm bg-white",
                    )
                    for n in (1, 2, 3)
                ],
                class_name="grid gap-6 md:grid-cols-3",
            ),
            section_title(_("Inputs")),
            rx.el.div(
                rx.el.input(placeholder=_("Text input"), class_name=INPUT),
                rx.el.input(type="email", placeholder=_("Email input"), class_name=INPUT),
                rx.el.textarea(placeholder=_("Textarea"), class_name=INPUT),
                class_name="grid gap-4 max-w-md mx-auto",
            ),
            section_title(_("Badges")),
            rx.el.div(
                *[
                    rx.el.span(
                        _(label), class_name=f"px-3 py-1 rounded-full text-xs font-semibold {style}"
                    )
                    for label, style in BADGES
                ],
                class_name="flex flex-wrap gap-3 justify-center",
            ),
            class_name="max-w-5xl mx-auto px-4 space-y-10",
        ),
    )
