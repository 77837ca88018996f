"""Small helpers the browser tests share."""

from __future__ import annotations

from sqlmodel import Session

from storefront.db import make_engine


def read(server, fn, **kwargs):
    """Call a service function against the database of the server under test."""
    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            return fn(session=session, **kwargs)
    finally:
        engine.dispose()


def still(page) -> None:
    """Visitors who ask for reduced motion get no auto-advance; so do tests that click."""
    page.emulate_media(reduced_motion="reduce")
