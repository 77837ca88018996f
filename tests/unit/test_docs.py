"""The project explains itself. The README is what a newcomer reads in two minutes: at most 150
lines, starting with `make run` and `make test`; the rest lives in docs/. Every citation of a
document lands: `docs/<name>.md §n` on a section (or a numbered item, §9.4) and
`docs/<name>.md, 'Heading'` on a heading (or a bold lead phrase, '**Throttling.**') of that
document, from a comment, a test, the Makefile, a file of deploy/ or another document; no
comment still cites a section of the README. Every relative link in the README and docs/ reaches a file, nothing points
outside the repository, and docs/extending.md's recipes each name the test that exercises them."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
README_MAX_LINES = 150
# docs/architecture.md §5, docs/architecture.md §9.4, docs/product.md §5, 8
CITATION = re.compile(r"docs/(\w+)\.md §(\d+(?:\.\d+)?(?:, \d+(?:\.\d+)?)*)")
# docs/operations.md, 'Backups'; docs/extending.md 'Add a notification'; docs/x.md: 'Security'.
# Across a line break too, in a comment (`#`) or a docstring.
NAMED = re.compile(r"docs/(\w+)\.md[,:]?(?:\s|#)+'([^'\n]+)'")
# A section of the README cited as if it were still there: README 'Bookings', README, Faults;
# README: Secrets at rest; README, `STORAGE_BACKEND`.
README_SECTION = re.compile(r"\bREADME(?:\.md)?[,:]?(?:\s|#)+(?:'|`|[A-Z][a-z]+[\s),])")
MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
SEARCHED = ["storefront", "tests", "bench", "alembic"]
DOCUMENTS = ["architecture", "product", "extending", "development", "operations", "performance"]


def _markdown() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def _sources() -> list[Path]:
    files = [*_markdown(), ROOT / "Makefile", ROOT / "rxconfig.py", ROOT / ".env.example"]
    files += [ROOT / ".ci" / "run", *sorted((ROOT / "deploy").glob("*"))]
    for folder in SEARCHED:
        files += [p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts]
    # This file's own examples of broken citations are not citations.
    return [p for p in files if p.is_file() and p != Path(__file__)]


def _sections(doc: str) -> dict[str, list[str]]:
    """Section number -> its lines, from headings like '## 5. Availability and booking' (a
    section ends at the next '## ' heading, numbered or not)."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in (DOCS / f"{doc}.md").read_text().splitlines():
        if line.startswith("## "):
            heading = re.match(r"^## (\d+)\. ", line)
            current = heading.group(1) if heading else None
            if current:
                sections[current] = []
        elif current:
            sections[current].append(line)
    return sections


def _names(doc: str) -> set[str]:
    """What `docs/<doc>.md, '...'` may name: a heading of any level, or a bold lead phrase."""
    text = (DOCS / f"{doc}.md").read_text()
    headings = {h.strip() for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}
    bold = {b.strip().rstrip(".:").strip() for b in re.findall(r"\*\*([^*\n]+)\*\*", text)}
    return headings | bold


def _numbered_citations(text: str) -> list[tuple[str, str]]:
    return CITATION.findall(text)


def _named_citations(text: str) -> list[tuple[str, str]]:
    return [(doc, " ".join(name.split())) for doc, name in NAMED.findall(text)]


def _broken_numbered(path: Path, text: str) -> list[str]:
    missing = []
    for doc, numbers in _numbered_citations(text):
        if not (DOCS / f"{doc}.md").is_file():
            missing.append(f"{path.relative_to(ROOT)}: docs/{doc}.md does not exist")
            continue
        sections = _sections(doc)
        for number in numbers.split(", "):
            section, _, item = number.partition(".")
            lines = sections.get(section)
            if lines is None or (item and not any(ln.startswith(f"{item}. ") for ln in lines)):
                missing.append(f"{path.relative_to(ROOT)}: docs/{doc}.md §{number}")
    return missing


def _broken_named(path: Path, text: str) -> list[str]:
    missing = []
    for doc, name in _named_citations(text):
        if not (DOCS / f"{doc}.md").is_file():
            missing.append(f"{path.relative_to(ROOT)}: docs/{doc}.md does not exist")
        elif name not in _names(doc):
            missing.append(f"{path.relative_to(ROOT)}: docs/{doc}.md has no heading '{name}'")
    return missing


def test_the_readme_is_short():
    lines = README.read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines (at most {README_MAX_LINES}): move the detail to docs/"
    )


def test_the_readme_starts_with_make_run_and_make_test():
    text = README.read_text()
    commands = re.findall(r"\bmake ([a-z][\w-]*)", text)
    assert commands[:2] == ["run", "test"], commands[:2]
    before_any_section = text.split("\n## ", 1)[0]
    block = re.search(r"```\w*\n(.*?)```", before_any_section, flags=re.S)
    assert block, "README.md opens with a code block of its two commands"
    assert re.findall(r"^make (\w+)", block.group(1), flags=re.M) == ["run", "test"]


@pytest.mark.parametrize("doc", DOCUMENTS)
def test_the_documents_exist(doc):
    assert (DOCS / f"{doc}.md").read_text().strip()


@pytest.mark.parametrize("doc", DOCUMENTS)
def test_the_readme_links_every_document(doc):
    assert f"(docs/{doc}.md)" in README.read_text()


def test_every_relative_link_reaches_a_file():
    broken = []
    for path in _markdown():
        for target in MARKDOWN_LINK.findall(path.read_text()):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            file = target.split("#", 1)[0]
            if not (path.parent / file).exists():
                broken.append(f"{path.relative_to(ROOT)}: ({target})")
    assert not broken, "\n".join(broken)


def test_every_citation_lands_on_a_section_or_item():
    missing = []
    for path in _sources():
        missing += _broken_numbered(path, path.read_text(errors="replace"))
    assert not missing, "\n".join(sorted(set(missing)))


def test_every_named_citation_lands_on_a_heading():
    missing = []
    for path in _sources():
        missing += _broken_named(path, path.read_text(errors="replace"))
    assert not missing, "\n".join(sorted(set(missing)))


def test_a_broken_citation_is_caught():
    here = ROOT / "storefront" / "example.py"
    assert _broken_named(here, "# docs/operations.md, 'Backups'") == []
    assert _broken_named(here, "# see docs/operations.md,\n# 'Several workers and hosts'") == []
    assert _broken_named(here, "# docs/operations.md, 'Back ups'")
    assert _broken_named(here, "# docs/operation.md, 'Backups'")
    assert _broken_numbered(here, "# docs/product.md §5") == []
    assert _broken_numbered(here, "# docs/product.md §42")
    assert _broken_numbered(here, "# docs/architecture.md §9.999")


def test_citations_are_found_at_all():
    texts = [p.read_text(errors="replace") for p in _sources()]
    assert sum(len(_numbered_citations(t)) for t in texts) > 100
    named = {doc for t in texts for doc, _ in _named_citations(t)}
    assert {"operations", "product", "performance", "extending", "development"} <= named


def test_no_comment_cites_a_section_of_the_readme():
    found = []
    for path in _sources():
        text = path.read_text(errors="replace")
        for match in README_SECTION.finditer(text):
            number = text.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0).strip()}")
    assert not found, "cite the section's new home in docs/:\n" + "\n".join(found)


def test_nothing_points_outside_the_repository():
    outside = re.compile(r"\.\./shared|\bSPEC\.md\b|\bDESIGN\.md\b|\bSPEC \d|\bDESIGN \d")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _sources()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if outside.search(line)
    ]
    assert not found, found


def test_each_recipe_names_a_test_that_exists():
    text = (DOCS / "extending.md").read_text()
    recipes = re.split(r"^## ", text, flags=re.M)[1:]
    assert len(recipes) >= 5
    for recipe in recipes:
        title = recipe.splitlines()[0]
        if "not yet" in title.lower():
            continue
        named = re.findall(r"Tested by: `(tests/[\w/]+\.py)", recipe)
        assert named, f"the recipe '{title}' names no test ('Tested by: `tests/...`')"
        for test in named:
            assert (ROOT / test).is_file(), f"'{title}' names {test}, which does not exist"
