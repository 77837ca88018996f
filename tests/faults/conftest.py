"""Fixtures of the fault tests: a private PostgreSQL cluster they may stop and restart (never the
shared server), and a report whose lines are printed as they happen (visible with `-s`) and
again in pytest's summary, so `make test` shows the figures too."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.faults.private_pg import PrivatePostgres, unavailable_reason

_REPORT: list[str] = []


class Report:
    def __init__(self, title: str) -> None:
        self.title = title
        _REPORT.append(f"--- {title}")

    def __call__(self, line: str = "") -> None:
        print(line, flush=True)
        _REPORT.append(f"  {line}")


@pytest.fixture
def report(request) -> Report:
    """`report("...")` prints a figure and keeps it for the summary."""
    print(flush=True)
    return Report(request.node.nodeid.split("::", 1)[-1])


@pytest.fixture(scope="session")
def private_pg() -> Iterator[PrivatePostgres]:
    """A PostgreSQL cluster of this test session alone, on a port in 56400-56499."""
    reason = unavailable_reason()
    if reason:
        message = f"private PostgreSQL cluster unavailable: {reason}"
        print(f"\nSKIP: {message}", flush=True)
        pytest.skip(message)
    with PrivatePostgres() as cluster:
        yield cluster


@pytest.fixture
def running_pg(private_pg: PrivatePostgres) -> Iterator[PrivatePostgres]:
    """The private cluster, started again after the test whatever the test did to it."""
    if not private_pg.is_running():
        private_pg.start()
    yield private_pg
    if not private_pg.is_running():
        private_pg.start()


def pytest_terminal_summary(terminalreporter) -> None:
    if _REPORT:
        terminalreporter.section("fault tests: what happened")
        for line in _REPORT:
            terminalreporter.write_line(line)
