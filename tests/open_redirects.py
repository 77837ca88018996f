"""The usual open-redirect list (issue 33, finding 1): addresses that lead off the site once a
browser reads them, or once a language change drops an edition's prefix. Every route and handler
that redirects to an address a request names is fed all of them."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

OFF_SITE = (
    "//evil.example/x",
    "///evil.example/x",
    "/\\evil.example/x",
    "\\\\evil.example/x",
    "/%2F%2Fevil.example/x",
    "/%2f/evil.example/x",
    "/%252F%252Fevil.example/x",
    "/%5Cevil.example/x",
    "/en//evil.example/x",
    "/en/en//evil.example/phish",
    "/sq/admin//evil.example/x",
    "https:evil.example",
    "https://evil.example/x",
    "javascript:alert(1)",
    "/\t/evil.example/x",
    "/\n/evil.example/x",
    "/\r\n/evil.example/x",
    "\t//evil.example/x",
    " //evil.example/x",
    "/%09/evil.example/x",
)


def stays_on_site(location: str, site: str = "http://testserver") -> bool:
    """Whether a browser at `site` that follows `location` stays on `site`, and on a path that
    another hop could not turn into another host."""
    followed = urlsplit(urljoin(site + "/", location))
    return (
        followed.netloc == urlsplit(site).netloc
        and location.startswith("/")
        and "//" not in followed.path
        and "\\" not in location
    )
