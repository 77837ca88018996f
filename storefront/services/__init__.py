"""Business rules in plain Python. Nothing here imports reflex, state or pages.

`catalog_cache` is imported with the package: its database hooks raise the catalogue's version
in every transaction that changes what the public pages show, whichever service writes it."""

from storefront.services import catalog_cache as catalog_cache
