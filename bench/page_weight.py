"""Page weight of the public pages, next to the blank page of a minimal Reflex app.

Builds and serves this app's production build (fresh SQLite database, demo catalogue) and a
minimal Reflex app made in a temporary folder, loads each page in Chromium with an empty cache
and prints, per page: JS bytes transferred (compressed, as on the wire), total bytes, LCP and
CLS, and the JS ratio to the minimal app. Run: `make bench` (or `python bench/page_weight.py`).
Aims: JS within 1.3x of the minimal app, LCP under 1 s on loopback, CLS under 0.05.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.apps import CHROMIUM, CHROMIUM_ARGS, minimal_app, storefront_app  # noqa: E402

PAGES = ["/", "/services/mascots", "/services/bouncers", "/services/wedding-tables", "/cart"]
# Each in both languages (issue 21): the English edition is its own prerendered page.
PAGES += ["/en" + ("" if page == "/" else page) for page in PAGES]
RUNS = 3
OBSERVERS = """
window.__lcp = 0; window.__cls = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__lcp = e.startTime;
}).observe({type: 'largest-contentful-paint', buffered: true});
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
}).observe({type: 'layout-shift', buffered: true});
"""


def measure(browser, url: str) -> dict[str, float]:
    """One cold load: bytes on the wire (JS and all), LCP (ms) and CLS."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script(OBSERVERS)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    kinds: dict[str, str] = {}
    sizes: dict[str, float] = {}
    cdp.on(
        "Network.responseReceived",
        lambda e: kinds.__setitem__(e["requestId"], e["response"].get("mimeType", "")),
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]),
    )
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(1500)
    lcp = page.evaluate("window.__lcp")
    cls = page.evaluate("window.__cls")
    context.close()
    js = sum(n for rid, n in sizes.items() if "javascript" in kinds.get(rid, ""))
    return {"js": js, "total": sum(sizes.values()), "lcp": lcp, "cls": cls}


def median_of(browser, url: str) -> dict[str, float]:
    runs = [measure(browser, url) for _ in range(RUNS)]
    return {key: statistics.median(r[key] for r in runs) for key in runs[0]}


def main() -> None:
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="page-weight-"))
    results: dict[str, dict[str, float]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print("building and serving the minimal Reflex app ...", flush=True)
        with minimal_app(work, 3202) as url:
            baseline = median_of(browser, url + "/")
        print("building and serving the storefront ...", flush=True)
        with storefront_app(work, 3201) as url:
            for path in PAGES:
                results[path] = median_of(browser, url + path)
        browser.close()

    print(f"\nMedian of {RUNS} cold loads in Chromium on loopback (1280x900)\n")
    header = f"{'page':28} {'JS KiB':>8} {'x min':>6} {'total KiB':>10} {'LCP ms':>8} {'CLS':>6}"
    print(header)
    print("-" * len(header))
    rows = [("minimal Reflex app /", baseline), *results.items()]
    for name, r in rows:
        ratio = r["js"] / baseline["js"] if baseline["js"] else float("nan")
        print(
            f"{name:28} {r['js'] / 1024:8.1f} {ratio:6.2f} {r['total'] / 1024:10.1f} "
            f"{r['lcp']:8.0f} {r['cls']:6.3f}"
        )
    print("\naims: JS within 1.30x of the minimal app, LCP under 1000 ms, CLS under 0.05")


if __name__ == "__main__":
    main()
