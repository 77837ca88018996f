"""Serve the production build that is already in `.web` (made by `reflex run --env prod` of
another process on this checkout), without compiling or building again: as a second host
would run the same build artifact. Usage, from the project root:

    python -m tests.scale.serve_built HOST PORT

Reflex's own prod path (`reflex run --env prod --single-port`) compiles and runs Vite first;
two of those on one checkout would rebuild `.web` under each other. Everything else is the
same code path: `reflex.utils.exec.run_backend_prod` with the compiled frontend mounted, granian
with GRANIAN_WORKERS workers, Redis state when REFLEX_REDIS_URL is set."""

from __future__ import annotations

import sys


def main() -> None:
    from reflex.utils import exec as reflex_exec
    from reflex_base.constants.base import LogLevel
    from reflex_base.environment import environment

    host, port = sys.argv[1], int(sys.argv[2])
    environment.REFLEX_SKIP_COMPILE.set(True)
    reflex_exec.run_backend_prod(host, port, LogLevel.INFO, mount_frontend_compiled_app=True)


if __name__ == "__main__":
    main()
