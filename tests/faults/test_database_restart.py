"""PostgreSQL restarted and stopped under a booking load (a private cluster, never the shared
server): refusals are clean, every key ends with exactly one booking, no slot is overbooked,
and the same engine works again without restarting anything."""

from __future__ import annotations

from tests.faults.scenarios import booking_load_with_restarts, print_load


def test_bookings_survive_a_restart_and_a_stop_of_postgresql(running_pg, report):
    result = booking_load_with_restarts(running_pg, out=report)
    print_load(result, out=report)

    assert result.unexpected == {}, result.unexpected
    assert result.lost == [] and result.doubled == []
    assert result.placed == result.keys
    assert result.overbooked == []
    # The stop lasted seconds: guests pressing again meanwhile were told to try again.
    assert result.refused["unavailable"] > 0 and result.refused_in_outage > 0
    assert len(result.recovery_seconds) == 2 and max(result.recovery_seconds) < 10
    assert result.engine_ok_after
    assert result.health_after["status"] is True
    assert result.health_after["database"]["reachable"] is True
