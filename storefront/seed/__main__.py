"""`python -m storefront.seed`: load the demo catalogue into the configured database."""

from storefront.db import session_scope
from storefront.seed import load_demo


def main() -> None:
    with session_scope() as session:
        report = load_demo(session=session)
    if report.total:
        print("Seeded:", ", ".join(f"{k} {v}" for k, v in sorted(report.inserted.items())))
    else:
        print("Seed: nothing to add, the demo catalogue is already there.")


if __name__ == "__main__":
    main()
