"""Issue 18, finding 12: Reflex's record of an event name that names no handler (a KeyError
with its traceback and the whole event) becomes one line, and a flood is capped per window."""

import logging
import sys

from storefront.state.guard import UnknownEventLog


def _record(name: str) -> logging.LogRecord:
    try:
        raise KeyError(f"No registered handler found for event: {name}")
    except KeyError:
        info = sys.exc_info()
    return logging.LogRecord(
        "reflex_base.event.processor.event_processor",
        logging.ERROR,
        __file__,
        1,
        "Error processing event queue entry for Event(name=%r, payload=...)",
        (name,),
        info,
    )


def test_one_line_without_traceback_and_a_cap_per_window():
    log = UnknownEventLog(lines=3, window=3600)
    records = [_record(f"state.forged_{i}\nsecond line") for i in range(5)]
    kept = [r for r in records if log.filter(r)]
    assert len(kept) == 3
    for record in kept:
        text = record.getMessage()
        assert record.exc_info is None and record.levelname == "WARNING"
        assert text.startswith("refused unknown event 'state.forged_")
        assert "\n" not in text
    # The next window's first line says how many were left out.
    log._started -= 3600
    [late] = [r for r in [_record("state.late")] if log.filter(r)]
    assert "(2 more left out of the log before it)" in late.getMessage()


def test_other_records_pass_untouched():
    log = UnknownEventLog()
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "boom", (), None)
    assert log.filter(record) and record.getMessage() == "boom"
