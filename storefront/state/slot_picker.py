"""The date-and-time picker of the booking screen, the cart and a booking's move: a month of
bookable days and the free start times of the chosen day, as the server computes them
(services/availability). It counts the cart's other lines of the same service (docs/product.md
§5). Public: it shows only availability; while a booking moves (`_open_for_move`, called by the
booking page's state, never sent by a browser) its days and times are those at which the whole
booking fits, asked of services/booking/changes.py for the caller of each event, which checks
the link's key or the account again."""

from __future__ import annotations

from datetime import date, time

import reflex as rx

from storefront.i18n import N_, _
from storefront.services import dates
from storefront.services.booking import availability, cart, placing
from storefront.services.booking import changes as booking_changes
from storefront.services.booking.lines import parse_date, parse_time
from storefront.services.catalog import public as catalog
from storefront.state.access import access
from storefront.state.auth import AuthState
from storefront.state.base import call_service

# Messages, marked for translation and said with `_()` where they are shown.
DAYS_ERROR = N_("Failed to load available days")
SLOTS_ERROR = N_("Failed to load time slots")
TOO_MANY = N_(
    "Only {units} can be booked for one time, and {quantity} are asked for: lower the quantity "
    "in your cart."
)
NO_DAY = N_("No day in {month} has a free time for this. Please try the next month.")
DURATIONS = [str(h) for h in range(1, 9)]


@access("public")
class SlotPickerState(rx.State):
    service_id: str = ""
    # The cart's other lines of this service (read once from open_for's `cart_json`, what the
    # visitor holds): counted as taken.
    _cart_holds: tuple[availability.CartHold, ...] = ()
    quantity: int = 1
    line_id: str = ""  # the cart line being given a time; blank on the booking screen
    year: int = 0
    month: int = 0
    days: list[dict[str, str]] = []
    slots: list[dict[str, str]] = []
    selected_date: str = ""
    selected_time: str = ""
    duration: str = "1"
    # The service has its own length (a package: catalog.own_hours_of): `duration` is that
    # length, shown as text; no other can be picked (issue 34, item 3).
    own_length: bool = False
    error: str = ""
    # Why no day of the month shown can be picked ('' while one can).
    no_day_reason: str = ""
    loading: bool = False
    _units: int = 0  # the service's units: the most one time can hold
    _open_days: str = ""  # the open days of `days`, 'YYYY-MM-DD YYYY-MM-DD ...'
    # The booking being moved and its link's key ('' while the picker serves a cart line).
    _move_booking: str = ""
    _move_key: str = ""

    @rx.var
    def month_label(self) -> str:
        return f"{dates.month_name(self.month)} {self.year}" if self.month else ""

    @rx.var
    def selected_label(self) -> str:
        return dates.display_day(self.selected_date) if self.selected_date else ""

    @rx.event
    async def open_for(
        self,
        service_id: str,
        quantity: int = 1,
        line_id: str = "",
        day: str = "",
        start_time: str = "",
        duration: int = 1,
        cart_json: str = "",
    ):
        """Open on `service_id` for `quantity` units. `cart_json` is the visitor's cart (the
        cart's own copy, passed by whoever opens the picker): its other lines of this service
        count as taken; `line_id` is the cart line being set, which does not."""
        self._move_booking = self._move_key = ""
        cart_json = str(cart_json)
        self.service_id = str(service_id)[:64]
        self.line_id = str(line_id)[:200]
        self.quantity = _bounded(quantity, 1, cart.MAX_QUANTITY)
        # A package of a known length is picked for that length, whatever the caller says.
        own = await call_service(catalog.own_hours_of, service_id=self.service_id)
        self.own_length = own is not None
        self.duration = str(own or _bounded(duration, 1, 8))
        self._cart_holds = _holds_of(
            cart.parse(cart_json if len(cart_json) <= cart.MAX_CART_JSON else ""),
            service_id=self.service_id,
            line_id=self.line_id,
            own=own,
        )
        self._choose(day, start_time)
        self._units = await call_service(availability.service_units, service_id=self.service_id)
        await self._load_month()
        if self.selected_date:
            await self._load_slots(keep_time=True)
        else:
            self.slots = []

    async def _open_for_move(
        self, booking_id: str, key: str, day: str, start_time: str, duration: int
    ) -> None:
        """Open on a booking to move (BookingViewState.open_move, once it has the booking for
        its caller): its current day and time chosen, `duration` its first service's hours."""
        self._move_booking, self._move_key = booking_id, key
        self._cart_holds, self.service_id, self.line_id = (), "", ""
        self.quantity, self._units = 1, 0
        self.own_length = False  # a move shows no duration at all (`choose_duration=False`)
        self.duration = str(_bounded(duration, 1, 8))
        self._choose(day, start_time)
        await self._load_month()
        if self.selected_date:
            await self._load_slots(keep_time=True)
        else:
            self.slots = []

    def _choose(self, day: object, start_time: object) -> None:
        """Start on `day` and `start_time` (the line's or the booking's, read with the one parser
        of a day: lines.parse_date) and show its month; today's month without one."""
        chosen = parse_date(day)
        self.selected_date = chosen.isoformat() if chosen else ""
        self.selected_time = str(start_time)[:5] if chosen else ""
        shown = chosen or dates.today()
        self.year, self.month = shown.year, shown.month

    def _chosen(self) -> tuple[date, time] | None:
        """The day and the start time picked, as typed values (both were checked when picked:
        the day among the month's open days, the time among the day's free slots); None until
        both are."""
        day, clock = parse_date(self.selected_date), parse_time(self.selected_time)
        return (day, clock) if day and clock else None

    @rx.event
    async def previous_month(self):
        self.year, self.month = (
            (self.year, self.month - 1)
            if self.month > 1
            else (
                self.year - 1,
                12,
            )
        )
        await self._load_month()

    @rx.event
    async def next_month(self):
        self.year, self.month = (
            (self.year, self.month + 1)
            if self.month < 12
            else (
                self.year + 1,
                1,
            )
        )
        await self._load_month()

    @rx.event
    async def pick_day(self, day: str):
        chosen = parse_date(day)
        if chosen is None:
            return
        if chosen.isoformat() not in self._open_days:
            return  # greyed days are not clickable, whatever the browser sends
        self.selected_date, self.selected_time = chosen.isoformat(), ""
        await self._load_slots()

    @rx.event
    def pick_time(self, start_time: str):
        if any(s["start"] == start_time and s["available"] == "yes" for s in self.slots):
            self.selected_time = start_time

    @rx.event
    async def pick_duration(self, hours: str):
        # A move keeps every line's hours; a package of a known length keeps its own.
        if hours in DURATIONS and not self._move_booking and not self.own_length:
            self.duration = hours
            await self._load_month()
            if self.selected_date:
                await self._load_slots(keep_time=True)

    async def _mover(self) -> dict:
        """The arguments of booking_changes.move_days/move_slots: the booking, its key, and
        the caller of this event (the service checks them)."""
        auth_state = await self.get_state(AuthState)
        user_id, _role = await auth_state._caller()
        return {
            "booking_id": self._move_booking,
            "key": self._move_key or None,
            "viewer_id": user_id,
        }

    async def _load_month(self) -> None:
        self.loading, self.error = True, ""
        try:
            if self._move_booking:
                statuses = await call_service(
                    booking_changes.move_days,
                    year=self.year,
                    month=self.month,
                    **await self._mover(),
                )
            else:
                statuses = await call_service(
                    availability.month_days,
                    service_id=self.service_id,
                    year=self.year,
                    month=self.month,
                    duration_hours=int(self.duration),
                    quantity=self.quantity,
                    cart_holds=self._cart_holds,
                )
        except (availability.AvailabilityError, booking_changes.BookingChangeError):
            self.days, self.error = [], _("Error: {message}").format(message=_(DAYS_ERROR))
        else:
            self.days = [
                {"date": d.date, "day": d.day, "available": "yes" if d.available else "no"}
                for d in availability.month_grid(statuses)
            ]
        # The month's open days, as one string: `pick_day` checks a day without walking the
        # shown list (each of its dicts would be wrapped for change tracking).
        self._open_days = " ".join(d["date"] for d in self.days if d["available"] == "yes")
        self.no_day_reason = _no_day_reason(
            self.days,
            self.quantity,
            self._units,
            f"{dates.month_in_sentence(self.month)} {self.year}",
        )
        self.loading = False

    async def _load_slots(self, *, keep_time: bool = False) -> None:
        try:
            if self._move_booking:
                slots = await call_service(
                    booking_changes.move_slots,
                    day=parse_date(self.selected_date),
                    **await self._mover(),
                )
            else:
                slots = await call_service(
                    availability.day_slots,
                    service_id=self.service_id,
                    day=parse_date(self.selected_date),
                    duration_hours=int(self.duration),
                    quantity=self.quantity,
                    cart_holds=self._cart_holds,
                )
        except (availability.AvailabilityError, booking_changes.BookingChangeError):
            self.slots, self.error = [], _("Error: {message}").format(message=_(SLOTS_ERROR))
            return
        # Read from the local list: the state's own list comes back wrapped (Reflex's proxy).
        shown = [
            {"start": s.start_time, "available": "yes" if s.available else "no"} for s in slots
        ]
        self.slots = shown
        free = {s["start"] for s in shown if s["available"] == "yes"}
        if not keep_time or self.selected_time not in free:
            self.selected_time = ""


def _no_day_reason(days: list[dict[str, str]], quantity: int, units: int, month: str) -> str:
    if not days or any(d["available"] == "yes" for d in days):
        return ""
    if 0 < units < quantity:
        return _(TOO_MANY).format(units=units, quantity=quantity)
    return _(NO_DAY).format(month=month)


def _bounded(value: object, low: int, high: int) -> int:
    try:
        number = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return low
    return max(low, min(high, number))


def _holds_of(
    typed: cart.Cart, *, service_id: str, line_id: str, own: int | None
) -> tuple[availability.CartHold, ...]:
    """The cart's other lines of `service_id` (on the booking screen: all of them), each for the
    service's own length `own` when it has one."""
    return tuple(
        placing.other_cart_holds(
            cart.booking_lines(typed).lines,
            service_id=service_id,
            except_index=typed.index_of(line_id),
            hours=own,
        )
    )
