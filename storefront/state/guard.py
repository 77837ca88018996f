"""Deny by default: an event of an account state runs only for a signed-in caller, and of an
admin state only for an admin, whatever page sent it. Reflex's own hydrate and on-load
machinery passes; it belongs to no guarded state."""

from __future__ import annotations

import logging

from reflex.middleware import Middleware
from reflex.state import BaseState, StateUpdate

from storefront.state.auth import AccountState, AdminState, AuthState

log = logging.getLogger(__name__)


def target_state(root: BaseState, event_name: str) -> type[BaseState] | None:
    path = event_name.rpartition(".")[0]
    try:
        parts = tuple(path.split(".")[1:])
        return type(root).get_class_substate(parts) if parts else type(root)
    except (ValueError, KeyError, IndexError, AttributeError):
        return None


class AuthGuard(Middleware):
    async def preprocess(self, app, state: BaseState, event) -> StateUpdate | None:
        target = target_state(state._get_root_state(), event.name)
        if target is None or not issubclass(target, AccountState):
            return None
        auth_state = await state.get_state(AuthState)
        user_id, role = await auth_state._caller()
        allowed = bool(user_id) and (role == "admin" or not issubclass(target, AdminState))
        if allowed:
            return None
        log.warning("refused %s for %s", event.name, user_id or "a guest")
        return StateUpdate(delta={}, events=[])
