"""Serve the production build that is already in `.web` (made by `python -m storefront.prod
build`), without compiling or building again, whatever PUBLIC_URL it was built for: the test
servers run on several loopback addresses (one per test worker) from the one build. Usage, from
the project root:

    python -m tests.serve_built HOST PORT

The same code path as `make run-prod` after its build (storefront.prod.serve), without its check
that the build was made for this PUBLIC_URL: the build is made for http://localhost:PORT, and the
browser's page keeps its own host for the websocket when the build's is `localhost` (Reflex's
getBackendURL), so a server on 127.0.0.2:PORT is reached there."""

from __future__ import annotations

import sys


def main() -> None:
    from storefront.prod import serve

    serve(sys.argv[1], int(sys.argv[2]), check=False)


if __name__ == "__main__":
    main()
