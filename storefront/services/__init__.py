"""Business rules in plain Python, grouped by domain. Nothing here imports reflex, state or pages.

- The basics every domain uses sit here: `errors`, `dates`, `money`, `fields` (limits and checks
  of typed values), `locks`, `throttle` and `limit_keys`, `permissions` (who acts as admin or
  staff), `paging` (a list's pages), `cache` (the public pages' caches), `content` (text in the
  language of the moment), `business` (the business's settings) and `audit`.
- `media/`: images and where files live. `catalog/`: what the site offers. `messaging/`: mail,
  the notification outbox, the booking's calendar file and signed link, the contact form.
  `payments/`: what a booking owes, its payments, receipts and the day's cash.
  `booking/`: the cart, checkout, pricing, placing and changing bookings, availability, the
  back office's bookings. `accounts/`: sign-in, accounts and roles, two-factor, calendar feeds.
  `operations/`: the day sheet, the week, reminders, dashboard, backups, housekeeping, health.

The basics import no domain, and the domains import one another one way only (a domain may use
those listed before it; operations uses them all): tests/unit/test_architecture.py.
"""

from storefront.services import cache as catalog_cache  # noqa: F401
