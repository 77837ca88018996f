"""`make translations`: extract the marked strings of each catalog into its template, merge the
template into each translated .po, and write a file only when something other than its dates
changed.

pybabel stamps every template it extracts with the time (POT-Creation-Date) and copies that
stamp into each .po it updates, so run as is it rewrote all four files on every run, with no
string changed. Here pybabel writes into a scratch folder; a file in storefront/translations is
replaced only when it differs from the new one in more than the header's dates (its mtime
stays too), so a run with nothing new leaves the catalogs and `git status` alone.

    python scripts/translations.py [--catalogs DIR]

DIR (storefront/translations by default) is where the templates and the .po files are; the
strings are always extracted from storefront/ (tests/unit/test_translations_script.py runs it
on a copy)."""

from __future__ import annotations

import argparse
import contextlib
import re
import shutil
import sys
import tempfile
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "storefront" / "translations"
LOCALES = ["sq"]

EXTRACT = [
    "extract",
    "-F",
    "babel.cfg",
    "--add-location=file",
    "--sort-output",
    "--no-wrap",
    "--project=storefront",
    "--copyright-holder=Magic Events",
]
SHARED = ["-k", "_s", "-k", "N_s", "-k", "shared_gettext"]
# `messages`: the site, marked _() and N_(); `office`: the back office and mails, marked _o()
# and N_o(); each also holds the shared strings, marked _s() (storefront/i18n.py).
KEYWORDS = {
    "messages": SHARED,
    "office": [
        "--no-default-keywords",
        "-k",
        "_o",
        "-k",
        "N_o",
        "-k",
        "office_gettext",
        "-k",
        "office_ngettext:1,2",
        *SHARED,
    ],
}
UPDATE = ["update", "--no-wrap", "--ignore-obsolete", "--init-missing", "--no-fuzzy-matching"]

# What changes from one run to the next with no string changed: the stamps of the time and the
# year of the header. A file whose other lines are the same is left as it is.
_STAMPS = re.compile(
    rb'^(?:"POT-Creation-Date: .*|"PO-Revision-Date: .*|# Copyright \(C\) \d{4} .*|'
    rb"# FIRST AUTHOR <EMAIL@ADDRESS>, \d{4}\.)$",
    re.MULTILINE,
)


def _content(data: bytes) -> bytes:
    return _STAMPS.sub(b"", data)


def _pybabel(*args: str) -> None:
    status = CommandLineInterface().run(["pybabel", "--quiet", *args])
    if status:
        raise SystemExit(status)


def _replace_if_changed(target: Path, new: Path) -> bool:
    """Put `new` in place of `target` when their contents differ beyond the stamps."""
    data = new.read_bytes()
    if target.exists() and _content(target.read_bytes()) == _content(data):
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return True


def update(catalogs: Path = CATALOGS, domains: tuple[str, ...] = tuple(KEYWORDS)) -> list[Path]:
    """Extract and merge each catalog of `domains` in `catalogs`; returns the files it wrote."""
    catalogs = catalogs.resolve()
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="translations-") as scratch_dir:
        scratch = Path(scratch_dir)
        for domain in domains:
            keywords = KEYWORDS[domain]
            template = catalogs / f"{domain}.pot"
            fresh = scratch / f"{domain}.pot"
            with contextlib.chdir(ROOT):  # locations read 'storefront/pages/...'
                _pybabel(*EXTRACT, *keywords, "-o", str(fresh), "storefront")
            if _replace_if_changed(template, fresh):
                written.append(template)
            for locale in LOCALES:
                po = Path(locale, "LC_MESSAGES", f"{domain}.po")
                if (catalogs / po).exists():
                    (scratch / po).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(catalogs / po, scratch / po)
                # Merged from the template in place, whose stamp is the one the .po holds
                # unless the template changed.
                _pybabel(
                    *UPDATE, "-d", str(scratch), "-D", domain, "-i", str(template), "-l", locale
                )
                if _replace_if_changed(catalogs / po, scratch / po):
                    written.append(catalogs / po)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalogs", type=Path, default=CATALOGS)
    args = parser.parse_args(argv)
    written = update(args.catalogs)
    for path in written:
        print(f"updated {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    if not written:
        print("translations: no string changed, nothing written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
