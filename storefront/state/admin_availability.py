"""Service Availability (admin): the weekly rows of one service, their add/edit modal, toggle
and delete, and the blocked dates of that service and of all services. An AdminState: the
guard refuses its events to anyone but an admin, each handler asks who is calling, and the
service checks the role again."""

from __future__ import annotations

import dataclasses
import logging
import uuid

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services import dates
from storefront.services.booking import availability_admin as schedules
from storefront.services.booking.availability_admin import AvailabilityAdminError
from storefront.state.auth import AdminState
from storefront.state.base import call_service

log = logging.getLogger(__name__)

# A weekday as the back office names it (day_of_week 0 is Sunday, like schedules.DAY_NAMES);
# shown through `_o()`.
DAY_NAMES = dates.OFFICE_DAY_NAMES
DAY_OPTIONS = [[str(i), name] for i, name in enumerate(DAY_NAMES)]
# The screen's words (marked for the office catalog, shown through `_o()`).
SERVICE_ERROR = N_o("Failed to load service details")
LIST_ERROR = N_o("Failed to load service availabilities")
TOGGLE_ERROR = N_o("Failed to update availability status")
DELETE_ERROR = N_o("Failed to delete availability")
SAVE_ERROR = N_o("Failed to save availability")
CONFIRM_DELETE = N_o("Are you sure you want to delete this service? This action cannot be undone.")
# Our own words where the spec has none.
FORM_MESSAGES = {
    "overlap": N_o("This time overlaps another schedule on the same day."),
    "invalid_span": N_o("The start time must be before the end time."),
    "invalid_time": N_o("Enter the start and end time as HH:MM."),
    "invalid_slot_duration": N_o("Slot duration is 1 to 480 minutes."),
    "invalid_max_bookings": N_o("Max bookings per slot is at least 1."),
    "invalid_day": N_o("Choose a day of the week."),
}
# Their `{max}` is the longest reason (schedules.REASON_MAX).
BLOCK_MESSAGES = {
    "invalid_date": N_o("Enter the dates as shown by the date picker."),
    "invalid_range": N_o("The end date must not be before the start date."),
    "reason_too_long": N_o("The reason can be at most {max} characters long."),
}
BLOCK_ERROR = N_o("Failed to block the dates")
UNBLOCK_ERROR = N_o("Failed to remove the blocked dates")
BLOCKED = N_o("Dates blocked successfully")
UNBLOCKED = N_o("Blocked dates removed successfully")


def _service_id_from(path: str) -> str:
    """The last part of /admin/services/availability/{id}: only to know which service to
    show; who may see it is the guard's and the service's business, never the path's."""
    return path.rstrip("/").rsplit("/", 1)[-1][:64]


def _uuid(value: object) -> str:
    """A well-formed id, or '' (the service answers 'not found' to that)."""
    try:
        return str(uuid.UUID(str(value)[:64]))
    except ValueError:
        return ""


def _checked(form: dict, name: str) -> bool:
    return str(form.get(name, "")).lower() in ("on", "true", "1")


class AdminAvailabilityState(AdminState):
    service_id: str = ""
    service_title: str = ""
    rows: list[dict[str, str]] = []
    blocked: list[dict[str, str]] = []
    loaded: bool = False
    notice: str = ""
    error: str = ""

    # The add/edit modal (its inputs start from these values each time it opens).
    form_open: bool = False
    editing_id: str = ""
    form_values: dict[str, str] = dict(schedules.NEW_SCHEDULE)
    form_available: bool = True
    form_error: str = ""

    # The delete confirmations.
    confirm_id: str = ""
    confirm_block_id: str = ""

    # The blocked-dates form; its key changes to clear it after a success.
    block_error: str = ""
    block_form_key: int = 0

    @rx.event
    async def load(self):
        self._clear_modals()
        self.notice = self.error = self.block_error = ""
        self.loaded = False
        self.rows, self.blocked, self.service_title = [], [], ""
        self.service_id = _uuid(_service_id_from(self.router.url.path))
        # The screen shows it is loading at once ('Add Availability' waits): the tab's state
        # still held the last visit's rows, and an 'Add' pressed now would be refused.
        yield
        caller = await self._admin_id()
        if not caller:
            return
        try:
            header = await call_service(
                schedules.service_header, actor_id=caller, service_id=self.service_id
            )
        except Exception:
            log.exception("availability: service %s", self.service_id)
            self.error = _o(SERVICE_ERROR)
            return
        self.service_title = header.title
        await self._reload(caller)
        self.loaded = True

    async def _reload(self, caller: str) -> None:
        try:
            rows = await call_service(
                schedules.list_schedule, actor_id=caller, service_id=self.service_id
            )
            blocked = await call_service(
                schedules.list_blocked_dates, actor_id=caller, service_id=self.service_id
            )
        except Exception:
            log.exception("availability: rows of %s", self.service_id)
            self.error = _o(LIST_ERROR)
            return
        self.rows = [_schedule_row(r) for r in rows]
        self.blocked = [_blocked_row(b) for b in blocked]

    def _clear_modals(self) -> None:
        self.form_open, self.editing_id, self.form_error = False, "", ""
        self.confirm_id = self.confirm_block_id = ""

    def _known_row(self, availability_id: object) -> dict[str, str] | None:
        wanted = _uuid(availability_id)
        return next((r for r in self.rows if wanted and r["id"] == wanted), None)

    # --- the add/edit modal -------------------------------------------------------------

    @rx.event
    def open_new(self):
        if not self.loaded:
            return
        self._clear_modals()
        self.form_values = dict(schedules.NEW_SCHEDULE)
        self.form_available = True
        self.form_open = True

    @rx.event
    def open_edit(self, availability_id: str):
        row = self._known_row(availability_id)
        if row is None:
            return
        self._clear_modals()
        self.editing_id = row["id"]
        self.form_values = {
            "day_of_week": row["day_of_week"],
            "start_time": row["start_time"],
            "end_time": row["end_time"],
            "max_bookings_per_slot": row["max_bookings_per_slot"],
            "slot_duration_minutes": row["slot_duration_minutes"],
        }
        self.form_available = row["is_available"] == "yes"
        self.form_open = True

    @rx.event
    def close_form(self):
        self.form_open, self.form_error = False, ""

    @rx.event
    async def save(self, form_data: dict):
        caller = await self._admin_id()
        if not caller or not self.form_open or not isinstance(form_data, dict):
            return
        self.form_error = ""
        try:
            schedule = schedules.check_schedule(
                day_of_week=str(form_data.get("day_of_week", ""))[:4],
                start_time=str(form_data.get("start_time", ""))[:8],
                end_time=str(form_data.get("end_time", ""))[:8],
                max_bookings_per_slot=str(form_data.get("max_bookings_per_slot", ""))[:8],
                slot_duration_minutes=str(form_data.get("slot_duration_minutes", ""))[:8],
                is_available=_checked(form_data, "is_available"),
            )
            if self.editing_id:
                await call_service(
                    schedules.update_availability,
                    actor_id=caller,
                    availability_id=self.editing_id,
                    schedule=schedule,
                )
            else:
                await call_service(
                    schedules.create_availability,
                    actor_id=caller,
                    service_id=self.service_id,
                    schedule=schedule,
                )
        except AvailabilityAdminError as exc:
            self.form_error = _o(FORM_MESSAGES.get(exc.code, SAVE_ERROR))
            return
        except Exception:
            log.exception("availability: save")
            self.form_error = _o(SAVE_ERROR)
            return
        self.form_open, self.editing_id = False, ""
        self.notice, self.error = _o("Availability saved successfully"), ""
        await self._reload(caller)

    # --- toggle and delete ----------------------------------------------------------------

    @rx.event
    async def toggle(self, availability_id: str):
        caller = await self._admin_id()
        row = self._known_row(availability_id)
        if not caller or row is None:
            return
        try:
            now_available = await call_service(
                schedules.toggle_availability, actor_id=caller, availability_id=row["id"]
            )
        except Exception:
            log.exception("availability: toggle")
            self.notice, self.error = "", _o(TOGGLE_ERROR)
        else:
            self.notice = (
                _o("Availability enabled successfully")
                if now_available
                else _o("Availability disabled successfully")
            )
            self.error = ""
        await self._reload(caller)

    @rx.event
    def ask_delete(self, availability_id: str):
        row = self._known_row(availability_id)
        if row is not None:
            self._clear_modals()
            self.confirm_id = row["id"]

    @rx.event
    def cancel_delete(self):
        self.confirm_id = self.confirm_block_id = ""

    @rx.event
    async def delete(self):
        caller = await self._admin_id()
        row = self._known_row(self.confirm_id)
        self.confirm_id = ""
        if not caller or row is None:
            return
        try:
            await call_service(
                schedules.delete_availability, actor_id=caller, availability_id=row["id"]
            )
        except Exception:
            log.exception("availability: delete")
            self.notice, self.error = "", _o(DELETE_ERROR)
        else:
            self.notice, self.error = _o("Availability deleted successfully"), ""
        await self._reload(caller)

    # --- blocked dates --------------------------------------------------------------------

    @rx.event
    async def block(self, form_data: dict):
        caller = await self._admin_id()
        if not caller or not self.loaded or not isinstance(form_data, dict):
            return
        self.block_error = ""
        try:
            await call_service(
                schedules.block_dates,
                actor_id=caller,
                service_id=self.service_id,
                start_date=str(form_data.get("start_date", ""))[:10],
                end_date=str(form_data.get("end_date", ""))[:10],
                reason=str(form_data.get("reason", ""))[: schedules.REASON_MAX + 1],
                recurring_yearly=_checked(form_data, "recurring_yearly"),
                all_services=_checked(form_data, "all_services"),
            )
        except AvailabilityAdminError as exc:
            self.block_error = _o(BLOCK_MESSAGES.get(exc.code, BLOCK_ERROR)).format(
                max=schedules.REASON_MAX
            )
            return
        except Exception:
            log.exception("availability: block dates")
            self.block_error = _o(BLOCK_ERROR)
            return
        self.notice, self.error = _o(BLOCKED), ""
        self.block_form_key += 1
        await self._reload(caller)

    @rx.event
    def ask_unblock(self, blocked_id: str):
        wanted = _uuid(blocked_id)
        if wanted and any(b["id"] == wanted for b in self.blocked):
            self._clear_modals()
            self.confirm_block_id = wanted

    @rx.event
    async def unblock(self):
        caller = await self._admin_id()
        wanted = self.confirm_block_id
        self.confirm_block_id = ""
        if not caller or not any(b["id"] == wanted for b in self.blocked):
            return
        try:
            await call_service(schedules.unblock_dates, actor_id=caller, blocked_id=wanted)
        except Exception:
            log.exception("availability: unblock")
            self.notice, self.error = "", _o(UNBLOCK_ERROR)
        else:
            self.notice, self.error = _o(UNBLOCKED), ""
        await self._reload(caller)


def _schedule_row(row: schedules.ScheduleRow) -> dict[str, str]:
    data = {k: str(v) for k, v in dataclasses.asdict(row).items()}
    data["is_available"] = "yes" if row.is_available else "no"
    data["day"] = _o(DAY_NAMES[row.day_of_week])
    data["status"] = _o("Available") if row.is_available else _o("Unavailable")
    data["hours"] = f"{row.start_time} - {row.end_time}"
    return data


def _blocked_row(row: schedules.BlockedRow) -> dict[str, str]:
    return {
        "id": row.id,
        "dates": row.dates,
        "reason": row.reason,
        "repeats": _o("Every year") if row.recurring_yearly else _o("Once"),
        "scope": _o("All services") if row.all_services else _o("This service"),
    }
