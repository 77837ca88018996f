"""A carousel that runs in the browser: previous/next, dots, touch swipe, arrow keys and
auto-advance.

The shown slide is a ClientStateVar, so changing slides never goes to the server. One small
effect (shared by every carousel on a page, Reflex de-duplicates identical hooks) handles what
React props cannot: a swipe over 50 px changes slide (left goes next), a move over 10 px is a
drag and does not count as a tap, the arrow keys (and Home/End) change slide while the focus is
in the carousel, and each carousel advances itself every `interval_ms` and wraps. Auto-advance
pauses while the pointer or the keyboard focus is in the carousel, while a dialog is open, for a
full interval after any interaction, while the tab is hidden, and for visitors who ask for
reduced motion.

For screen readers (WAI-ARIA carousel pattern): the region is named, each slide is a group
'n of N', slides not shown are inert (nothing in them can take focus), and while the focus is
in the carousel the track is a polite live region, so a slide the visitor brings in is read.
The dots take one tab stop (the shown slide's); the arrow keys move between them.
"""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from storefront.i18n import _

SWIPE_PX = 50
DRAG_PX = 10

_BEHAVIOUR = """
useEffect(() => {
  // Each carousel's component mounts this effect; the listeners are installed once.
  const shared = (window.__carousels ??= { users: 0, stop: null });
  shared.users += 1;
  if (!shared.stop) {
  const SWIPE = __SWIPE__, DRAG = __DRAG__;
  const root = (node) => node && node.closest ? node.closest("[data-carousel]") : null;
  const step = (el, delta) => {
    const n = Number(el.dataset.count || 0);
    const set = refs[el.dataset.setter];
    if (n < 2 || typeof set !== "function") return;
    const cur = Number(refs[el.dataset.value] ?? 0) || 0;
    set((((cur + delta) % n) + n) % n);
    el._carouselLast = Date.now();
  };
  const touched = new WeakMap();
  const onStart = (e) => {
    const el = root(e.target);
    if (!el || e.touches.length !== 1) return;
    touched.set(el, { x: e.touches[0].clientX, y: e.touches[0].clientY });
    el._carouselLast = Date.now();
  };
  const onEnd = (e) => {
    const el = root(e.target);
    const start = el && touched.get(el);
    if (!start) return;
    touched.delete(el);
    const dx = e.changedTouches[0].clientX - start.x;
    const dy = e.changedTouches[0].clientY - start.y;
    if (Math.abs(dx) > DRAG) el._carouselDragAt = Date.now();
    if (Math.abs(dx) > SWIPE && Math.abs(dx) > Math.abs(dy)) step(el, dx < 0 ? 1 : -1);
  };
  const onClick = (e) => {
    const el = root(e.target);
    if (!el) return;
    if (el._carouselDragAt && Date.now() - el._carouselDragAt < 400) {
      e.stopPropagation();
      e.preventDefault();
      return;
    }
    el._carouselLast = Date.now();
  };
  const KEYS = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };
  const onKey = (e) => {
    const el = root(e.target);
    const move = KEYS[e.key];
    if (!el || move === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest("input, textarea, select, [contenteditable]")) return;
    e.preventDefault();
    const n = Number(el.dataset.count || 0);
    const cur = Number(refs[el.dataset.value] ?? 0) || 0;
    step(el, move === "first" ? -cur : move === "last" ? n - 1 - cur : move);
    if (e.target.matches("[data-carousel-dot]")) {
      // The dots keep one tab stop: the focus follows the shown slide's dot.
      setTimeout(() => el.querySelector('[data-carousel-dot][aria-current="true"]')?.focus(), 0);
    }
  };
  const live = (e, on) => {
    const el = root(e.target);
    if (!el || (!on && el.contains(e.relatedTarget))) return;
    el.querySelector("[data-carousel-track]")?.setAttribute("aria-live", on ? "polite" : "off");
  };
  const onFocusIn = (e) => live(e, true);
  const onFocusOut = (e) => live(e, false);
  const still = window.matchMedia("(prefers-reduced-motion: reduce)");
  const tick = () => {
    if (document.hidden || still.matches) return;
    if (document.querySelector('[role="dialog"]')) return;
    const now = Date.now();
    document.querySelectorAll("[data-carousel][data-interval]").forEach((el) => {
      const every = Number(el.dataset.interval);
      if (!every) return;
      if (!el._carouselLast) el._carouselLast = now;
      if (el.matches(":hover") || el.contains(document.activeElement)) return;
      if (now - el._carouselLast < every) return;
      step(el, 1);
    });
  };
  document.addEventListener("touchstart", onStart, { passive: true });
  document.addEventListener("touchend", onEnd, { passive: true });
  document.addEventListener("keydown", onKey);
  document.addEventListener("focusin", onFocusIn);
  document.addEventListener("focusout", onFocusOut);
  window.addEventListener("click", onClick, true);
  const timer = setInterval(tick, 250);
  shared.stop = () => {
    document.removeEventListener("touchstart", onStart);
    document.removeEventListener("touchend", onEnd);
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("focusin", onFocusIn);
    document.removeEventListener("focusout", onFocusOut);
    window.removeEventListener("click", onClick, true);
    clearInterval(timer);
  };
  }
  return () => {
    shared.users -= 1;
    if (shared.users === 0 && shared.stop) { shared.stop(); shared.stop = null; }
  };
}, []);
""".replace("__SWIPE__", str(SWIPE_PX)).replace("__DRAG__", str(DRAG_PX))


class _CarouselRoot(rx.el.Div):
    """The carousel's outer element; carries the shared swipe/auto-advance effect."""

    def add_imports(self):
        return {"react": [rx.ImportVar(tag="useEffect")], "$/utils/state": ["refs"]}

    def add_hooks(self):
        return [_BEHAVIOUR]


def _arrow(icon: str, label: str, on_click, side: str, top: str, test_id: str) -> rx.Component:
    return rx.el.button(
        rx.icon(icon, size=22),
        on_click=on_click,
        aria_label=label,
        class_name=f"absolute {top} -translate-y-1/2 {side} z-10 rounded-full bg-white/90 "
        "p-2 text-slate-800 shadow-md hover:bg-white focus:outline-none "
        "focus-visible:ring-4 focus-visible:ring-fuchsia-400",
        data_testid=test_id,
    )


def carousel(
    items: rx.Var,
    render_slide: Callable[[rx.Var, rx.Var], rx.Component],
    *,
    name: str,
    label: str,
    interval_ms: int = 5000,
    test_id: str = "carousel",
    class_name: str = "",
    arrows_top: str = "top-1/2",
) -> rx.Component:
    """`items` is a list var; `render_slide(item, index)` draws one slide. `name` must be unique
    on the page (it names the client-side index). `arrows_top` places the arrows vertically."""
    index = ClientStateVar.create(f"carousel_{name}", default=0, global_ref=True)
    count = items.length()
    current = index.value.to(int)

    def slide(item: rx.Var, i: rx.Var) -> rx.Component:
        return rx.el.div(
            render_slide(item, i),
            class_name="w-full shrink-0",
            role="group",
            aria_roledescription="slide",
            aria_label=_("{n} of {count}").format(n=i + 1, count=count),
            # A slide out of view can neither be focused nor read (and is not aria-hidden
            # with buttons inside).
            custom_attrs={"inert": i != current},
            data_active=rx.cond(i == current, "true", "false"),
            data_testid=f"{test_id}-slide",
        )

    def dot(_item: rx.Var, i: rx.Var) -> rx.Component:
        # A 24 x 24 px target around the small pill that shows.
        return rx.el.button(
            rx.el.span(
                class_name=rx.cond(
                    i == current,
                    "block h-2 w-5 md:h-2.5 md:w-6 rounded-full bg-fuchsia-600 transition-all",
                    "block h-2 w-2 md:h-2.5 md:w-2.5 rounded-full bg-slate-400 "
                    "group-hover:bg-slate-500 transition-all",
                ),
            ),
            on_click=index.set_value(i),
            type="button",
            aria_label=_("Go to slide {n}").format(n=i + 1),
            aria_current=rx.cond(i == current, "true", "false"),
            tab_index=rx.cond(i == current, 0, -1),
            class_name="group flex h-6 min-w-6 items-center justify-center rounded-full "
            "focus:outline-none focus-visible:ring-4 focus-visible:ring-fuchsia-400",
            data_carousel_dot="",
            data_testid=f"{test_id}-dot",
        )

    return _CarouselRoot.create(
        rx.el.div(
            rx.el.div(
                rx.foreach(items, slide),
                class_name="flex transition-transform duration-500 ease-out motion-reduce:transition-none",
                style={"transform": f"translateX(-{current * 100}%)"},
                aria_live="off",
                data_carousel_track="",
                data_testid=f"{test_id}-track",
            ),
            _arrow(
                "chevron-left",
                _("Previous"),
                index.set_value(rx.cond(current <= 0, count - 1, current - 1)),
                "left-2",
                arrows_top,
                f"{test_id}-prev",
            ),
            _arrow(
                "chevron-right",
                _("Next"),
                index.set_value(rx.cond(current >= count - 1, 0, current + 1)),
                "right-2",
                arrows_top,
                f"{test_id}-next",
            ),
            class_name="relative overflow-hidden rounded-3xl",
        ),
        rx.el.div(
            rx.foreach(items, dot),
            class_name="mt-3 flex flex-wrap justify-center gap-x-1 gap-y-1 px-4",
            role="group",
            aria_label=_("{label}: slides").format(label=label),
            data_testid=f"{test_id}-dots",
        ),
        role="region",
        aria_roledescription="carousel",
        aria_label=label,
        data_carousel=name,
        data_count=count,
        data_interval=str(interval_ms),
        data_setter=f"_client_state_{index._setter_name}",
        data_value=f"_client_state_carousel_{name}",
        class_name=class_name,
        data_testid=test_id,
    )
