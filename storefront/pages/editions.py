"""One page per language: `add_page` registers a page in every edition (storefront/i18n.py), at
its route and at the same route under the edition's prefix ('/cart', '/en/cart'), and compiles each
in its own language, so the prerendered HTML of '/en/cart' is English and no static text is sent
over the websocket.

Reflex builds a page's component tree when it evaluates the page, and renders parts of it again
later: the body of an `rx.foreach` and the stateful parts it memoizes are rendered when the page
is compiled to JavaScript, outside the page function. `compile_in_page_language` makes those
steps speak the page's language too (the language follows the route being compiled), so a
translated string in a `foreach` body is translated like any other."""

from __future__ import annotations

import functools
from collections.abc import Callable

from storefront import i18n

_installed = False


def in_language(lang: str, component: Callable, route: str) -> Callable:
    """`component` (the page function of `route`) evaluated in `lang`."""

    @functools.wraps(component)
    def page():
        with i18n.using(lang, page_route=route, office=i18n.is_back_office(route)):
            return component()

    return page


def compile_in_page_language() -> None:
    """Render every page in the language of its route, at each step Reflex renders it (see the
    module's docstring). Reflex 0.10's compiler: `CompilerHooks.compile_component` walks a
    page's tree (memoizing its stateful parts) and `compile_page_from_context` renders it."""
    global _installed
    if _installed:
        return
    from reflex.compiler import compiler
    from reflex_base.plugins.compiler import CompilerHooks

    render_page = compiler.compile_page_from_context
    walk_tree = CompilerHooks.compile_component

    @functools.wraps(render_page)
    def compile_page_from_context(page_ctx, *args, **kwargs):
        with i18n.on_page("/" + str(page_ctx.route).lstrip("/")):
            return render_page(page_ctx, *args, **kwargs)

    @functools.wraps(walk_tree)
    def compile_component(self, comp, /, *args, page_context, **kwargs):
        with i18n.on_page("/" + str(getattr(page_context, "route", "")).lstrip("/")):
            return walk_tree(self, comp, *args, page_context=page_context, **kwargs)

    compiler.compile_page_from_context = compile_page_from_context
    CompilerHooks.compile_component = compile_component
    _installed = True
