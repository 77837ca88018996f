"""Operator commands: `python -m storefront.manage make-admin someone@example.com`, and
`python -m storefront.manage setup-code` (the one-time code of Initial Admin Setup while no
admin exists; `--new` voids it and prints another), and
`python -m storefront.manage reset-2fa someone@example.com` (turns off the two-factor sign-in of
an account whose authenticator and recovery codes are both lost), and
`python -m storefront.manage backup [--to FOLDER_OR_S3_URL] [--list]` and
`python -m storefront.manage restore BACKUP [--force]` (services/operations/backup.py; docs/operations.md, 'Backups'),
and `python -m storefront.manage reseal-secrets [--old-key -]` (seals every two-factor secret
with the current key: once after upgrading, and after SECRETS_KEY or SECRET_KEY changed;
services/accounts/sealed.py; docs/operations.md, 'Security')."""

from __future__ import annotations

import argparse
import sys

from storefront.db import session_scope
from storefront.services.accounts import first_admin, sealed, two_factor, users
from storefront.services.operations import backup


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
    make_backup = commands.add_parser(
        "backup", help="back up the database and the stored images (BACKUP_URL or BACKUP_DIR)"
    )
    make_backup.add_argument("--to", help="a folder or s3://bucket/prefix instead of the setting")
    make_backup.add_argument("--list", action="store_true", help="list the finished backups")
    restore = commands.add_parser(
        "restore", help="put a backup back into an empty database (run with the app stopped)"
    )
    restore.add_argument("backup", help="the backup's folder or s3://bucket/prefix/backup-...")
    restore.add_argument("--force", action="store_true", help="replace a database that holds data")
    reseal = commands.add_parser(
        "reseal-secrets",
        help="seal every two-factor secret with the current key (after upgrading, and after "
        "SECRETS_KEY or SECRET_KEY changed)",
    )
    reseal.add_argument(
        "--old-key",
        action="append",
        default=[],
        help="a key the secrets may still be sealed with (the earlier SECRETS_KEY, else "
        "SECRET_KEY); '-' reads them from standard input, one a line, so `ps` does not show "
        "them; may be given more than once",
    )
    args = parser.parse_args(argv)
    if args.command == "backup":
        return _backup(args.to, listing=args.list)
    if args.command == "restore":
        return _restore(args.backup, force=args.force)
    if args.command == "reseal-secrets":
        return _reseal(args.old_key)
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


def _backup(target: str | None, *, listing: bool) -> int:
    try:
        if listing:
            where = backup.parse_target(target) if target else backup.configured_target()
            for name in backup.backups_in(where):
                print(f"{where}/{name}" if where.folder is None else where.folder / name)
            return 0
        made = backup.make_backup(target=target)
    except backup.BackupError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    rows = sum(made.tables.values())
    print(made.location)
    print(
        f"{rows} rows in {len(made.tables)} tables, {made.images} images, {made.size_bytes} bytes",
        file=sys.stderr,
    )
    return 0


def _restore(location: str, *, force: bool) -> int:
    try:
        restored = backup.restore(location, force=force)
    except backup.BackupError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    bookings = restored.tables.get("bookings", 0)
    print(
        f"Restored {restored.location}: {sum(restored.tables.values())} rows ({bookings} "
        f"bookings), {restored.images} images, schema {restored.revision}."
    )
    return 0


def _reseal(old_keys: list[str]) -> int:
    keys = []
    for key in old_keys:
        if key == "-":
            keys += [line.strip() for line in sys.stdin if line.strip()]
        else:
            keys.append(key)
    with session_scope() as session:
        report = sealed.reseal_two_factor_secrets(session=session, old_keys=keys)
    print(
        f"Two-factor secrets: sealed {report.sealed_plain} plain, re-sealed {report.resealed} "
        f"from an old key, {report.current} already on the current key."
    )
    if report.unreadable:
        print(
            f"{len(report.unreadable)} could not be opened with the current key nor any "
            "--old-key given (their admins cannot pass the second step): run again with the "
            "key they were sealed with (--old-key -, the key on standard input), or turn their "
            "two-factor off with reset-2fa.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
