"""The project explains itself: every `docs/<name>.md §n` a comment, a test or the README cites
lands on a section (or a numbered item, §9.4) of that document, and nothing points outside the
repository. docs/extending.md's recipes each name the test that exercises them."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CITATION = re.compile(r"docs/(\w+)\.md §(\d+(?:\.\d+)?(?:, \d+(?:\.\d+)?)*)")
SEARCHED = ["storefront", "tests", "bench", "alembic"]


def _sources() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "Makefile", ROOT / "rxconfig.py"]
    for folder in SEARCHED:
        files += [p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts]
    return files


def _sections(doc: str) -> dict[str, list[str]]:
    """Section number -> its lines, from headings like '## 5. Availability and booking'."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in (DOCS / f"{doc}.md").read_text().splitlines():
        heading = re.match(r"^## (\d+)\. ", line)
        if heading:
            current = heading.group(1)
            sections[current] = []
        elif current:
            sections[current].append(line)
    return sections


def test_every_citation_lands_on_a_section_or_item():
    missing = []
    for path in _sources():
        for doc, numbers in CITATION.findall(path.read_text(errors="replace")):
            if not (DOCS / f"{doc}.md").is_file():
                missing.append(f"{path.relative_to(ROOT)}: docs/{doc}.md does not exist")
                continue
            sections = _sections(doc)
            for number in numbers.split(", "):
                section, _, item = number.partition(".")
                lines = sections.get(section)
                if lines is None or (item and not any(ln.startswith(f"{item}. ") for ln in lines)):
                    missing.append(f"{path.relative_to(ROOT)}: docs/{doc}.md §{number}")
    assert not missing, "\n".join(sorted(set(missing)))


def test_citations_are_found_at_all():
    assert sum(len(CITATION.findall(p.read_text(errors="replace"))) for p in _sources()) > 100


def test_nothing_points_outside_the_repository():
    outside = re.compile(r"\.\./shared|\bSPEC\.md\b|\bDESIGN\.md\b|\bSPEC \d|\bDESIGN \d")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _sources()
        if path != Path(__file__)
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if outside.search(line)
    ]
    assert not found, found


@pytest.mark.parametrize("doc", ["architecture", "product", "extending"])
def test_the_maintainers_documents_exist(doc):
    assert (DOCS / f"{doc}.md").read_text().strip()


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
