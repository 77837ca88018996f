"""Account, Security: two-factor sign-in for admins (set up, recovery codes, turn off)."""

import reflex as rx
from reflex.event import EventChain
from reflex.experimental.client_state import ClientStateVar
from reflex.vars import FunctionVar, VarData
from reflex.vars.function import ENCODE_URI_COMPONENT

from storefront import routes
from storefront.components.auth_layout import field, submit_button
from storefront.components.ui import PRIMARY_BUTTON, SECONDARY_BUTTON, error_box, success_box
from storefront.i18n import N_, _
from storefront.pages import registry
from storefront.pages.account.account import CARD, account_frame
from storefront.state.auth import AuthState
from storefront.state.security import SecurityState as S

INPUT = "mt-1 w-full max-w-xs px-4 py-2 rounded-lg border-2 border-slate-200 font-mono"


def _code_input(name: str, label: str, type_: str = "text", **props) -> rx.Component:
    return field(
        label, name, type_, input_id=f"security-{name}", required=True, class_name=INPUT, **props
    )


def _setup() -> rx.Component:
    return rx.el.div(
        rx.el.p(
            _(
                "1. Scan this QR code with your authenticator app (Google Authenticator, "
                "Microsoft Authenticator, 1Password, ...)."
            ),
            class_name="text-sm",
        ),
        rx.el.img(
            src=S.qr_code,
            alt=_("QR code for your authenticator app"),
            width=220,
            height=220,
            class_name="mt-3 w-[220px] h-[220px] bg-white",
            data_testid="two-factor-qr",
        ),
        rx.el.p(_("Or enter this key by hand:"), class_name="mt-3 text-sm"),
        rx.el.code(
            S.secret_text,
            class_name="mt-1 inline-block break-all rounded bg-slate-100 px-3 py-2 font-mono",
            data_testid="two-factor-secret",
        ),
        rx.el.form(
            rx.el.p(_("2. Enter the 6-digit code the app shows."), class_name="text-sm"),
            _code_input(
                "code",
                _("Code"),
                auto_complete="one-time-code",
                input_mode="numeric",
                max_length=6,
            ),
            rx.el.div(
                submit_button(_("Turn on"), S.busy, _("Checking..."), class_name=PRIMARY_BUTTON),
                rx.el.button(
                    _("Cancel"),
                    type="button",
                    on_click=S.cancel_setup,
                    class_name=SECONDARY_BUTTON,
                ),
                class_name="flex flex-wrap gap-3",
            ),
            on_submit=S.confirm,
            reset_on_submit=True,
            class_name="mt-6 space-y-3",
            data_testid="two-factor-confirm",
        ),
    )


# Whether the codes went to the clipboard ('done') or could not ('failed'): the browser's own
# state, set by the copy's promise; the server holds nothing of it.
copied = ClientStateVar.create("recovery_codes_copied", default="", global_ref=True)
RECOVERY_FILE = "recovery-codes.txt"


def _codes_text() -> rx.Var:
    """The codes as the copy and the file hold them: a line saying what they are, then one
    code a line."""
    heading = _("Recovery codes: each signs you in once if you lose your phone.")
    return rx.Var.create(heading + "\n\n") + S.recovery_codes.join("\n") + "\n"


def _copy_codes() -> rx.Var:
    """Writes the codes to the clipboard in the browser (no round trip: the page has them)
    and says whether that worked; a browser that refuses shows how to copy by hand."""
    text = _codes_text()
    setter = copied.set
    return rx.Var(
        # Inside a promise: a page without the clipboard API (not HTTPS) says so too.
        f"(() => Promise.resolve().then(() => navigator.clipboard.writeText({text}))"
        f".then(() => ({setter})('done'), () => ({setter})('failed')))",
        _var_data=VarData.merge(text._get_all_var_data(), setter._get_all_var_data()),
    ).to(FunctionVar, EventChain)


def _download_codes() -> rx.event.EventSpec:
    """Saves the codes as a text file, made in the browser from what the page shows."""
    data = rx.Var.create("data:text/plain;charset=utf-8,") + ENCODE_URI_COMPONENT.call(
        _codes_text()
    ).to(str)
    # As the address itself: given as `data`, Reflex would write the text three times over
    # into the page to test whether it is one.
    return rx.download(url=data, filename=RECOVERY_FILE)


def _code_buttons() -> rx.Component:
    return rx.el.div(
        rx.el.button(
            rx.icon("copy", size=16, aria_hidden="true"),
            _("Copy codes"),
            type="button",
            on_click=_copy_codes(),
            class_name=SECONDARY_BUTTON + " inline-flex items-center gap-2",
            data_testid="recovery-codes-copy",
        ),
        rx.el.button(
            rx.icon("download", size=16, aria_hidden="true"),
            _("Download (.txt)"),
            type="button",
            on_click=_download_codes(),
            class_name=SECONDARY_BUTTON + " inline-flex items-center gap-2",
            data_testid="recovery-codes-download",
        ),
        rx.el.p(
            rx.match(
                copied.value,
                ("done", _("Copied to the clipboard.")),
                ("failed", _("The browser did not allow copying: select the codes and copy them.")),
                "",
            ),
            role="status",
            class_name="text-sm text-slate-700 self-center",
            data_testid="recovery-codes-copied",
        ),
        class_name="mt-4 flex flex-wrap gap-3",
    )


def _recovery_codes() -> rx.Component:
    return rx.el.div(
        rx.el.h3(_("Recovery codes"), class_name="font-bold"),
        rx.el.p(
            _(
                "Each code signs you in once if you lose your phone. They are shown only now: "
                "print them or keep them in a password manager."
            ),
            class_name="mt-1 text-sm text-slate-600",
        ),
        rx.el.ul(
            rx.foreach(S.recovery_codes, lambda code: rx.el.li(code, class_name="font-mono")),
            class_name="mt-3 grid grid-cols-2 gap-2 max-w-sm",
            data_testid="recovery-codes",
        ),
        _code_buttons(),
        rx.el.button(
            _("I have saved them"),
            on_click=[copied.set_value(""), S.hide_recovery_codes],
            class_name=SECONDARY_BUTTON + " mt-4",
        ),
        class_name="mt-6 rounded-2xl border-2 border-amber-200 bg-amber-50 p-4",
    )


def _enabled() -> rx.Component:
    return rx.el.div(
        rx.el.p(
            _("On. Recovery codes left: "),
            rx.el.span(S.recovery_codes_left, data_testid="recovery-codes-left"),
            class_name="text-sm",
        ),
        rx.el.form(
            _code_input(
                "proof",
                _("To turn it off, enter a current code, a recovery code or your password"),
                "password",
                auto_complete="off",
            ),
            submit_button(_("Turn off"), S.busy, _("Turning off..."), class_name=SECONDARY_BUTTON),
            on_submit=S.disable,
            reset_on_submit=True,
            class_name="mt-4 space-y-3",
            data_testid="two-factor-disable",
        ),
    )


def _setup_link() -> rx.Component:
    """Required for every admin: setup starts from a link mailed to the account, so a
    password alone cannot enrol someone else's authenticator."""
    return rx.el.div(
        rx.el.p(
            _("To set it up, open the link we mail to your address."),
            class_name="text-sm text-slate-700",
        ),
        rx.el.button(
            _("Email me a setup link"),
            on_click=S.send_setup_link,
            disabled=S.busy,
            class_name=PRIMARY_BUTTON + " mt-3",
        ),
        class_name="mt-4",
        data_testid="two-factor-setup-link",
    )


def _two_factor() -> rx.Component:
    return rx.el.section(
        rx.el.h2(_("Two-factor sign-in"), class_name="text-lg font-bold"),
        rx.el.p(
            _("After your password, sign-in asks for a code from an authenticator app."),
            class_name="mt-1 text-sm text-slate-600",
        ),
        rx.cond(
            S.required & ~S.enabled,
            rx.el.p(
                _(
                    "Two-factor sign-in is required for every admin: set it up to use the admin "
                    "screens."
                ),
                class_name="mt-3 text-sm font-semibold text-amber-800",
                data_testid="two-factor-required",
            ),
        ),
        rx.el.div(
            success_box(S.notice, "security-notice"),
            error_box(S.error, "security-error"),
            class_name="mt-4 space-y-2",
        ),
        rx.cond(S.recovery_codes.length() > 0, _recovery_codes()),
        rx.cond(
            S.enabled,
            _enabled(),
            rx.cond(
                S.setting_up,
                _setup(),
                rx.cond(
                    S.needs_link,
                    _setup_link(),
                    rx.el.button(
                        _("Set up two-factor sign-in"),
                        on_click=S.start_setup,
                        class_name=PRIMARY_BUTTON + " mt-4",
                    ),
                ),
            ),
        ),
        class_name=CARD + " mt-6",
        data_testid="two-factor",
    )


@registry.page(routes.ACCOUNT_SECURITY, loaders=[S.load])
def security() -> rx.Component:
    return account_frame(
        N_("Security"),
        rx.cond(
            AuthState.is_admin,
            _two_factor(),
            rx.el.p(
                _("Two-factor sign-in is for admin accounts."), class_name="mt-6 text-slate-600"
            ),
        ),
    )
