"""The kinds of service: one entry per kind, and everything a kind decides derives from it
(docs/extending.md, 'Add a service kind').

An entry says what a kind is called in the back office, the pydantic schema of its details
(`Service.meta`, models/service_details.py), the fields the service form shows for them, how it
is usually priced, and whether it has a public page of its own (`/services/{slug}`, listed in
the sitemap as a product) or is shown on its category's page. From the entries come: the
database's CHECK constraint on `services.kind` (and a test that fails when a migrated database
and this list differ), the service form's kind list and detail fields, the admin list's labels,
the price unit a new service gets, the public detail pages and the sitemap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from storefront.i18n import N_s
from storefront.models.service_details import (
    BOUNCER_OPTION_TYPES,
    PACKAGE_TYPES,
    TABLE_COLORS,
    TABLE_DIAMETERS,
    BouncerOptionDetails,
    Details,
    MascotDetails,
    PackageDetails,
    PlainDetails,
    TableDetails,
    ThemeDetails,
    WeddingOfferDetails,
)

Widget = Literal["text", "textarea", "number", "select", "lines", "priced_lines"]


@dataclass(frozen=True)
class DetailField:
    """One field of a kind's details, as the service form shows it. Widgets: text, textarea,
    number, select (one of `options`), lines (one entry a line), priced_lines ('name | amount'
    a line, stored as `priced_keys`)."""

    name: str
    label: str
    widget: Widget
    options: tuple[str, ...] = ()
    hint: str = ""
    # For priced_lines: the keys each line is stored with (name, amount).
    priced_keys: tuple[str, str] = ("name", "price")


@dataclass(frozen=True)
class Kind:
    name: str  # stored in services.kind
    label: str  # the back office's word for it
    details: type[Details]
    fields: tuple[DetailField, ...] = ()
    # How a new service of this kind is priced unless the form says otherwise.
    price_unit: Literal["per_hour", "per_event"] = "per_hour"
    # A public page of its own at /services/{slug} (and in the sitemap, as a product);
    # otherwise it is shown on its category's page.
    detail_page: bool = False
    # Event-day operations (the day sheet): how long before the start the crew leaves for a
    # service of this kind unless the service says otherwise (`Service.setup_lead_minutes`), and
    # whether what was set up comes back after the event (a pickup; a mascot's actor does not).
    setup_lead_minutes: int = 60
    comes_back: bool = True


KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Add a kind to the registry (the entries below; a test adds a throwaway one)."""
    if kind.name in KINDS and KINDS[kind.name] != kind:
        raise ValueError(f"a kind named {kind.name!r} is registered already")
    KINDS[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    KINDS.pop(name, None)


def kind(name: str) -> Kind:
    """The entry of `name`; an unknown name reads as a plain service (a page always renders)."""
    return KINDS.get(name) or KINDS["service"]


def names() -> tuple[str, ...]:
    return tuple(KINDS)


def per_event_kinds() -> tuple[str, ...]:
    return tuple(k.name for k in KINDS.values() if k.price_unit == "per_event")


def detail_page_kinds() -> tuple[str, ...]:
    return tuple(k.name for k in KINDS.values() if k.detail_page)


def details_schema(name: str) -> type[Details]:
    return kind(name).details


def validate_details(name: str, meta: dict[str, Any] | None) -> Details:
    """The strict check of every write; raises pydantic's ValidationError."""
    return details_schema(name).model_validate(meta or {})


def read_details(name: str, meta: dict[str, Any] | None) -> Details:
    """The one reader: the stored details, each field that does not fit replaced by its
    default (so a page always renders)."""
    schema = details_schema(name)
    data = dict(meta) if isinstance(meta, dict) else {}
    for _ in range(len(data) + 1):
        try:
            return schema.model_validate(data)
        except ValidationError as exc:
            bad = {err["loc"][0] for err in exc.errors() if err["loc"]}
            if not bad & data.keys():
                break
            for key in bad:
                data.pop(key, None)
    return schema()


def check_sql(kinds: tuple[str, ...] | None = None) -> str:
    """The CHECK constraint's condition on services.kind for `kinds` (the registry's)."""
    listed = ", ".join(f"'{name}'" for name in (kinds if kinds is not None else names()))
    return f"kind IN ({listed})"


register(Kind("service", N_s("Plain service"), PlainDetails, detail_page=True))
register(
    Kind(
        "wedding_offer",
        N_s("Wedding offer"),
        WeddingOfferDetails,
        (
            DetailField("people", N_s("Number of guests"), "number"),
            DetailField(
                "lines",
                N_s("Price lines"),
                "priced_lines",
                hint=N_s("One a line: what | amount, e.g. Mirror | 50"),
                priced_keys=("label", "amount"),
            ),
            DetailField("unit", N_s("Priced per"), "select", ("", "person")),
        ),
        price_unit="per_event",
        setup_lead_minutes=120,
    )
)
register(
    Kind(
        "table",
        N_s("Table"),
        TableDetails,
        (
            DetailField("color", N_s("Colour"), "select", TABLE_COLORS),
            DetailField(
                "diameter", N_s("Diameter (cm)"), "select", tuple(map(str, TABLE_DIAMETERS))
            ),
        ),
        price_unit="per_event",
        setup_lead_minutes=90,
    )
)
register(
    Kind(
        "package",
        N_s("Package"),
        PackageDetails,
        (
            DetailField("type", N_s("Package type"), "select", PACKAGE_TYPES),
            DetailField(
                "features", N_s("Features"), "lines", hint=N_s("One a line, starting with an emoji")
            ),
            DetailField(
                "hours",
                N_s("Length (hours)"),
                "number",
                hint=N_s("The hours a cart line of it starts with, 1 to 8; blank for 1"),
            ),
        ),
        price_unit="per_event",
    )
)
register(
    Kind(
        "mascot",
        N_s("Mascot"),
        MascotDetails,
        (
            DetailField("number", N_s("Carousel number"), "number"),
            DetailField("short_description", N_s("Short description"), "text"),
            DetailField("full_description", N_s("Full description"), "textarea"),
            DetailField(
                "suitable_for", N_s("Suitable for"), "lines", hint=N_s("One occasion a line")
            ),
            DetailField(
                "color",
                N_s("Colour class"),
                "text",
                hint=N_s("A Tailwind class, e.g. bg-purple-600"),
            ),
        ),
        setup_lead_minutes=30,
        comes_back=False,
    )
)
register(
    Kind(
        "bouncer_option",
        N_s("Bouncer option"),
        BouncerOptionDetails,
        (
            DetailField("type", N_s("Option type"), "select", ("", *BOUNCER_OPTION_TYPES)),
            DetailField("color", N_s("Swatch colour"), "text", hint=N_s("#rrggbb")),
        ),
    )
)
register(
    Kind(
        "theme",
        N_s("Theme"),
        ThemeDetails,
        (
            DetailField("age", N_s("Age range"), "text"),
            DetailField("duration", N_s("Duration"), "text"),
            DetailField("capacity", N_s("Capacity"), "text"),
            DetailField("long_description", N_s("Long description"), "textarea"),
            DetailField("features", N_s("Features"), "lines", hint=N_s("One a line")),
            DetailField(
                "add_ons", N_s("Add-ons"), "priced_lines", hint=N_s("One a line: name | price")
            ),
        ),
        detail_page=True,
        setup_lead_minutes=90,
    )
)
