"""`make translations` (scripts/translations.py) writes a catalog file only when a string
changed: run again with nothing new, it leaves every file as it is, bytes and mtime."""

from __future__ import annotations

import shutil

from scripts import translations


def _files(folder):
    return {
        path.relative_to(folder): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _drop_first_entry(path):
    header, _first, *rest = path.read_text().split("\n\n")
    path.write_text("\n\n".join([header, *rest]))


def test_a_second_run_writes_nothing_and_a_changed_string_is_written_once(tmp_path):
    catalogs = tmp_path / "translations"
    shutil.copytree(translations.CATALOGS, catalogs)
    # A string the code marks that the template and the .po lack, as after adding one.
    _drop_first_entry(catalogs / "messages.pot")
    _drop_first_entry(catalogs / "sq" / "LC_MESSAGES" / "messages.po")

    written = translations.update(catalogs, ("messages",))
    assert sorted(p.relative_to(catalogs).as_posix() for p in written) == [
        "messages.pot",
        "sq/LC_MESSAGES/messages.po",
    ]
    # The template is the one in the repository again, but for its creation stamp.
    assert translations._content((catalogs / "messages.pot").read_bytes()) == (
        translations._content((translations.CATALOGS / "messages.pot").read_bytes())
    )

    before = _files(catalogs)
    assert translations.update(catalogs, ("messages",)) == []
    assert _files(catalogs) == before
