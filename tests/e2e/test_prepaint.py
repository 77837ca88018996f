"""The catalogue's pages arrive with their content in the HTML (issue 38, item 1;
storefront/api/prepaint.py): the services page's cards, a service's page and its /themes alias,
its booking screen and a blog post, in both editions. Read without scripts they show their
content; with scripts the live page takes over once it has its content, without a hydration
error, with its largest picture where the HTML had it, and nothing moving; a service published
after the server started is written at its first request."""

from __future__ import annotations

import html
import re
import uuid

import httpx
import pytest
from playwright.sync_api import expect
from sqlmodel import Session

from storefront.db import make_engine
from tests.e2e.helpers import slow_down
from tests.e2e.test_layout_shift import MOST, OBSERVE
from tests.factories import make_service

pytestmark = pytest.mark.e2e

# (address, what its content says); the seeded catalogue's theme.
PAGES = [
    ("/services", "Enchanted Princess"),
    ("/en/services", "Enchanted Princess"),
    ("/services/enchanted-princess", "Enchanted Princess"),
    ("/en/services/enchanted-princess", "Enchanted Princess"),
    ("/themes/enchanted-princess", "Enchanted Princess"),
    ("/services/enchanted-princess/book", "Enchanted Princess"),
    ("/en/services/enchanted-princess/book", "Enchanted Princess"),
    ("/blog/first-post", "Blog"),
    ("/en/blog/first-post", "Blog"),
]


def _article(body: str) -> str:
    start = body.index('<article id="sf-paint">')
    return body[start : body.index("</article>", start)]


@pytest.mark.parametrize(("path", "says"), PAGES)
def test_the_page_arrives_with_its_content(server, path, says):
    answer = httpx.get(server.url + path, headers={"accept-encoding": "gzip"})
    assert answer.status_code == 200
    assert answer.headers["content-encoding"] == "gzip"
    assert re.search(r"'sha256-[^']+'", answer.headers["content-security-policy"])
    body = answer.text
    assert f'<html lang="{"en" if path.startswith("/en/") else "sq"}"' in body
    article = _article(body)
    assert html.escape(says, quote=False) in article
    # Its frame: the edition's navbar and footer, without the names that must stay unique.
    assert "<header" in article and "<footer" in article
    markup = re.sub(r"<script>.*?</script>", "", article, flags=re.DOTALL)
    assert not re.search(r'\s(id|data-testid)="', markup.removeprefix('<article id="sf-paint">'))


def test_an_address_of_no_service_is_still_not_found(server):
    answer = httpx.get(server.url + "/services/no-such-theme-at-all")
    assert answer.status_code == 404
    assert 'id="sf-paint"' not in answer.text


def _rect(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None
    return {k: round(v) for k, v in box.items()}


@pytest.mark.parametrize(
    ("path", "largest"),
    [
        ("/services/enchanted-princess", "main img"),
        ("/en/services/enchanted-princess/book", "main img"),
        ("/services", "main h2"),
        ("/blog/first-post", "main h1"),
    ],
)
@pytest.mark.parametrize("width", [390, 1280])
def test_the_live_page_takes_over_where_the_html_painted(browser, server, path, largest, width):
    viewport = {"width": width, "height": 844}
    still = browser.new_context(viewport=viewport, base_url=server.url, java_script_enabled=False)
    try:
        before = still.new_page()
        before.goto(path)
        expect(before.locator("#sf-paint main")).to_be_visible()
        painted = _rect(before, "#sf-paint " + largest)
    finally:
        still.close()

    context = browser.new_context(viewport=viewport, base_url=server.url)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.add_init_script(OBSERVE)
        slow_down(page)
        page.goto(path)
        expect(page.locator("#sf-paint")).to_have_count(0)
        expect(page.locator("body > div[data-is-root-theme] main")).to_be_visible()
        live = _rect(page, "body > div[data-is-root-theme] " + largest)
        page.wait_for_timeout(500)
        shifted = page.evaluate("window.__shifts.reduce((a, b) => a + b, 0)")
    finally:
        context.close()
    assert live == painted
    assert shifted <= MOST
    assert not errors, errors


def test_a_service_published_after_the_start_is_written_at_its_first_request(server):
    title = f"Garden Party {uuid.uuid4().hex[:6]}"
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        service = make_service(session, title=title, price="240.00", price_unit="per_event")
        service.kind = "theme"
        service.description = "Lanterns and flowers for a summer evening."
        session.add(service)
        session.commit()
        slug = service.slug
    engine.dispose()
    for path in (f"/services/{slug}", f"/services/{slug}/book"):
        answer = httpx.get(server.url + path)
        assert answer.status_code == 200
        article = _article(answer.text)
        assert title in article
        assert "Lanterns and flowers for a summer evening." in article
