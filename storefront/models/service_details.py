"""What each kind of service carries beyond the common columns (docs/architecture.md §9.4): one
pydantic schema per kind (each kind's entry in models/kinds.py names its schema; kinds.py also
holds the one writer's check and the one reader of `Service.meta`).

Writes (the service form, the seed) validate strictly: a bad value is refused with the field
named. Reads (`read_details`) never fail a page: a stored value that no longer fits its schema
falls back to the field's default."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

PACKAGE_TYPES = ("mascot", "mascot-activities", "bouncer", "castle", "combo")
BOUNCER_OPTION_TYPES = (
    "bouncer-jungle",
    "bouncer-pirate-ship",
    "bouncer-castle",
    "castle-redblue",
    "castle-pink",
    "castle-white",
)
TABLE_COLORS = ("white", "black")
TABLE_DIAMETERS = (60, 80)
MAX_LIST_ITEMS = 30


def _clean_texts(value: Any) -> Any:
    """A list of texts without blanks and non-texts; a non-list is left for validation."""
    if isinstance(value, list):
        return [v.strip() for v in value if isinstance(v, str) and v.strip()]
    return value


Text = Annotated[str, Field(max_length=300)]
TextList = Annotated[list[Text], BeforeValidator(_clean_texts), Field(max_length=MAX_LIST_ITEMS)]
Money = Annotated[Decimal, Field(ge=0, max_digits=10, decimal_places=2)]


class Details(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class PlainDetails(Details):
    """A service with nothing of its own (also what a signed-in user creates)."""

    unit: Literal["person"] | None = None


class PriceLine(Details):
    label: Annotated[str, Field(min_length=1, max_length=200)]
    amount: Money


class WeddingOfferDetails(Details):
    people: Annotated[int, Field(ge=1, le=10000)] | None = None
    lines: Annotated[list[PriceLine], Field(max_length=MAX_LIST_ITEMS)] = []
    # 'person': the Tiffany chairs are priced per guest.
    unit: Literal["person"] | None = None


class TableDetails(Details):
    color: Literal["white", "black"] = "white"
    diameter: Literal[60, 80] = 60


# A cart line's hours run from 1 to 8 (docs/product.md §9's booking duration).
MAX_BOOKING_HOURS = 8


class PackageDetails(Details):
    type: Literal["mascot", "mascot-activities", "bouncer", "castle", "combo"] = "mascot"
    features: TextList = []
    # How long the package lasts ('a bubble house for 3 hours', a 40-minute mascot visit
    # rounded up to the hourly slots: 1): set, it is booked for exactly these hours and no
    # duration is offered (`own_hours`; issue 34, item 3); unset, the guest chooses 1 to 8.
    hours: Annotated[int, Field(ge=1, le=MAX_BOOKING_HOURS)] | None = None


class MascotDetails(Details):
    number: Annotated[int, Field(ge=0, le=9999)] | None = None
    short_description: Annotated[str, Field(max_length=500)] = ""
    full_description: Annotated[str, Field(max_length=5000)] = ""
    suitable_for: TextList = []
    # A Tailwind background class, e.g. bg-purple-600.
    color: Annotated[str, Field(pattern=r"^bg-[a-z]+-(50|[1-9]00|950)$")] = "bg-purple-600"


class BouncerOptionDetails(Details):
    type: (
        Literal[
            "bouncer-jungle",
            "bouncer-pirate-ship",
            "bouncer-castle",
            "castle-redblue",
            "castle-pink",
            "castle-white",
        ]
        | None
    ) = None
    color: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")] = "#ffffff"


class AddOn(Details):
    name: Annotated[str, Field(min_length=1, max_length=200)]
    price: Money


class ThemeDetails(Details):
    age: Annotated[str, Field(max_length=60)] = ""
    duration: Annotated[str, Field(max_length=60)] = ""
    capacity: Annotated[str, Field(max_length=60)] = ""
    long_description: Annotated[str, Field(max_length=10000)] = ""
    features: TextList = []
    add_ons: Annotated[list[AddOn], Field(max_length=MAX_LIST_ITEMS)] = []


def own_hours(details: Details) -> int | None:
    """The hours a service is booked for whatever a cart line or a form says, when its details
    give its length (PackageDetails.hours); None when the guest chooses them (1 to 8). The one
    reading of a service's own length: the picker, the cart and placing a booking use it."""
    hours = getattr(details, "hours", None)
    if isinstance(hours, int) and not isinstance(hours, bool):
        return hours if 1 <= hours <= MAX_BOOKING_HOURS else None
    return None


D = TypeVar("D", bound=Details)


def dump_details(details: Details) -> dict[str, Any]:
    """What is stored in `Service.meta`: plain JSON, unset optional fields left out."""
    return details.model_dump(mode="json", exclude_none=True)


def details_as(details: Details, schema: type[D]) -> D:
    """`details` when they are of `schema`, else that schema's defaults."""
    return details if isinstance(details, schema) else schema()
