"""The day's cash (/admin/cash/{date}, issue 36): what each member of staff collected that day,
by method, against what the day's bookings owed, the bookings left unpaid, and 'Handed over'.
An AdminState: the guard refuses its events to anyone else, and the service checks again."""

from __future__ import annotations

from datetime import date

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import N_o, _o, _s
from storefront.services import dates
from storefront.services.money import format_price
from storefront.services.payments import cash, ledger
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.errors import log_failure

LOAD_FAILED = N_o("Failed to load the day's cash. Please try again.")
BAD_DAY = N_o("Please give the day as DD.MM.YYYY.")
HANDOVER_FAILED = N_o("Failed to record the handover. Please try again.")
HANDED_OVER = N_o("{name} handed over {amount}.")
NOTHING_HELD = N_o("There is no cash to hand over.")


def cash_url(day: date) -> str:
    return i18n.href(routes.with_id(routes.ADMIN_CASH_OF, day.isoformat()))


def _money(amount) -> str:
    return format_price(amount)


class AdminCashState(AdminState):
    day: str = ""
    title: str = ""
    previous_url: str = ""
    next_url: str = ""
    today_url: str = ""
    due: str = ""
    paid: str = ""
    collected: str = ""
    staff: list[dict[str, str]] = []
    staff_methods: list[list[str]] = []
    unpaid: list[dict[str, str]] = []
    loaded: bool = False
    notice: str = ""
    error: str = ""
    busy: str = ""

    async def _show(self, caller: str, day: object) -> None:
        try:
            sheet = await call_service(cash.day_cash, actor_id=caller, day=day)
        except cash.CashError as exc:
            if exc.code != "invalid_day":
                self.error = _o(LOAD_FAILED)
                return
            self.error = _o(BAD_DAY)
            sheet = await call_service(cash.day_cash, actor_id=caller, day="")
        except Exception as exc:
            log_failure("AdminCashState._show", exc)
            self.error = _o(LOAD_FAILED)
            return
        self.day = sheet.day.isoformat()
        self.title = f"{_o(dates.OFFICE_DAY_NAMES[(sheet.day.weekday() + 1) % 7])}, " + (
            dates.display_day(sheet.day)
        )
        self.previous_url, self.next_url = cash_url(sheet.previous), cash_url(sheet.next)
        self.today_url = i18n.href(routes.ADMIN_CASH)
        self.due, self.paid = _money(sheet.due), _money(sheet.paid)
        self.collected = _money(sheet.collected)
        self.staff = [
            {
                "id": s.staff_id,
                "name": s.name or "—",
                "methods": " · ".join(
                    f"{_s(ledger.METHOD_WORDS[m])}: {_money(a)}"
                    for m, a in sorted(s.by_method.items())
                ),
                "total": _money(s.total),
                "cash": _money(s.cash),
                "handed_over": _money(s.handed_over),
                "held": _money(s.held),
                "holds": "yes" if s.held > 0 else "",
                "handovers": "; ".join(s.handovers),
            }
            for s in sheet.staff
        ]
        self.unpaid = [
            {
                "reference": u.reference,
                "customer": u.customer,
                "due": _money(u.due),
                "paid": _money(u.paid),
                "balance": _money(u.balance),
            }
            for u in sheet.unpaid
        ]
        self.loaded = True

    @rx.event
    async def load(self):
        """on_load: the cash of the day in the address (today's at /admin/cash)."""
        self.notice = self.error = self.busy = ""
        self.loaded = False
        caller = await self._admin_id()
        if caller:
            await self._show(caller, str(self.router.page.params.get("day") or "")[:10])

    @rx.event
    async def hand_over(self, staff_id: str):
        """'Handed over': the admin took this member of staff's cash of the day."""
        if self.busy:
            return
        caller = await self._admin_id()
        if not caller:
            return
        staff_id = str(staff_id)[:64]
        shown = next((s for s in self.staff if s["id"] == staff_id), None)
        if shown is None:
            return
        self.busy, self.notice, self.error = staff_id, "", ""
        yield
        try:
            handed = await call_service(
                cash.hand_over, actor_id=caller, staff_id=staff_id, day=self.day
            )
        except cash.CashError as exc:
            self.error = _o(NOTHING_HELD) if exc.code == "nothing_held" else _o(HANDOVER_FAILED)
        except Exception as exc:
            log_failure("AdminCashState.hand_over", exc, staff=staff_id)
            self.error = _o(HANDOVER_FAILED)
        else:
            self.notice = _o(HANDED_OVER).format(name=shown["name"], amount=_money(handed.amount))
        self.busy = ""
        await self._show(caller, self.day)
