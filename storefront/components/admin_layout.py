"""The frame of every admin screen: the site's navigation bar (account links, Sign Out), a
sidebar (a scrolling row of links under 768 px), the screen's title, and the spec's 'Access Denied' for a signed-in account that is not an admin.

Showing or hiding this frame protects nothing: every admin event is refused on the server to
anyone but an admin (state/guard.py), and each handler checks the role again."""

from __future__ import annotations

import reflex as rx

from storefront import i18n, routes
from storefront.components.modal import modal
from storefront.components.navbar import navbar
from storefront.components.ui import PRIMARY_BUTTON, loading_spinner
from storefront.i18n import N_o, _, _o
from storefront.state.auth import AuthState

# (key, label, href, icon). Dashboard is marked only on /admin itself (the spec: exact match).
SECTIONS = [
    ("dashboard", N_o("Dashboard"), routes.ADMIN, "layout-dashboard"),
    ("services", N_o("Services"), routes.ADMIN_SERVICES, "package"),
    ("bookings", N_o("Bookings"), routes.ADMIN_BOOKINGS, "calendar-check"),
    ("day", N_o("Day Sheet"), routes.ADMIN_DAY, "clipboard-list"),
    ("cash", N_o("Day's Cash"), routes.ADMIN_CASH, "wallet"),
    ("vans", N_o("Vans"), routes.ADMIN_VANS_PLAN, "truck"),
    ("reports", N_o("Reports"), routes.ADMIN_REPORTS, "chart-column"),
    ("banners", N_o("Banners"), routes.ADMIN_BANNERS, "images"),
    ("settings", N_o("Settings"), routes.ADMIN_SETTINGS, "settings"),
    ("users", N_o("Users"), routes.ADMIN_USERS, "users"),
]
# What staff (drivers, decorators) see of the back office: the event-day screens.
STAFF_SECTIONS = [
    ("day", N_o("Day Sheet"), routes.ADMIN_DAY, "clipboard-list"),
    ("calendar", N_o("Calendar"), routes.ADMIN_CALENDAR, "calendar-days"),
]
# A section's link is marked on the screens below it too (the calendar is the bookings').
ALSO_MARKS = {"bookings": ("calendar",), "day": ("rainy",)}
# Shown through access_denied(), which translates them (pass these, not their translation).
VIEW_DENIED = N_o("You must be an admin to view this page.")
ACCESS_DENIED = N_o("You must be an admin to access this page.")

CARD = "rounded-2xl border border-slate-200 bg-white shadow-sm"
TABLE_HEAD = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600"
TABLE_CELL = "px-3 py-3 align-top text-sm"
SMALL_BUTTON = (
    "inline-flex items-center justify-center gap-1 min-h-[32px] px-3 py-1 rounded-lg text-sm "
    "font-medium border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 "
    "disabled:opacity-50 disabled:cursor-not-allowed"
)
DANGER_BUTTON = (
    "inline-flex items-center justify-center gap-1 min-h-[32px] px-3 py-1 rounded-lg text-sm "
    "font-medium border border-red-300 bg-white text-red-700 hover:bg-red-50 "
    "disabled:opacity-50 disabled:cursor-not-allowed"
)
INPUT = (
    "w-full px-3 py-2 rounded-lg border border-slate-300 bg-white text-slate-900 "
    "focus:outline-none focus:ring-2 focus:ring-fuchsia-500"
)
LABEL = "block text-sm font-medium text-slate-700 mb-1"
CHECKBOX = "h-6 w-6 rounded border-slate-300 accent-fuchsia-600"


def checkbox(label: str, *, id: str, name: str, checked=None) -> rx.Component:
    """A labelled checkbox of an admin form; `checked` is its starting value (a state var)."""
    start = {} if checked is None else {"default_checked": checked}
    return rx.el.div(
        rx.el.input(type="checkbox", id=id, name=name, class_name=CHECKBOX, **start),
        rx.el.label(label, html_for=id, class_name="text-sm"),
        class_name="flex items-center gap-2",
    )


def in_both_languages(
    label: str, default: rx.Component, english: rx.Component, *, field_id: str
) -> rx.Component:
    """A text a page shows in each language, edited side by side: the default edition's on the
    left, labelled `label` (`field_id`), the English on the right (`field_id`-en, labelled
    'English (optional)' and described by `label`: build it with
    `aria_describedby=f"{field_id}-label"`); stacked on a phone. An empty English text shows
    the default one on the English pages (services/content.py)."""
    return rx.el.div(
        rx.el.div(
            rx.el.label(label, html_for=field_id, id=f"{field_id}-label", class_name=LABEL),
            default,
        ),
        rx.el.div(
            rx.el.label(
                _("English (optional)"),
                html_for=f"{field_id}-en",
                class_name=LABEL + " text-slate-500",
            ),
            english,
        ),
        class_name="grid gap-3 md:grid-cols-2",
        data_testid=f"{field_id}-languages",
    )


def cancel_save(on_cancel, *, save_test_id: str, disabled=False) -> rx.Component:
    """An admin form's closing row: Cancel (closes it) and Save (submits it)."""
    return rx.el.div(
        rx.el.button(_o("Cancel"), type="button", on_click=on_cancel, class_name=SMALL_BUTTON),
        rx.el.button(
            _o("Save"),
            type="submit",
            disabled=disabled,
            class_name=PRIMARY_BUTTON + " py-2",
            data_testid=save_test_id,
        ),
        class_name="flex justify-end gap-2",
    )


def confirm_or_keep(confirm, on_confirm, *, test_id: str, keep: str, on_keep) -> rx.Component:
    """The answer row of a risky step asked in place: a red button that does it (its label one
    text or a list of parts) and one that leaves things as they are."""
    parts = confirm if isinstance(confirm, (list, tuple)) else [confirm]
    return rx.el.div(
        rx.el.button(
            *parts,
            on_click=on_confirm,
            class_name=DANGER_BUTTON,
            type="button",
            data_testid=test_id,
        ),
        rx.el.button(keep, on_click=on_keep, class_name=SMALL_BUTTON, type="button"),
        class_name="mt-2 flex flex-wrap gap-2",
    )


def _link(key: str, label: str, href: str, icon: str, *, current: str) -> rx.Component:
    here = key == current or current in ALSO_MARKS.get(key, ())
    look = "bg-fuchsia-600 text-white" if here else "text-slate-700 hover:bg-fuchsia-50"
    return rx.link(
        rx.icon(icon, size=18),
        rx.el.span(_o(label)),
        href=i18n.href(href),
        underline="none",
        aria_current="page" if here else None,
        class_name=f"flex shrink-0 items-center gap-2 px-3 py-2 rounded-lg text-sm font-medium {look}",
        data_testid=f"admin-nav-{key}",
    )


# On phones the links are one row that scrolls sideways: the current section's link is brought
# into the row's view (only the row scrolls, never the page), so the marked link is seen without
# looking for it. Reflex runs this hook in the page's component, which mounts before the sidebar
# (shown once the session says admin), so it waits for the row to appear, once.
_SHOW_CURRENT = """
useEffect(() => {
  const show = () => {
    const row = document.querySelector('[data-testid="admin-sidebar"]');
    const here = row && row.querySelector('[aria-current="page"]');
    if (!here) return false;
    if (row.scrollWidth > row.clientWidth) {
      const box = here.getBoundingClientRect(), view = row.getBoundingClientRect();
      row.scrollLeft += box.left - view.left - (view.width - box.width) / 2;
    }
    return true;
  };
  if (show()) return;
  const watch = new MutationObserver(() => show() && watch.disconnect());
  watch.observe(document.body, { childList: true, subtree: true });
  return () => watch.disconnect();
}, []);
"""


class _ShowCurrent(rx.Fragment):
    """Scrolls the phone's row of admin links to the current one (renders nothing)."""

    def add_imports(self):
        return {"react": [rx.ImportVar(tag="useEffect")]}

    def add_hooks(self):
        return [_SHOW_CURRENT]


def sidebar(current: str, sections: list | None = None) -> rx.Component:
    """The panel carries the background and the border and stretches with the frame, so it runs
    the full height of a long page; the links inside it stay in view while the page scrolls.
    `sections`: the links (an admin's, unless given)."""
    return rx.el.div(
        rx.el.nav(
            *[_link(*section, current=current) for section in sections or SECTIONS],
            rx.link(
                rx.icon("arrow-left", size=18),
                rx.el.span(_o("Back to Site")),
                href=routes.HOME,
                underline="none",
                class_name="flex shrink-0 items-center gap-2 px-3 py-2 rounded-lg text-sm "
                "font-medium text-slate-700 hover:bg-slate-100 md:mt-6",
                data_testid="admin-back-to-site",
            ),
            _ShowCurrent.create(),
            aria_label=_o("Admin"),
            class_name="flex md:flex-col gap-1 overflow-x-auto md:overflow-visible p-2 md:p-4 "
            "md:sticky md:top-16",
            data_testid="admin-sidebar",
        ),
        class_name="bg-white border-b md:border-b-0 md:border-r border-slate-200 md:w-56 "
        "md:shrink-0",
        data_testid="admin-sidebar-panel",
    )


def access_denied(text: str = VIEW_DENIED) -> rx.Component:
    """docs/product.md §6: 'Access Denied' and why; User Management says both in one line.
    `text` is the English (marked with N_o) and is translated here."""
    one_line = text.startswith("Access Denied")
    shown = _o(text)
    return rx.el.div(
        rx.el.h1(
            shown if one_line else _o("Access Denied"),
            class_name="text-2xl font-bold text-red-700",
        ),
        rx.fragment() if one_line else rx.el.p(shown, class_name="mt-2 text-slate-700"),
        rx.link(
            _o("Back to Site"),
            href=routes.HOME,
            class_name="inline-block mt-6 text-fuchsia-700 font-medium underline",
        ),
        role="alert",
        class_name="max-w-xl mx-auto mt-16 rounded-2xl border border-red-200 bg-red-50 p-8",
        data_testid="access-denied",
    )


def admin_frame(
    title: str | rx.Var,
    *children: rx.Component,
    current: str,
    actions: rx.Component | None = None,
    denied: str = VIEW_DENIED,
    non_admin: rx.Component | None = None,
    open_to_staff: bool = False,
) -> rx.Component:
    """An admin screen. `current` is the sidebar entry to mark; `actions` sit beside the
    title. Guests see a spinner while they are sent to sign in; a signed-in account that is
    not an admin sees `non_admin` (the spec's 'Access Denied' unless given). `open_to_staff`:
    an event-day screen, shown to staff too (with their own, shorter sidebar)."""
    return rx.el.div(
        navbar(),
        rx.el.div(
            rx.cond(
                AuthState.is_admin,
                sidebar(current),
                rx.cond(AuthState.is_staff, sidebar(current, STAFF_SECTIONS)),
            ),
            rx.el.main(
                rx.cond(
                    AuthState.auth_loading | ~AuthState.signed_in,
                    loading_spinner(),
                    rx.cond(
                        AuthState.is_staff if open_to_staff else AuthState.is_admin,
                        rx.el.div(
                            rx.el.div(
                                rx.el.h1(title, class_name="text-2xl md:text-3xl font-bold"),
                                actions if actions is not None else rx.fragment(),
                                class_name="flex flex-wrap items-center justify-between gap-3",
                            ),
                            *children,
                            class_name="max-w-6xl mx-auto px-3 md:px-8 py-6 md:py-10",
                        ),
                        non_admin if non_admin is not None else access_denied(denied),
                    ),
                ),
                class_name="flex-1 min-w-0",
            ),
            class_name="flex-1 flex flex-col md:flex-row",
        ),
        class_name="min-h-screen flex flex-col bg-slate-50 text-slate-900",
    )


def notices(notice: rx.Var, error: rx.Var, prefix: str = "admin") -> rx.Component:
    """The green and the red message of a screen."""
    from storefront.components.ui import error_box, success_box

    return rx.el.div(
        success_box(notice, f"{prefix}-notice"),
        error_box(error, f"{prefix}-error"),
        class_name="mt-4 space-y-2 empty:hidden",
    )


def pager(page: rx.Var, pages: rx.Var, total: rx.Var, on_prev, on_next) -> rx.Component:
    """Previous / next under a table, with where the admin is."""
    return rx.el.div(
        rx.el.p(
            _o("Page {page} of {pages} · {total} in all").format(
                page=page, pages=pages, total=total
            ),
            class_name="text-sm text-slate-600",
            data_testid="pager-status",
        ),
        rx.el.div(
            rx.el.button(
                _o("Previous"),
                on_click=on_prev,
                disabled=page <= 1,
                class_name=SMALL_BUTTON,
                type="button",
            ),
            rx.el.button(
                _o("Next"),
                on_click=on_next,
                disabled=page >= pages,
                class_name=SMALL_BUTTON,
                type="button",
            ),
            class_name="flex gap-2",
        ),
        class_name="mt-4 flex flex-wrap items-center justify-between gap-3",
        data_testid="pager",
    )


def admin_table(headers: list[str], body: rx.Component, *, test_id: str) -> rx.Component:
    """A table of the back office. Under 768 px each row becomes a card whose cells are named
    by their column (`cell(label, ...)`), so nothing runs off a phone's screen."""
    return rx.el.div(
        rx.el.table(
            rx.el.thead(
                rx.el.tr(*[rx.el.th(h, scope="col", class_name=TABLE_HEAD) for h in headers])
            ),
            rx.el.tbody(body),
            class_name="admin-table w-full",
            data_testid=test_id,
        ),
        class_name=CARD + " mt-6 overflow-hidden",
    )


def cell(label: str, *children: rx.Component | rx.Var | str, **props) -> rx.Component:
    """A table cell; `label` is its column's name, shown before it on phones."""
    extra = props.pop("class_name", "")
    return rx.el.td(*children, data_label=label, class_name=f"{TABLE_CELL} {extra}", **props)


def confirm_dialog(
    title: str,
    *question,
    confirm_label: str,
    on_confirm,
    on_cancel,
    open: rx.Var,
    test_id: str,
    confirm_test_id: str,
    cancel_label: str | None = None,
    confirm_class: str = DANGER_BUTTON,
) -> rx.Component:
    """The back office's one 'are you sure' dialog: the question, then Cancel and the button
    that does it. Escape, the ✕ and a click outside cancel too."""
    return modal(
        rx.dialog.title(title, class_name="text-xl font-bold pr-8"),
        rx.dialog.description(*question, class_name="mt-3 text-slate-700"),
        rx.el.div(
            # The click's own event is not passed on (a cancel handler may take the dialog's
            # open flag, which on_close sends).
            rx.el.button(
                cancel_label if cancel_label is not None else _o("Cancel"),
                type="button",
                on_click=lambda _click: on_cancel(),
                class_name=SMALL_BUTTON,
            ),
            rx.el.button(
                confirm_label,
                type="button",
                on_click=on_confirm,
                class_name=confirm_class,
                data_testid=confirm_test_id,
            ),
            class_name="mt-6 flex justify-end gap-2",
        ),
        open=open,
        on_close=on_cancel,
        test_id=test_id,
    )
