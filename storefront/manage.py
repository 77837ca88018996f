"""Operator commands: `python -m storefront.manage make-admin someone@example.com`."""

from __future__ import annotations

import argparse
import sys

from storefront.db import session_scope
from storefront.services import users


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storefront.manage")
    commands = parser.add_subparsers(dest="command", required=True)
    make_admin = commands.add_parser("make-admin", help="give an existing account the admin role")
    make_admin.add_argument("email")
    args = parser.parse_args(argv)
    if args.command == "make-admin":
        try:
            with session_scope() as session:
                users.make_admin_by_email(session=session, email=args.email)
        except users.RoleError as exc:
            print(exc.message, file=sys.stderr)
            return 1
        print(f"{args.email} is now an admin.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
