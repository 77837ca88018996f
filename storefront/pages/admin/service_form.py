"""Create and edit a service: the admins' pages and the signed-in users' pages, one form."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.admin_layout import admin_frame
from storefront.components.service_form import service_form
from storefront.components.ui import SECONDARY_BUTTON
from storefront.i18n import N_, _, _o
from storefront.pages import registry
from storefront.pages.account.account import account_frame
from storefront.state.service_form import ServiceFormState


def _back(href: str, label: str) -> rx.Component:
    return rx.link(label, href=href, underline="none", class_name=SECONDARY_BUTTON)


@registry.page(routes.ADMIN_SERVICE_CREATE, loaders=[ServiceFormState.load])
def admin_service_create() -> rx.Component:
    return admin_frame(
        _o("Create New Service"),
        service_form(),
        current="services",
        actions=_back(i18n.href(routes.ADMIN_SERVICES), _o("Back to Services")),
    )


@registry.page(routes.ADMIN_SERVICE_EDIT, loaders=[ServiceFormState.load])
def admin_service_edit() -> rx.Component:
    return admin_frame(
        _o("Edit Service"),
        service_form(),
        current="services",
        actions=_back(i18n.href(routes.ADMIN_SERVICES), _o("Back to Services")),
    )


@registry.page(routes.SERVICE_CREATE, loaders=[ServiceFormState.load])
def account_service_create() -> rx.Component:
    return account_frame(
        N_("Create New Service"),
        rx.el.p(
            _("Your service is saved as a draft; an admin publishes it."),
            class_name="mt-2 text-slate-600",
        ),
        service_form(),
    )


@registry.page(routes.SERVICE_EDIT, loaders=[ServiceFormState.load])
def account_service_edit() -> rx.Component:
    return account_frame(N_("Edit Service"), service_form())
