"""Admin Settings (docs/architecture.md §9.6): the business details the public pages, the footer,
the contact
page and the notifications show. An AdminState; the business service checks the role again."""

from __future__ import annotations

import uuid

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services import business
from storefront.services.accounts import two_factor
from storefront.services.booking import transport
from storefront.services.operations import backup, travel
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.business import BusinessState
from storefront.state.errors import log_failure, refused_fields

FIELDS = (
    *business.SETTINGS_FIELDS,
    *business.NUMBER_FIELDS,
    *business.ENGLISH_FIELDS,
    "staff_language",
    "fiscal_number",
    "deposit_above",
)
# The screen's words (marked for the office catalog, shown through `_o()`).
SAVED = N_o("Settings saved successfully")
FAILED = N_o("Failed to save settings")
LOAD_FAILED = N_o("Failed to load settings")


class AdminSettingsState(AdminState):
    values: dict[str, str] = {}
    field_errors: dict[str, str] = {}
    notice: str = ""
    error: str = ""

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        self.field_errors = {}
        if not await self._admin_id():
            return
        try:
            self.values = await call_service(business.editable_settings)
        except Exception as exc:
            log_failure("AdminSettingsState.load", exc)
            self.error = _o(LOAD_FAILED)

    @rx.event
    def set_value(self, name: str, value: str):
        if name in FIELDS:
            self.values[name] = str(value)[:255]
            self.field_errors = {k: v for k, v in self.field_errors.items() if k != name}

    @rx.event
    async def save(self, _form: dict | None = None):
        caller = await self._admin_id()
        if not caller:
            return
        self.notice = self.error = ""
        try:
            await call_service(
                business.update_settings,
                actor_id=caller,
                values={name: self.values.get(name, "") for name in FIELDS},
            )
        except business.SettingsError as exc:
            fields = exc.details.get("fields", {}) if exc.code == "invalid" else {}
            # The service names each refused field and its rule (business.check_settings).
            messages = exc.details.get("messages", {})
            self.field_errors = {k: messages.get(k) or _o(FAILED) for k in fields}
            self.error = _o(FAILED)
            return
        except Exception as exc:
            log_failure("AdminSettingsState.save", exc)
            self.error = _o(FAILED)
            return
        self.field_errors, self.notice = {}, _o(SAVED)
        # This tab's footer and contact card show the new details at once.
        public = await self.get_state(BusinessState)
        public.details = (await call_service(business.business_details)).as_dict()


REQUIRED_ON = N_o("Two-factor sign-in is now required for every admin")
REQUIRED_OFF = N_o("Two-factor sign-in is no longer required")
ENABLE_FIRST = N_o("Turn on two-factor sign-in for your own account first (Account, Security)")


class AdminTwoFactorState(AdminState):
    """The setting that makes two-factor sign-in required for every admin."""

    required: bool = False
    notice: str = ""
    error: str = ""

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        if await self._admin_id():
            self.required = await call_service(two_factor.required_for_admins)

    @rx.event
    async def set_required(self, required: bool):
        caller = await self._admin_id()
        if not caller:
            return
        self.notice = self.error = ""
        try:
            await call_service(two_factor.set_required, actor_id=caller, required=bool(required))
        except two_factor.TwoFactorError as exc:
            self.error = _o(ENABLE_FIRST) if exc.code == "enable_first" else _o(FAILED)
            return
        except Exception as exc:
            log_failure("AdminTwoFactorState.set_required", exc)
            self.error = _o(FAILED)
            return
        self.required = bool(required)
        self.notice = _o(REQUIRED_ON) if required else _o(REQUIRED_OFF)


DAILY_ON = N_o("The app now backs itself up every day")
DAILY_OFF = N_o("The daily backup is off")


class AdminBackupState(AdminState):
    """The business setting that makes the app back itself up once a day (services/operations/backup.py),
    and where backups go (the server's BACKUP_URL or BACKUP_DIR, shown, not edited here)."""

    daily: bool = False
    target: str = ""
    hour: int = 3
    notice: str = ""
    error: str = ""

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        caller = await self._admin_id()
        if not caller:
            return
        try:
            setting = await call_service(backup.daily_setting, actor_id=caller)
        except Exception as exc:
            log_failure("AdminBackupState.load", exc)
            self.error = _o(LOAD_FAILED)
            return
        self.daily, self.target, self.hour = setting.daily, setting.target, setting.hour

    @rx.event
    async def set_daily(self, daily: bool):
        caller = await self._admin_id()
        if not caller:
            return
        self.notice = self.error = ""
        try:
            await call_service(backup.set_daily, actor_id=caller, daily=bool(daily))
        except Exception as exc:
            log_failure("AdminBackupState.set_daily", exc)
            self.error = _o(FAILED)
            return
        self.daily = bool(daily)
        self.notice = _o(DAILY_ON) if daily else _o(DAILY_OFF)


TRANSPORT_SAVED = N_o("Transport fees saved")
TRANSPORT_FAILED = N_o("Failed to save the transport fees")


class AdminTransportState(AdminState):
    """The Transport card: each municipality's fee, or not served online
    (services/booking/transport.py checks the admin and every value again)."""

    fees: dict[str, str] = {}
    not_served: list[str] = []
    # New at each load: the card's fields are drawn again from `fees` and `not_served`.
    form_key: str = ""
    field_errors: dict[str, str] = {}
    notice: str = ""
    error: str = ""

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        self.field_errors = {}
        if not await self._admin_id():
            return
        try:
            shown = await call_service(transport.editable_fees)
        except Exception as exc:
            log_failure("AdminTransportState.load", exc)
            self.error = _o(LOAD_FAILED)
            return
        self.not_served = [k for k, v in shown.items() if v == transport.NOT_SERVED]
        self.fees = {k: ("" if v == transport.NOT_SERVED else v) for k, v in shown.items()}
        self.form_key = uuid.uuid4().hex

    @rx.event
    async def save(self, form: dict | None = None):
        """The card as the browser sent it: `fee-{key}` and, when ticked, `off-{key}`."""
        caller = await self._admin_id()
        if not caller:
            return
        self.notice = self.error = ""
        form = form if isinstance(form, dict) else {}
        values = {
            key: transport.NOT_SERVED
            if form.get(f"off-{key}")
            else str(form.get(f"fee-{key}", value))[:32]
            for key, value in self.fees.items()
        }
        self.fees = {k: ("" if v == transport.NOT_SERVED else v) for k, v in values.items()}
        self.not_served = [k for k, v in values.items() if v == transport.NOT_SERVED]
        try:
            await call_service(transport.update_transport_fees, actor_id=caller, values=values)
        except transport.TransportError as exc:
            self.field_errors = refused_fields(exc, _o(TRANSPORT_FAILED))
            self.error = _o(TRANSPORT_FAILED)
            return
        except Exception as exc:
            log_failure("AdminTransportState.save", exc)
            self.error = _o(TRANSPORT_FAILED)
            return
        self.field_errors, self.notice = {}, _o(TRANSPORT_SAVED)


TRAVEL_SAVED = N_o("Driving times saved")
TRAVEL_FAILED = N_o("Failed to save the driving times")


class AdminTravelState(AdminState):
    """The Travel card: the depot's municipality and the minutes from it to each municipality
    (services/operations/travel.py checks the admin and every value again)."""

    depot: str = ""
    minutes: dict[str, str] = {}
    # New at each load: the card's fields are drawn again from `depot` and `minutes`.
    form_key: str = ""
    field_errors: dict[str, str] = {}
    notice: str = ""
    error: str = ""

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        self.field_errors = {}
        if not await self._admin_id():
            return
        try:
            shown = await call_service(travel.editable_travel)
        except Exception as exc:
            log_failure("AdminTravelState.load", exc)
            self.error = _o(LOAD_FAILED)
            return
        self.depot = shown.pop("depot", "")
        self.minutes = shown
        self.form_key = uuid.uuid4().hex

    @rx.event
    async def save(self, form: dict | None = None):
        """The card as the browser sent it: `depot` and `minutes-{key}`."""
        caller = await self._admin_id()
        if not caller:
            return
        self.notice = self.error = ""
        form = form if isinstance(form, dict) else {}
        self.depot = str(form.get("depot", self.depot))[:64]
        self.minutes = {
            key: str(form.get(f"minutes-{key}", value))[:16] for key, value in self.minutes.items()
        }
        try:
            await call_service(
                travel.update_travel,
                actor_id=caller,
                values={"depot": self.depot, **self.minutes},
            )
        except travel.TravelError as exc:
            self.field_errors = refused_fields(exc, _o(TRAVEL_FAILED))
            self.error = _o(TRAVEL_FAILED)
            return
        except Exception as exc:
            log_failure("AdminTravelState.save", exc)
            self.error = _o(TRAVEL_FAILED)
            return
        self.field_errors, self.notice = {}, _o(TRAVEL_SAVED)
