"""Business rules in plain Python, grouped by domain. Nothing here imports reflex, state or pages.

- The basics every domain uses sit here: `errors`, `dates`, `money`, `fields` (limits and
  checks of typed values), `locks`, `throttle` and `limit_keys`, `content` (text in the
  language of the moment), `business` (the business's settings) and `audit`.
- `accounts/`: who may do what. `catalog/`: what the site offers. `media/`: images and files.
  `booking/`: the cart, checkout, placing and changing bookings, availability, the back office's
  bookings. `messaging/`: mail, the notification outbox, the contact form. `operations/`: the day
  sheet, the week, reminders, calendar feeds, dashboard, backups, housekeeping, health.

A domain may import the basics and the domains it builds on; docs/architecture.md §2 draws them.

`catalog_cache` is imported with the package: its database hooks raise the catalogue's version
in every transaction that changes what the public pages show, whichever service writes it."""

from storefront.services.catalog import cache as catalog_cache  # noqa: F401
