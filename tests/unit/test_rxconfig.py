"""rxconfig.py reads PUBLIC_URL, PORT, CORS_ORIGINS and TRUSTED_PROXY_HOPS as the app's settings
do: the environment first, then the project's `.env`. A PUBLIC_URL set only in `.env` passed the
preflight but the frontend was built for localhost."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ = (
    "import json, rxconfig as r; c = r.config; print(json.dumps([c.api_url, c.frontend_port,"
    " c.backend_port, list(c.cors_allowed_origins), c.trusted_proxy_hops]))"
)
NAMES = ("PUBLIC_URL", "PORT", "CORS_ORIGINS", "TRUSTED_PROXY_HOPS")


def _read(folder: Path, **env: str) -> list:
    clean = {k: v for k, v in os.environ.items() if k not in NAMES} | env
    out = subprocess.run(
        [sys.executable, "-c", READ], cwd=folder, env=clean, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_settings_only_in_dot_env_reach_the_build_and_the_environment_wins(tmp_path):
    shutil.copy(ROOT / "rxconfig.py", tmp_path / "rxconfig.py")
    (tmp_path / ".env").write_text(
        "PUBLIC_URL=https://events.example.com\nPORT=4100\n"
        "CORS_ORIGINS=https://events.example.com\nTRUSTED_PROXY_HOPS=1\n"
    )
    assert _read(tmp_path) == [
        "https://events.example.com",
        4100,
        4100,
        ["https://events.example.com"],
        1,
    ]
    assert _read(tmp_path, PUBLIC_URL="https://other.example.com")[0] == "https://other.example.com"


# A built page as React Router writes it (trimmed): preloads in <head>, one inline module script.
BUILT_PAGE = (
    '<!DOCTYPE html><html><head><meta charSet="utf-8"/>'
    '<link rel="modulepreload" href="/assets/manifest-1.js"/>'
    '<link rel="modulepreload" href="/assets/entry.client-2.js"/>'
    '<link href="/assets/styles-3.css" rel="stylesheet"/></head>'
    "<body><main><h1>Terms</h1></main>"
    "<script>window.__reactRouterContext = {};</script>"
    '<script type="module" async="">import "/assets/manifest-1.js";'
    ' import("/assets/entry.client-2.js");</script>'
    "</body></html>"
)


def test_a_built_page_requests_its_scripts_only_after_its_first_paint():
    import rxconfig

    page = rxconfig.scripts_after_first_paint(BUILT_PAGE)
    head, body = page.split("</head>")
    # Nothing in <head> or in a running script asks for a chunk while the page paints.
    assert "modulepreload" not in head
    assert '<script type="module"' not in page
    preloads = body.split('<template id="rx-preload">')[1].split("</template>")[0]
    assert preloads.count('rel="modulepreload"') == 2
    # The module script keeps its text (the policy's hash allows the copy the loader runs).
    entry = rxconfig.DEFERRED_ENTRY + 'import "/assets/manifest-1.js";'
    assert entry in body
    assert body.endswith(rxconfig.FIRST_PAINT_LOADER + "</body></html>")
    # Once is enough: the build's post-step may meet a page it already rewrote.
    assert rxconfig.scripts_after_first_paint(page) == page
    without_scripts = "<html><head></head><body><p>Static</p></body></html>"
    assert rxconfig.scripts_after_first_paint(without_scripts) == without_scripts


def test_the_policy_allows_the_loader_and_the_module_it_starts():
    import base64
    import hashlib

    import rxconfig
    from storefront.api.security import policy_for

    page = rxconfig.scripts_after_first_paint(BUILT_PAGE)
    script_src = next(
        d for d in policy_for(page.encode()).split("; ") if d.startswith("script-src")
    )

    def allowed(code: str) -> bool:
        digest = base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
        return f"'sha256-{digest}'" in script_src

    module = 'import "/assets/manifest-1.js"; import("/assets/entry.client-2.js");'
    loader = rxconfig.FIRST_PAINT_LOADER.removeprefix("<script>").removesuffix("</script>")
    assert allowed(module) and allowed(loader)
    assert not allowed("alert(1)")


def test_the_build_step_rewrites_every_prerendered_page_but_the_fallback(tmp_path):
    import rxconfig

    for name in ("index.html", "terms/index.html", rxconfig.SPA_FALLBACK):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BUILT_PAGE)
    rxconfig.FirstPaintPlugin().post_build(static_dir=tmp_path)
    assert "rx-entry" in (tmp_path / "index.html").read_text()
    assert "rx-entry" in (tmp_path / "terms" / "index.html").read_text()
    # The routes with a part that varies: nothing is painted before the scripts render them.
    assert (tmp_path / rxconfig.SPA_FALLBACK).read_text() == BUILT_PAGE


def test_only_the_checkout_pages_leave_early_for_the_cart(tmp_path):
    """Each edition's checkout page reads the browser's cart before its first paint
    (services/cart.checkout_leave_script), once, first in <head>; no other page does."""
    import rxconfig

    checkout = (
        "checkout.html",
        "checkout/index.html",
        "en/checkout.html",
        "en/checkout/index.html",
    )
    others = ("cart.html", "en/cart/index.html", "services/checkout.html", "index.html")
    for name in (*checkout, *others):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BUILT_PAGE)
    script = rxconfig.leave_incomplete_checkout_script()
    plugin = rxconfig.FirstPaintPlugin()
    plugin.post_build(static_dir=tmp_path)
    plugin.post_build(static_dir=tmp_path)  # a second build step changes nothing more
    for name in checkout:
        page = (tmp_path / name).read_text()
        assert page.count(script) == 1, name
        assert page.split("<head>", 1)[1].startswith(script), name
        assert "rx-entry" in page
    for name in others:
        assert script not in (tmp_path / name).read_text(), name


def test_the_not_found_pages_are_built_without_scripts(tmp_path):
    """What the server sends with a 404 under another page's address (api/addresses.py):
    React Router must not start there, or it would draw that address's page over it."""
    import rxconfig

    not_found = ("not-found.html", "not-found/index.html", "en/not-found/index.html")
    for name in (*not_found, "contact/index.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BUILT_PAGE)
    rxconfig.FirstPaintPlugin().post_build(static_dir=tmp_path)
    for name in not_found:
        page = (tmp_path / name).read_text()
        assert "modulepreload" not in page and "entry.client" not in page, name
        assert rxconfig.FIRST_PAINT_LOADER not in page and '<script type="module"' not in page
        assert "</body></html>" in page
    assert "rx-entry" in (tmp_path / "contact" / "index.html").read_text()


def test_the_early_leave_reads_the_cart_the_app_keeps():
    """Its storage key and its cap on lines are the cart's own, and the policy allows it."""
    import base64
    import hashlib

    import rxconfig
    from storefront.api.security import policy_for
    from storefront.services.booking import cart
    from storefront.state.cart import CartState

    code = cart.checkout_leave_script()
    assert f".slice(0,{cart.MAX_ITEMS})" in code
    stored = CartState.get_fields()["cart_json"].default
    assert stored.name == cart.STORAGE_KEY and json.dumps(cart.STORAGE_KEY) in code
    page = rxconfig.leave_incomplete_checkout(BUILT_PAGE)
    digest = base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in policy_for(page.encode())


def test_the_production_server_runs_reflex_in_production_mode():
    """`storefront.prod serve` (make run-prod, every browser test's server) starts Reflex as
    `reflex run --env prod` would: before, it ran in development mode, so an unexpected error
    showed the visitor the exception's text and every assignment went through development
    checks."""
    check = (
        "import sys, storefront.prod as prod; prod.production_mode();"
        "import reflex.state as state; from reflex.app import default_backend_exception_handler;"
        "told = str(default_backend_exception_handler(ValueError('secret detail')));"
        "print('__setattr__' in vars(state.BaseState), 'secret detail' in told,"
        " 'Contact the website administrator' in told)"
    )
    clean = {k: v for k, v in os.environ.items() if k != "REFLEX_ENV_MODE"}
    out = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False", "True"]
    source = (ROOT / "storefront" / "prod.py").read_text()
    serve = source[source.index("def serve(") :]
    assert serve.index("production_mode()") < serve.index("from reflex")
