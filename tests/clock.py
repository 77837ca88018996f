"""A clock the tests move by hand, for code that reads time through a replaceable function
(`clock` in storefront/state/cart.py and storefront/state/uploads.py, CatalogueCache(clock=)):
a rule about seconds is checked on both sides of its bound without waiting them out."""

from __future__ import annotations


class FakeClock:
    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
