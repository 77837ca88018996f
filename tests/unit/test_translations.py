"""The catalogs (storefront/i18n.py) hold a translation of every marked string, with the same
placeholders, and nothing the code no longer uses: `make translations` keeps them in step. The
default edition speaks Albanian throughout: no Albanian entry is left equal to its English
source, but for the names in SAME_IN_ALBANIAN."""

from __future__ import annotations

import re

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from storefront import i18n

# A string of both catalogs (`_s()`, shown on the site and in the back office) is in each.
SHARED_KEYWORDS = {"_s": None, "N_s": None, "shared_gettext": None}
OFFICE_KEYWORDS = {"_o": None, "N_o": None, "office_gettext": None, "office_ngettext": (1, 2)}
KEYWORDS = {
    "messages": DEFAULT_KEYWORDS | SHARED_KEYWORDS,
    "office": OFFICE_KEYWORDS | SHARED_KEYWORDS,
}
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([^)]+\)[sd]")
# Written the same in Albanian: a brand, a format with only placeholders and a unit Albanian
# abbreviates alike, an event's name Kosovo uses in English.
SAME_IN_ALBANIAN = {"Instagram", "#rrggbb", "{label}: {words}", "{minutes} min", "Baby shower"}


def _extracted(domain: str) -> dict[str, str]:
    """Every string marked for `domain` in the app's sources: {msgid: where}."""
    found: dict[str, str] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
        str(i18n.TRANSLATIONS.parent),
        method_map=[("**.py", "python")],
        keywords=KEYWORDS[domain],
    ):
        msgid = message[0] if isinstance(message, tuple) else message  # a plural's singular
        if msgid:
            found.setdefault(msgid, filename)
    return found


def _catalog(domain: str, lang: str):
    with i18n.po_path(lang, domain).open("rb") as source:
        return read_po(source, locale=i18n.LOCALES[lang], domain=domain)


CATALOGS = [(domain, lang) for domain in i18n.SOURCES for lang in i18n.translated(domain)]


@pytest.mark.parametrize(("domain", "lang"), CATALOGS)
def test_every_marked_string_is_translated(domain, lang):
    catalog = _catalog(domain, lang)
    translated = {
        (m.id if isinstance(m.id, str) else m.id[0]): m
        for m in catalog
        if m.id and not m.fuzzy and (m.string if isinstance(m.string, str) else all(m.string))
    }
    missing = sorted(
        f"{where}: {msgid!r}"
        for msgid, where in _extracted(domain).items()
        if msgid not in translated
    )
    assert not missing, (
        f"{len(missing)} strings have no {lang} translation in {i18n.po_path(lang, domain)} "
        "(run `make translations`, then write them):\n" + "\n".join(missing[:40])
    )


@pytest.mark.parametrize(("domain", "lang"), CATALOGS)
def test_translations_keep_their_placeholders(domain, lang):
    wrong = []
    for message in _catalog(domain, lang):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = sorted(PLACEHOLDER.findall(ids[-1]))
        for string in strings:
            if sorted(PLACEHOLDER.findall(string)) != expected:
                wrong.append(f"{ids[0]!r} -> {string!r}")
    assert not wrong, "placeholders differ from the source:\n" + "\n".join(wrong)


@pytest.mark.parametrize(("domain", "lang"), CATALOGS)
def test_catalogs_hold_nothing_the_code_does_not_use(domain, lang):
    used = _extracted(domain)
    stale = sorted(
        m.id if isinstance(m.id, str) else m.id[0]
        for m in _catalog(domain, lang)
        if m.id and (m.id if isinstance(m.id, str) else m.id[0]) not in used
    )
    assert not stale, "no longer in the code (run `make translations`): " + repr(stale[:20])


def test_a_missing_translation_fails(tmp_path, monkeypatch):
    """The check above can fail: a marked string absent from a catalog is reported."""
    monkeypatch.setattr(i18n, "TRANSLATIONS", tmp_path / "storefront" / "translations")
    source = tmp_path / "storefront" / "page.py"
    source.parent.mkdir(parents=True)
    source.write_text('from storefront.i18n import _\nTITLE = _("Not translated anywhere")\n')
    (tmp_path / "storefront" / "translations" / "sq" / "LC_MESSAGES").mkdir(parents=True)
    i18n.po_path("sq").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
    )
    with pytest.raises(AssertionError, match="Not translated anywhere"):
        test_every_marked_string_is_translated("messages", "sq")


@pytest.mark.parametrize("domain", list(i18n.SOURCES))
def test_no_albanian_entry_is_left_in_english(domain):
    left = []
    for message in _catalog(domain, "sq"):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if ids[0] in SAME_IN_ALBANIAN:
            continue
        if any(source == text for source, text in zip(ids, strings, strict=False)):
            left.append(repr(ids[0]))
    assert not left, f"{len(left)} Albanian entries of {domain} say the English:\n" + "\n".join(
        left[:40]
    )


def test_an_entry_left_in_english_fails(tmp_path, monkeypatch):
    """The check above can fail."""
    monkeypatch.setattr(i18n, "TRANSLATIONS", tmp_path / "storefront" / "translations")
    (tmp_path / "storefront" / "translations" / "sq" / "LC_MESSAGES").mkdir(parents=True)
    i18n.po_path("sq").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "Proceed to Checkout"\nmsgstr "Proceed to Checkout"\n'
    )
    with pytest.raises(AssertionError, match="Proceed to Checkout"):
        test_no_albanian_entry_is_left_in_english("messages")


def test_the_default_edition_is_albanian_and_english_is_the_source_text():
    with i18n.using("sq"):
        assert i18n._("Proceed to Checkout") == "Vazhdo me rezervimin"
        assert i18n._o("Hello,") == "Përshëndetje,"
    with i18n.using("en"):
        assert i18n._("Proceed to Checkout") == "Proceed to Checkout"
        assert i18n._o("Hello,") == "Hello,"
    assert i18n.language() == i18n.DEFAULT


def test_a_shared_string_speaks_the_words_of_its_page():
    """`_s()`: the site's catalog on the site's pages, the back office's on its own; both
    speak Albanian in the default edition and on /sq/admin, English elsewhere."""
    with i18n.on_page("/account/services/new"):
        assert i18n._s("Save Service") == "Ruaj shërbimin"
    with i18n.on_page("/en/account/services/new"):
        assert i18n._s("Save Service") == "Save Service"
    with i18n.on_page("/sq/admin/services/new"):
        assert i18n._s("Save Service") == "Ruaj shërbimin"
        assert i18n._s("Wedding") == i18n._o("Wedding") != "Wedding"
    with i18n.on_page("/admin/services/new"):
        assert i18n._s("Save Service") == "Save Service"
    # A mail's language says nothing of a page: outside one, `_s()` is the site's.
    with i18n.using("sq"):
        assert i18n._s("Save Service") == "Ruaj shërbimin"


@pytest.mark.parametrize("domain", ["messages", "office"])
def test_every_kinds_words_are_translated(domain):
    """A kind's label, its fields' labels and hints are shown in the back office and on the
    service form in both languages (docs/extending.md, 'Add a service kind'): each is marked
    `N_s()` and has its Albanian in both catalogs. A plain string would be missed by the
    extraction, and so by the tests above."""
    from storefront.models import kinds

    catalog = _catalog(domain, "sq")
    untranslated = []
    for kind in map(kinds.kind, kinds.names()):
        words = [kind.label]
        for field in kind.fields:
            words += [field.label, field.hint]
        for word in filter(None, words):
            message = catalog.get(word)
            if message is None or not message.string:
                untranslated.append(f"{kind.name}: {word!r}")
    assert not untranslated, untranslated
