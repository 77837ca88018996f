"""Who may send a state's events, declared on the state itself (docs/architecture.md §4).

    @access("public")                      # anyone: the storefront, the cart, the sign-in forms
    class CartState(rx.State): ...

    @access("account")                     # a signed-in caller, as the database says at the event
    class AccountState(rx.State): ...

    @access("staff")                       # staff or an admin (the day sheet, the calendar)
    class StaffState(AccountState): ...

    @access("admin")                       # an admin, as the database says at the event
    class AdminState(AccountState): ...

A state inherits the declaration of the nearest class above it that has one, so every state
derived from AccountState or AdminState is private without a word; a subclass may tighten what
it inherits, never loosen it (declaring a subclass of AdminState public raises at import). A
state with no declaration anywhere above it is treated as "account": a new state is private
until somebody declares otherwise, and tests/unit/test_guard_policy.py fails on it.

`caller_bound=True` marks a public state that holds what one caller typed or may see (the
checkout's contact details, a booking): it is reset with the private states when the caller of
a tab changes.

`catalogue_only=True` marks a public state that holds nothing of its tab: only what the public
catalogue shows (a page's characters, the footer's details), read afresh by its own events from
their arguments and the catalogue, never from the tab's other states, cookies or storage. Its
events may run on a tab whose server-side state was lost (state/guard.py): they have nothing to
lose, so the guard does not fetch the tab's identity to find out (one Redis round trip per page
load on several workers); the tab's first event of any other state still reloads it. A state
with a choice or a text of the visitor in it (a table's size, a tab shown) is not one. `identity=True` marks the one state that knows the caller (AuthState): the guard
asks it who is calling without importing it.

This module imports only Reflex: state/guard.py reads the declarations and imports no screen."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Literal, TypeVar

from reflex.state import (
    BaseState,
    FrontendEventExceptionState,
    OnLoadInternalState,
    State,
    UpdateVarsInternalState,
)

Access = Literal["public", "account", "staff", "admin"]
_RANK: dict[str, int] = {"public": 0, "account": 1, "staff": 2, "admin": 3}
# The access each role of an account reaches (models/users.py ROLES).
_ROLE_REACHES: dict[str, str] = {"user": "account", "staff": "staff", "admin": "admin"}
_ACCESS = "_storefront_access"
_CALLER_BOUND = "_storefront_caller_bound"
_CATALOGUE_ONLY = "_storefront_catalogue_only"
DEFAULT: Access = "account"

# Reflex's own states: hydrate, on-load, client storage and frontend error reports.
REFLEX_STATES: frozenset[type[BaseState]] = frozenset(
    {State, OnLoadInternalState, UpdateVarsInternalState, FrontendEventExceptionState}
)

S = TypeVar("S", bound=type[BaseState])
_identity: list[type[BaseState]] = []


def access(
    level: Access,
    *,
    caller_bound: bool = False,
    identity: bool = False,
    catalogue_only: bool = False,
) -> Callable[[S], S]:
    """Declare who may send the decorated state's events (see the module's docstring)."""
    if level not in _RANK:
        raise ValueError(f"unknown access {level!r}: one of {sorted(_RANK)}")

    def declare(cls: S) -> S:
        inherited = declared(cls)
        if inherited is not None and _RANK[level] < _RANK[inherited]:
            raise TypeError(
                f"{cls.__name__} inherits access {inherited!r} and cannot loosen it to {level!r}"
            )
        if catalogue_only and (level != "public" or caller_bound or identity):
            raise TypeError(f"{cls.__name__}: only a public state of nobody may be catalogue_only")
        setattr(cls, _ACCESS, level)
        setattr(cls, _CALLER_BOUND, caller_bound)
        setattr(cls, _CATALOGUE_ONLY, catalogue_only)
        if identity:
            _identity[:] = [cls]
        return cls

    return declare


def declared(cls: type) -> Access | None:
    """The declaration of `cls` or of the nearest class above it; None when there is none."""
    for klass in cls.__mro__:
        if _ACCESS in vars(klass):
            return vars(klass)[_ACCESS]
    return None


def access_of(cls: type[BaseState]) -> Access:
    """Who may send `cls`'s events: Reflex's own states are public, the rest as declared."""
    if cls in REFLEX_STATES:
        return "public"
    return declared(cls) or DEFAULT


def allows(access: Access, user_id: str, role: str) -> bool:
    """Whether a caller (`user_id` empty for a guest; `role` as the database says now) may send
    the events of a state declared `access`: each role reaches its own level and those below."""
    if access == "public":
        return True
    if not user_id:
        return False
    return _RANK[_ROLE_REACHES.get(role, "account")] >= _RANK[access]


def is_caller_bound(cls: type[BaseState]) -> bool:
    return bool(vars(cls).get(_CALLER_BOUND, False))


def is_catalogue_only(cls: type[BaseState]) -> bool:
    """Declared on the class itself: a subclass may hold more and says so again."""
    return bool(vars(cls).get(_CATALOGUE_ONLY, False))


def identity_state() -> type[BaseState]:
    """The state that knows who is calling (declared with `identity=True`)."""
    if not _identity:
        raise RuntimeError("no state is declared with identity=True")
    return _identity[0]


def app_states(root: type[BaseState]) -> Iterator[type[BaseState]]:
    """Every state below `root` that the app defines (not Reflex's internals)."""
    for substate in root.get_substates():
        if not substate.__module__.startswith(("reflex.", "reflex_")):
            yield substate
        yield from app_states(substate)


def private_state_classes(root: type[BaseState]) -> list[type[BaseState]]:
    """The states that may hold anything of one caller: every one not public, and the public
    ones bound to a caller."""
    return [cls for cls in app_states(root) if access_of(cls) != "public" or is_caller_bound(cls)]
