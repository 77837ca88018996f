"""api/prepaint.compose on pages shaped as the build writes them (the whole path, through a
real build and a browser, is tests/e2e/test_prepaint.py)."""

from storefront.api.prepaint import ROOT, ROUTER_CONTEXT, compose
from storefront.services.catalog import prepaint

LIVE = (
    '<!DOCTYPE html><html lang="sq"><head></head><body><section></section>'
    f'{ROOT} class="radix-themes"><div class="css-1">Connection</div></div>'
    f"{ROUTER_CONTEXT} = {{}};</script></body></html>"
)
FRAME = (
    '<!DOCTYPE html><html lang="en"><head></head><body><section></section>'
    f'{ROOT} class="radix-themes"><header id="top" data-testid="nav">Nav</header>'
    '<main class="flex-1"><span data-testid="skeleton">...</span></main>'
    '<footer data-testid="site-footer">Foot</footer><script>restoreScroll()</script></div>'
    f"{ROUTER_CONTEXT} = {{}};</script></body></html>"
)


def test_the_article_stands_before_the_live_root_with_the_content_in_its_main():
    page = compose(LIVE, FRAME, "<h1>Enchanted Princess</h1>", "main h1", "en")
    assert page is not None
    assert page.startswith('<!DOCTYPE html><html lang="en">')
    article = page[page.index('<article id="sf-paint">') : page.index("</article>")]
    assert page.index("</article>") < page.index(ROOT + ' class="radix-themes"><div class="css-1">')
    assert '<main class="flex-1"><h1>Enchanted Princess</h1></main>' in article
    assert "skeleton" not in article and "restoreScroll" not in article
    assert ' id="top"' not in article and "data-testid=" not in article.split("<script>")[0]
    assert "body>div[data-is-root-theme]{display:none}" in article
    assert "'main h1'" in article  # the swap waits for the live page's content


def test_a_page_not_shaped_as_the_build_makes_them_is_left_to_the_build():
    assert compose("<html><body>plain</body></html>", FRAME, "x", "main h1", "sq") is None
    assert compose(LIVE, FRAME.replace("<main", "<div"), "x", "main h1", "sq") is None


def test_every_kind_says_when_its_live_page_has_its_content():
    kinds = {prepaint.SERVICES, prepaint.THEME, prepaint.BOOK, prepaint.BLOG_POST}
    assert set(prepaint.LIVE_WHEN) == kinds
    for path, kind in [
        ("/services", prepaint.SERVICES),
        ("/en/services/", prepaint.SERVICES),
        ("/themes/pink-castle", prepaint.THEME),
        ("/en/services/pink-castle/book", prepaint.BOOK),
        ("/blog/first-post", prepaint.BLOG_POST),
    ]:
        target = prepaint.target_of(path)
        assert target is not None and target.kind == kind, path
    for path in ("/services/mascots", "/blog", "/cart", "/admin/services", "/sq/services"):
        assert prepaint.target_of(path) is None, path
