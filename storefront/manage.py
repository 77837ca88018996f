"""Operator commands: `python -m storefront.manage make-admin someone@example.com`, and
`python -m storefront.manage setup-code` (the one-time code of Initial Admin Setup while no
admin exists; `--new` voids it and prints another), and
`python -m storefront.manage reset-2fa someone@example.com` (turns off the two-factor sign-in of
an account whose authenticator and recovery codes are both lost)."""

from __future__ import annotations

import argparse
import sys

from storefront.db import session_scope
from storefront.services import first_admin, two_factor, users


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storefront.manage")
    commands = parser.add_subparsers(dest="command", required=True)
    make_admin = commands.add_parser("make-admin", help="give an existing account the admin role")
    make_admin.add_argument("email")
    setup_code = commands.add_parser(
        "setup-code", help="print the one-time code of Initial Admin Setup (while no admin exists)"
    )
    setup_code.add_argument("--new", action="store_true", help="void the current code first")
    reset_2fa = commands.add_parser(
        "reset-2fa", help="turn off an account's two-factor sign-in (lost authenticator)"
    )
    reset_2fa.add_argument("email")
    args = parser.parse_args(argv)
    if args.command == "make-admin":
        try:
            with session_scope() as session:
                users.make_admin_by_email(session=session, email=args.email)
                first_admin.retire_code(session=session)
        except users.RoleError as exc:
            print(exc.message, file=sys.stderr)
            return 1
        print(f"{args.email} is now an admin.")
    if args.command == "setup-code":
        with session_scope() as session:
            issued = first_admin.current_code(session=session, renew=args.new)
        if issued is None:
            print("An admin exists already: no setup code is needed.", file=sys.stderr)
            return 1
        print(issued.code)
        print(
            f"valid until {issued.expires_at:%Y-%m-%d %H:%M} UTC, once; asked for by Initial "
            "Admin Setup on a public address only",
            file=sys.stderr,
        )
    if args.command == "reset-2fa":
        try:
            with session_scope() as session:
                two_factor.reset_by_operator(session=session, email=args.email)
        except two_factor.TwoFactorError as exc:
            print(exc.message, file=sys.stderr)
            return 1
        print(f"Two-factor sign-in is off for {args.email}; they can set it up again.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
