"""A prerendered page paints before it asks for a single script (issue 23, rxconfig.FirstPaintPlugin),
then comes alive as before: its chunks are fetched after the first contentful paint, every one of
them under the Content-Security-Policy (no violation in the console), and the server sends the
tab its state. Measured on a network with 150 ms of latency and a 4x slower processor, where the
first paint and the scripts are far enough apart to tell which came first."""

import pytest

from tests.e2e.helpers import slow_down

pytestmark = pytest.mark.e2e

PAGES = ["/", "/terms", "/services/mascots", "/en/contact", "/sign-in"]
TIMINGS = """() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const scripts = performance.getEntriesByType("resource")
    .filter((entry) => entry.name.endsWith(".js"));
  return {
    paint: paint ? paint.startTime : null,
    first_script: Math.min(...scripts.map((entry) => entry.startTime)),
    scripts: scripts.length,
  };
}"""


@pytest.mark.parametrize("path", PAGES)
def test_a_prerendered_page_paints_before_it_fetches_its_scripts_then_comes_alive(phone, path):
    problems: list[str] = []
    phone.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    phone.on("pageerror", lambda error: problems.append(str(error)))
    answers: list[str] = []
    phone.on("websocket", lambda ws: ws.on("framereceived", lambda frame: answers.append(frame)))
    slow_down(phone)
    phone.goto(path)
    # Alive: React has mounted and opened the websocket, and the server has sent the tab its
    # state (its answer to the page's hydrate).
    for _ in range(100):
        if any("delta" in str(answer) for answer in answers):
            break
        phone.wait_for_timeout(100)
    assert any("delta" in str(answer) for answer in answers), answers
    timings = phone.evaluate(TIMINGS)
    assert timings["paint"] is not None and timings["scripts"] > 5
    assert timings["first_script"] >= timings["paint"], timings
    assert problems == []
