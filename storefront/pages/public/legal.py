"""Terms of Service and Privacy Policy."""

import reflex as rx

from storefront import routes
from storefront.components.layout import page_layout
from storefront.components.ui import page_title
from storefront.i18n import N_, _
from storefront.pages import registry
from storefront.state.business import BusinessState

TERMS = [
    (
        N_("Bookings"),
        routes.declared(routes.TERMS).description,  # its meta description too
    ),
    (
        N_("Payment"),
        N_(
            "Nothing is paid online. Payment is collected at the time of service, in cash or as agreed "
            "with our team."
        ),
    ),
    (
        N_("Changes and cancellations"),
        N_(
            "Tell us as early as you can if your plans change. Bookings can be moved or cancelled free "
            "of charge up to {hours} hours before the event."
        ),
    ),
    (
        N_("Safety"),
        N_(
            "Bouncers and bubble houses are used under adult supervision and as our team instructs. We "
            "may stop a service when weather or use makes it unsafe."
        ),
    ),
    (
        N_("Damage"),
        N_(
            "Rented tables, chairs and decorations are handed over in good condition; damage beyond "
            "normal use may be charged at repair cost."
        ),
    ),
]

PRIVACY = [
    (
        N_("What we collect"),
        routes.declared(routes.PRIVACY).description,  # its meta description too
    ),
    (
        N_("Why"),
        N_(
            "Only to plan and deliver your event, to reach you about it, and to keep the records the "
            "law requires. We do not sell your data or use it for advertising."
        ),
    ),
    (
        N_("Who sees it"),
        N_(
            "Our staff, and the services that carry our messages (email and WhatsApp). Your cart stays "
            "in your browser until you book."
        ),
    ),
    (
        N_("Your rights"),
        N_(
            "Ask us at any time to see, correct or delete what we hold about you, through the contact "
            "page."
        ),
    ),
]


def _document(title: str, sections: list[tuple[str, str]]) -> rx.Component:
    return page_layout(
        page_title(_(title)),
        rx.el.article(
            *[
                rx.el.section(
                    rx.el.h2(_(heading), class_name="text-xl font-bold"),
                    rx.el.p(
                        # The cutoff is the owner's setting (Settings), not a fixed 48 hours.
                        _(text).format(hours=BusinessState.details["change_cutoff_hours"])
                        if "{hours}" in text
                        else _(text),
                        class_name="mt-2 text-slate-700 leading-relaxed",
                    ),
                    class_name="mt-8",
                )
                for heading, text in sections
            ],
            class_name="max-w-3xl mx-auto px-4",
        ),
    )


@registry.page(routes.TERMS)
def terms() -> rx.Component:
    return _document(routes.declared(routes.TERMS).title, TERMS)


@registry.page(routes.PRIVACY)
def privacy() -> rx.Component:
    return _document(routes.declared(routes.PRIVACY).title, PRIVACY)
