"""`/metrics` times each event by its state's area (state/timing.py): a small, bounded set of
labels, decided by the state's declaration, never by the handler's name a client sends."""

from reflex.state import State

from storefront.services.metrics import EVENT_GROUPS
from storefront.state.access import app_states
from storefront.state.timing import group_of


def test_every_state_of_the_app_has_an_area():
    import storefront.storefront  # noqa: F401 - every state of the app defined

    # The app's own (other tests define states of their own).
    groups = {
        state.__name__: group_of(state)
        for state in app_states(State)
        if state.__module__.startswith("storefront.")
    }
    assert set(groups.values()) <= set(EVENT_GROUPS) - {"other"}, groups
    assert groups["CheckoutState"] == "checkout"
    assert groups["CartState"] == "cart"
    assert groups["MascotsState"] == "catalog"
    assert groups["AdminBookingsState"] == "admin"
    assert groups["DaySheetState"] == "staff"
    assert group_of(State) == "page"
