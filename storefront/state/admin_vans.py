"""Vans and the day's plan (/admin/vans, /admin/vans/plan/{day}, issue 37). AdminStates: the
guard refuses their events to anyone else, and services/operations/vans.py checks again."""

from __future__ import annotations

import uuid

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import N_o, _o
from storefront.services import dates
from storefront.services.operations import vans
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.errors import log_failure, refused_fields

LOAD_FAILED = N_o("Failed to load the vans. Please try again.")
SAVE_FAILED = N_o("Failed to save the van. Please check the fields.")
VAN_SAVED = N_o("Van {name} saved.")
VAN_SET_ASIDE = N_o("Van {name} set aside: it takes no new runs.")
VAN_BACK = N_o("Van {name} is back in use.")
PLAN_FAILED = N_o("Failed to load the day's plan. Please try again.")
BAD_DAY = N_o("Please give the day as YYYY-MM-DD.")
ASSIGNED = N_o("{reference} {leg}: given to {van}.")
ASSIGN_FAILED = N_o("Failed to assign the run. Please try again.")
# What each refusal of `assign` says, beside the run.
ASSIGN_MESSAGES = {
    "not_found": N_o("Choose a van from the list."),
    "set_aside": N_o("This van is set aside. Choose another."),
    "not_staff": N_o("Only staff and admins can be on a crew."),
    "no_crew": N_o("Tick at least one member of the crew."),
    "no_run": N_o("This booking has no such run on this day any more."),
    "busy": N_o("Someone else is assigning this run. Please try again."),
}


def plan_url(day: str) -> str:
    return i18n.href(routes.with_id(routes.ADMIN_VANS_PLAN_OF, day))


class AdminVansState(AdminState):
    """The vans: the list, the form to add or change one, set aside and bring back."""

    vans: list[dict[str, str]] = []
    # The van the form changes ('' adds one) and what the form shows.
    editing: str = ""
    form: dict[str, str] = {}
    form_key: str = ""
    field_errors: dict[str, str] = {}
    loaded: bool = False
    notice: str = ""
    error: str = ""

    async def _list(self, caller: str) -> bool:
        try:
            found = await call_service(vans.list_vans, actor_id=caller)
        except Exception as exc:
            log_failure("AdminVansState._list", exc)
            self.error = _o(LOAD_FAILED)
            return False
        self.vans = [
            {
                "id": v.id,
                "name": v.name,
                "plate": v.plate,
                "note": v.note,
                "active": "yes" if v.active else "",
                "runs": str(v.runs),
            }
            for v in found
        ]
        return True

    def _fresh_form(self, van: dict[str, str] | None = None) -> None:
        self.editing = van["id"] if van else ""
        self.form = {k: (van or {}).get(k, "") for k in ("name", "plate", "note")}
        self.field_errors = {}
        self.form_key = uuid.uuid4().hex

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        self.loaded = False
        caller = await self._admin_id()
        if not caller:
            return
        if await self._list(caller):
            self._fresh_form()
            self.loaded = True

    @rx.event
    async def edit(self, van_id: str):
        if not await self._admin_id():
            return
        van = next((v for v in self.vans if v["id"] == str(van_id)[:64]), None)
        self.notice = self.error = ""
        self._fresh_form(van)

    @rx.event
    async def new(self):
        if not await self._admin_id():
            return
        self.notice = self.error = ""
        self._fresh_form()

    @rx.event
    async def save(self, form: dict | None = None):
        """The form as the browser sent it: `name`, `plate`, `note`."""
        caller = await self._admin_id()
        if not caller:
            return
        self.notice = self.error = ""
        form = form if isinstance(form, dict) else {}
        values = {k: str(form.get(k, ""))[:2000] for k in ("name", "plate", "note")}
        self.form = values
        try:
            van = await call_service(
                vans.save_van, actor_id=caller, values=values, van_id=self.editing or None
            )
        except vans.VanError as exc:
            self.field_errors = refused_fields(exc, _o(SAVE_FAILED))
            self.error = _o(SAVE_FAILED)
            return
        except Exception as exc:
            log_failure("AdminVansState.save", exc)
            self.error = _o(SAVE_FAILED)
            return
        await self._list(caller)
        self._fresh_form()
        self.notice = _o(VAN_SAVED).format(name=van.name)

    @rx.event
    async def set_active(self, van_id: str, active: bool):
        caller = await self._admin_id()
        if not caller:
            return
        self.notice = self.error = ""
        try:
            van = await call_service(
                vans.set_active, actor_id=caller, van_id=str(van_id)[:64], active=bool(active)
            )
        except Exception as exc:
            log_failure("AdminVansState.set_active", exc)
            self.error = _o(SAVE_FAILED)
            return
        await self._list(caller)
        self.notice = (_o(VAN_BACK) if van.active else _o(VAN_SET_ASIDE)).format(name=van.name)


class AdminVanPlanState(AdminState):
    """The day's plan: every run in leave order, its van and crew, the clashes."""

    day: str = ""
    title: str = ""
    previous_url: str = ""
    next_url: str = ""
    today_url: str = ""
    runs: list[dict[str, str]] = []
    van_choices: list[dict[str, str]] = []
    crew_choices: list[dict[str, str]] = []
    by_van: list[dict[str, str]] = []
    clash_count: int = 0
    run_errors: dict[str, str] = {}
    form_key: str = ""
    loaded: bool = False
    notice: str = ""
    error: str = ""

    async def _show(self, caller: str, day: object) -> None:
        try:
            plan = await call_service(vans.plan, actor_id=caller, day=day)
        except vans.VanError as exc:
            if exc.code != "invalid_day":
                self.error = _o(PLAN_FAILED)
                return
            self.error = _o(BAD_DAY)
            plan = await call_service(vans.plan, actor_id=caller, day=None)
        except Exception as exc:
            log_failure("AdminVanPlanState._show", exc)
            self.error = _o(PLAN_FAILED)
            return
        self.day = plan.day.isoformat()
        self.title = f"{_o(dates.OFFICE_DAY_NAMES[(plan.day.weekday() + 1) % 7])}, " + (
            dates.display_day(plan.day)
        )
        self.previous_url = plan_url(plan.previous.isoformat())
        self.next_url = plan_url(plan.next.isoformat())
        self.today_url = i18n.href(routes.ADMIN_VANS_PLAN)
        self.runs = [
            {
                "key": r.key,
                "reference": r.reference,
                "customer": r.customer,
                "leg": r.leg,
                "leg_words": r.leg_words,
                "times": f"{r.depart}–{r.back}",
                "municipality": r.municipality,
                "venue": r.venue,
                "load": r.load,
                "van_id": r.van_id,
                "van_name": r.van_name,
                "crew_ids": ",".join(r.crew_ids),
                "crew_names": r.crew_names,
                "clashes": "; ".join(r.clashes),
            }
            for r in plan.runs
        ]
        self.van_choices = [{"id": i, "name": n} for i, n in plan.vans]
        self.crew_choices = [{"id": i, "name": n} for i, n in plan.crew]
        self.by_van = [{"name": v.name, "runs": " · ".join(v.runs)} for v in plan.by_van]
        self.clash_count = plan.clashes
        self.form_key = uuid.uuid4().hex
        self.loaded = True

    @rx.event
    async def load(self):
        """on_load: the plan of the day in the address (today's at /admin/vans/plan)."""
        self.notice = self.error = ""
        self.run_errors = {}
        self.loaded = False
        caller = await self._admin_id()
        if caller:
            await self._show(caller, str(self.router.page.params.get("day") or "")[:10])

    @rx.event
    async def assign(self, form: dict | None = None):
        """One run's form: `run` ('<booking id>:<leg>'), `van` and a `crew-<id>` per ticked
        member."""
        caller = await self._admin_id()
        if not caller:
            return
        form = form if isinstance(form, dict) else {}
        key = str(form.get("run", ""))[:80]
        shown = next((r for r in self.runs if r["key"] == key), None)
        if shown is None:
            return
        booking_id, _, leg = key.partition(":")
        crew = [k[5:] for k, v in form.items() if str(k).startswith("crew-") and v][:50]
        self.notice = self.error = ""
        self.run_errors = {k: v for k, v in self.run_errors.items() if k != key}
        try:
            await call_service(
                vans.assign,
                actor_id=caller,
                booking_id=booking_id,
                leg=leg,
                van_id=str(form.get("van", ""))[:64],
                crew_ids=crew,
                day=self.day,
            )
        except vans.VanError as exc:
            words = ASSIGN_MESSAGES.get(exc.code, ASSIGN_FAILED)
            self.run_errors = {**self.run_errors, key: _o(words)}
            return
        except Exception as exc:
            log_failure("AdminVanPlanState.assign", exc, run=key)
            self.run_errors = {**self.run_errors, key: _o(ASSIGN_FAILED)}
            return
        kept = self.run_errors
        await self._show(caller, self.day)
        self.run_errors = kept
        done = next((r for r in self.runs if r["key"] == key), shown)
        self.notice = _o(ASSIGNED).format(
            reference=done["reference"], leg=done["leg_words"], van=done["van_name"]
        )
