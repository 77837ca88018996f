"""A day's runs (issue 37): every trip a van makes for a booking, when it leaves the depot and
when it is back, which van and crew take it, what it carries; and the runs that clash.

A booking with an item that starts on a day has a *delivery* run that day: the crew arrives the
setup lead before the earliest start (`setup_lead`) and leaves the depot the drive earlier
(services/operations/travel.py); it is back the drive after the start. What comes back
(`comes_back`) has a *pickup* run on the day of the latest end of those items: the van leaves the
drive before the end, takes the lead to pack up, and drives back. A van or a member of staff
whose runs' windows (depart to back) overlap is flagged with the runs that clash (`clashes`).

Which van and crew take a run is `VanJob`/`VanJobCrew` (services/operations/vans.py assigns);
this module only reads, in a few queries for the whole day (the sheet of a day of 200 jobs)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from urllib.parse import quote

from sqlmodel import Session, col, or_, select

from storefront.models import Booking, BookingItem, Service, VanJob, VanJobCrew, kinds
from storefront.services import dates
from storefront.services.messaging.notify import customer_name
from storefront.services.operations.travel import Travel, travel_of

# The statuses whose runs are driven (a cancelled booking has none).
DRIVEN_STATUSES = ("pending", "confirmed", "on_the_way", "completed")
# When a service is gone from the catalogue, the crew still arrives this long before.
DEFAULT_LEAD_MINUTES = 60
# Packages that are a visit of people (a mascot, a mascot with activities): nothing is set up
# at the venue, so nothing is collected after it.
VISIT_PACKAGES = ("mascot", "mascot-activities")


def setup_lead(service: Service | None) -> timedelta:
    """How long before a service starts the crew arrives to set it up (and how long packing up
    takes after it): the service's own lead, else its kind's."""
    if service is None:
        return timedelta(minutes=DEFAULT_LEAD_MINUTES)
    minutes = service.setup_lead_minutes
    if minutes is None:
        minutes = kinds.kind(service.kind).setup_lead_minutes
    return timedelta(minutes=minutes)


def comes_back(service: Service | None) -> bool:
    """Whether what a booked service brings to the venue is collected after the event (the
    sheet's and the digest's pickup): its kind says (`Kind.comes_back`: a mascot's actor comes
    home alone, tables and bouncers are collected), and a package its type (a mascot package is
    a visit, a bouncer package is set up). A service gone from the catalogue is collected: the
    crew looks rather than leave something behind. The one place this is decided."""
    if service is None:
        return True
    if not kinds.kind(service.kind).comes_back:
        return False
    if service.kind == "package":
        return getattr(kinds.read_details(service.kind, service.meta), "type", "") not in (
            VISIT_PACKAGES
        )
    return True


def maps_link(address: str) -> str:
    """A link that opens `address` in the phone's maps app (Google's universal address opens
    the app on Android and iOS, a map in a browser)."""
    return "https://www.google.com/maps/search/?api=1&query=" + quote(address) if address else ""


def route_link(origin: str, stops: list[str]) -> str:
    """A link that opens the drive from `origin` through `stops` in order and back to `origin`
    in the phone's maps app (Google's multi-stop directions address); '' without stops."""
    stops = [s for s in stops if s]
    if not stops:
        return ""
    link = "https://www.google.com/maps/dir/?api=1&travelmode=driving"
    link += "&origin=" + quote(origin) + "&destination=" + quote(origin)
    return link + "&waypoints=" + quote("|".join(stops))


@dataclass(frozen=True)
class Run:
    booking_id: uuid.UUID
    reference: str
    leg: str  # 'delivery' or 'pickup'
    day: date  # the local day the run is driven
    depart: datetime  # leaves the depot (UTC)
    arrive: datetime  # at the venue: the setup lead before the start, or the end
    back: datetime  # back at the depot
    drive_minutes: int  # the depot to the venue
    status: str
    customer: str
    venue: str  # the address and municipality, as the sheet writes them
    municipality: str  # the booking's `city` (its Albanian name)
    # What the run carries: (service name, quantity), in the items' order; a delivery's is what
    # to unload, a pickup's what comes back.
    load: tuple[tuple[str, int], ...]
    van_id: uuid.UUID | None = None  # None: not assigned yet
    crew: tuple[uuid.UUID, ...] = ()

    @property
    def key(self) -> str:
        """The run's name in forms and in clashes: '<booking id>:<leg>'."""
        return f"{self.booking_id}:{self.leg}"


def run_key(booking_id: object, leg: str) -> str:
    return f"{booking_id}:{leg}"


def day_runs(
    session: Session,
    day: date,
    *,
    booking_ids: list[uuid.UUID] | None = None,
    travel: Travel | None = None,
    loaded: dict | None = None,
) -> list[Run]:
    """Every run driven on `day`, in the order the vans leave (then by reference), each with
    its van and crew when assigned. `booking_ids` narrows it to those bookings. `loaded`, when
    given, receives the rows read ('bookings': id -> Booking, 'items': id -> [(item,
    service)]), so the day sheet does not read them twice."""
    zone = dates.business_zone()
    start, end = dates.day_start_utc(day), dates.day_start_utc(day + timedelta(days=1))
    travel = travel or travel_of(session)
    # The bookings with an item starting or ending on the day (a pickup may be the day after
    # the delivery), then all of their items (the earliest start and the latest end decide).
    touching = (
        select(BookingItem.booking_id)
        .join(Booking, col(Booking.id) == BookingItem.booking_id)
        .where(
            or_(
                (col(BookingItem.start_datetime) >= start)
                & (col(BookingItem.start_datetime) < end),
                (col(BookingItem.end_datetime) >= start) & (col(BookingItem.end_datetime) < end),
            ),
            col(Booking.status).in_(DRIVEN_STATUSES),
            col(BookingItem.status) != "cancelled",
        )
    )
    if booking_ids is not None:
        touching = touching.where(col(BookingItem.booking_id).in_(booking_ids))
    ids = set(session.exec(touching.distinct()).all())
    if not ids:
        return []
    bookings = {
        b.id: b for b in session.exec(select(Booking).where(col(Booking.id).in_(ids))).all()
    }
    items: dict[uuid.UUID, list[tuple[BookingItem, Service | None]]] = defaultdict(list)
    for item, service in session.exec(
        select(BookingItem, Service)
        .join(Service, col(Service.id) == BookingItem.service_id, isouter=True)
        .where(col(BookingItem.booking_id).in_(ids), BookingItem.status != "cancelled")
        .order_by(col(BookingItem.start_datetime), col(BookingItem.id))
    ).all():
        items[item.booking_id].append((item, service))
    if loaded is not None:
        loaded["bookings"], loaded["items"] = bookings, items
    assigned = {
        (job.booking_id, job.leg): job
        for job in session.exec(select(VanJob).where(col(VanJob.booking_id).in_(ids))).all()
    }
    crews: dict[uuid.UUID, list[uuid.UUID]] = defaultdict(list)
    job_ids = [job.id for job in assigned.values()]
    if job_ids:
        for member in session.exec(
            select(VanJobCrew).where(col(VanJobCrew.job_id).in_(job_ids))
        ).all():
            crews[member.job_id].append(member.user_id)

    runs: list[Run] = []
    for booking_id, rows in items.items():
        booking = bookings[booking_id]
        drive = timedelta(minutes=travel.from_depot(booking.city))
        venue = ", ".join(p for p in (booking.venue_address, booking.city) if p)
        common = {
            "booking_id": booking_id,
            "reference": booking.reference,
            "drive_minutes": int(drive.total_seconds() // 60),
            "status": booking.status,
            "customer": customer_name(booking),
            "venue": venue,
            "municipality": booking.city or "",
        }

        first = min(item.start_datetime for item, _service in rows)
        if first.astimezone(zone).date() == day:
            arrive = min(item.start_datetime - setup_lead(service) for item, service in rows)
            runs.append(
                Run(
                    leg="delivery",
                    day=day,
                    depart=arrive - drive,
                    arrive=arrive,
                    back=first + drive,
                    load=tuple((item.service_name, item.quantity) for item, _s in rows),
                    **common,
                    **_assignment(assigned.get((booking_id, "delivery")), crews),
                )
            )
        back = [(item, service) for item, service in rows if comes_back(service)]
        if back:
            ends = max(item.end_datetime for item, _service in back)
            if ends.astimezone(zone).date() == day:
                pack = max(setup_lead(service) for _item, service in back)
                runs.append(
                    Run(
                        leg="pickup",
                        day=day,
                        depart=ends - drive,
                        arrive=ends,
                        back=ends + pack + drive,
                        load=tuple((item.service_name, item.quantity) for item, _s in back),
                        **common,
                        **_assignment(assigned.get((booking_id, "pickup")), crews),
                    )
                )
    runs.sort(key=lambda r: (r.depart, r.reference, r.leg))
    return runs


def _assignment(job: VanJob | None, crews: dict[uuid.UUID, list[uuid.UUID]]) -> dict:
    if job is None:
        return {}
    return {"van_id": job.van_id, "crew": tuple(sorted(crews[job.id], key=str))}


@dataclass(frozen=True)
class Clash:
    """Two runs that cannot both be driven: by the same van, or with the same member of staff
    (`who`: the van's or the member's id), their windows overlapping."""

    kind: str  # 'van' or 'crew'
    who: uuid.UUID
    first: str  # run keys
    second: str


def clashes(runs: list[Run]) -> list[Clash]:
    """Every pair of runs whose windows (depart to back) overlap and that share a van, or a
    member of staff on two vans (on one van the van's clash says it already)."""
    found: list[Clash] = []
    ordered = sorted(runs, key=lambda r: r.depart)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.depart >= a.back:
                # Sorted by departure: a later one may still overlap a run that is back later.
                continue
            if a.van_id is not None and a.van_id == b.van_id:
                found.append(Clash("van", a.van_id, a.key, b.key))
            elif a.van_id is not None and b.van_id is not None:
                for member in sorted(set(a.crew) & set(b.crew), key=str):
                    found.append(Clash("crew", member, a.key, b.key))
    return found


def load_list(runs: list[Run]) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """What to load for these runs (their deliveries' items summed by name) and what comes back
    on their pickups, each by name: [('Bubble house', 2), ('Tiffany chair', 60)]."""

    def summed(leg: str) -> list[tuple[str, int]]:
        total: dict[str, int] = defaultdict(int)
        for run in runs:
            if run.leg == leg:
                for name, quantity in run.load:
                    total[name] += quantity
        return sorted(total.items(), key=lambda pair: pair[0].casefold())

    return summed("delivery"), summed("pickup")
