"""SQLite in WAL mode: a transaction that read before another connection committed cannot take
the write lock ('database is locked' at once, whatever busy_timeout says). `in_transaction` runs
such a transaction again from the start instead of failing the visitor's request."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from storefront.db import in_transaction, make_engine, session_scope


@pytest.fixture
def engine(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'race.db'}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER)"))
        conn.execute(text("INSERT INTO counter VALUES (1, 0)"))
    yield engine
    engine.dispose()


def _other_writer_commits(engine) -> None:
    def write():
        with engine.begin() as conn:
            conn.execute(text("UPDATE counter SET n = n + 100 WHERE id = 1"))

    thread = threading.Thread(target=write)
    thread.start()
    thread.join()


def _read_then_write(engine, attempts: list[int]):
    def work(session) -> int:
        attempts.append(1)
        n = session.execute(text("SELECT n FROM counter WHERE id = 1")).scalar_one()
        if len(attempts) == 1:
            _other_writer_commits(engine)  # between this transaction's read and its write
        session.execute(text("UPDATE counter SET n = :n WHERE id = 1"), {"n": n + 1})
        return n + 1

    return work


def test_a_plain_transaction_loses_the_race(engine):
    attempts: list[int] = []
    with pytest.raises(OperationalError, match="database is locked"):
        with session_scope(engine) as session:
            _read_then_write(engine, attempts)(session)


def test_in_transaction_runs_it_again_and_loses_nothing(engine):
    attempts: list[int] = []
    assert in_transaction(_read_then_write(engine, attempts), engine) == 101
    assert len(attempts) == 2
    with engine.connect() as conn:
        assert conn.execute(text("SELECT n FROM counter")).scalar_one() == 101
