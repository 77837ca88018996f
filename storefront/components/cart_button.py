"""The floating cart button at the bottom right: item count, link to the cart, and the
fly-to-cart animation (docs/product.md §2, 3) when something is added."""

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import _
from storefront.state.cart import CartState, adding, just_added

FLIGHT_MS = 700

# Pages without the button: the booking screen books its one service (the cart plays no part),
# and on a phone its total and 'Book Now' sit at the bottom right, where the button floats.
# Route patterns, as routes.py names them. (Checkout keeps it: its count shows the cart is kept
# when a booking is refused, tests/e2e/test_booking_limits.py.)
# Not where a visitor is not shopping: the booking screen, and a booking's own page (the
# mailed link), where at 390 px it sat over 'Change or cancel'.
HIDDEN_ON = (routes.SERVICE_BOOK, routes.BOOKING_CONFIRMATION)

# The one piece of script for the animation. It remembers where the last click was (a key press
# counts from the middle of its button); `window.flyToCart()`, which the cart calls after an add,
# sends a small bubble from there to this button along a short arc. Visitors who ask for reduced
# motion get no flight (the button still shows the new count).
_FLY_TO_CART = """
useEffect(() => {
  const remember = (event) => {
    let x = event.clientX, y = event.clientY;
    if (event.detail === 0 && event.target.getBoundingClientRect) {
      const box = event.target.getBoundingClientRect();
      x = box.left + box.width / 2; y = box.top + box.height / 2;
    }
    window.__cartClick = { x, y, at: Date.now() };
  };
  window.addEventListener("click", remember, true);
  window.flyToCart = () => {
    const from = window.__cartClick, fab = document.querySelector(".cart-fab");
    if (!from || !fab || Date.now() - from.at > 5000) return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const to = fab.getBoundingClientRect();
    const dx = to.left + to.width / 2 - from.x, dy = to.top + to.height / 2 - from.y;
    const bubble = document.createElement("div");
    bubble.className = "cart-flight";
    Object.assign(bubble.dataset, { testid: "fly-to-cart", fromX: from.x, fromY: from.y });
    Object.assign(bubble.style, { left: from.x + "px", top: from.y + "px" });
    document.body.appendChild(bubble);
    const at = (x, y, scale) => `translate(${x}px, ${y}px) scale(${scale})`;
    bubble.animate(
      [
        { transform: at(0, 0, 1), opacity: 1 },
        { transform: at(dx * 0.5, dy * 0.5 - 80, 0.9), opacity: 1, offset: 0.45 },
        { transform: at(dx, dy, 0.35), opacity: 0.5 },
      ],
      { duration: __FLIGHT_MS__, easing: "ease-in-out" },
    ).finished.finally(() => bubble.remove());
  };
  return () => {
    window.removeEventListener("click", remember, true);
    delete window.flyToCart;
  };
}, []);
""".replace("__FLIGHT_MS__", str(FLIGHT_MS))


class _FlyToCart(rx.Fragment):
    """Installs the animation once per page (it renders nothing)."""

    def add_imports(self):
        return {"react": [rx.ImportVar(tag="useEffect")]}

    def add_hooks(self):
        return [_FLY_TO_CART]


def floating_cart() -> rx.Component:
    """The button, and a polite live region that reads 'Adding...' while something is being
    added (the button that was pressed says it too, but a change of its text is not read)."""
    route = rx.State.router.route_id
    hidden = rx.Var.create(False)
    for pattern in HIDDEN_ON:
        for lang in i18n.LANGUAGES:
            edition = i18n.href(pattern, lang)
            hidden = hidden | (route == edition) | (route == edition.lstrip("/"))
    return rx.el.aside(
        rx.cond(hidden, rx.fragment(), _button()),
        rx.el.p(
            rx.cond(adding.value != "", _("Adding..."), ""),
            role="status",
            class_name="sr-only",
            data_testid="cart-status",
        ),
        _FlyToCart.create(),
        aria_label=_("Cart"),
    )


def _button() -> rx.Component:
    return rx.link(
        rx.icon("shopping-cart", size=26),
        rx.cond(
            CartState.count > 0,
            rx.el.span(
                CartState.count,
                class_name="absolute -top-1 -right-1 min-w-6 h-6 px-1 rounded-full bg-white "
                "text-fuchsia-700 text-xs font-bold flex items-center justify-center shadow",
                data_testid="cart-count",
            ),
        ),
        href=i18n.href(routes.CART),
        underline="none",
        aria_label=_("Cart"),
        class_name=rx.cond(
            just_added.value != "",
            "cart-fab cart-fab-hop",
            "cart-fab",
        ),
        data_testid="floating-cart",
    )
