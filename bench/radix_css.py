"""Write assets/radix-themes.css: the rules of Radix Themes' components.css and utilities.css
that the built app can use, instead of all of them (680 KB, parsed on every page).

Which rules: those whose classes the production bundle names (`rt-Link`, `rt-r-size`, ...;
a class built at run time such as `rt-r-size-2` or `rt-variant-soft` counts when the bundle
holds its stem). Of utilities.css (margins, padding, flex, grid, position and size props that
every Radix component accepts) only the size classes the dialog's defaults set, unless the app
uses Radix's layout components (Box, Flex, Grid, ...): its pages lay out with Tailwind classes
and pass Radix no layout props. Run after a production build, whenever a page starts using
another Radix component: `make radix-css` (it builds first). rxconfig.py imports the file in
place of the two sheets, in Tailwind's components layer, as Radix's own import was.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / ".web"
THEMES = WEB / "node_modules" / "@radix-ui" / "themes"
SHEETS = ("components.css", "utilities.css")
OUT = ROOT / "assets" / "radix-themes.css"
CLASS = re.compile(r"\.((?:[A-Za-z0-9_-]|\\.)+)")
TOKEN = re.compile(r"rt-[A-Za-z0-9_-]+")
BREAKPOINT = re.compile(r"^(?:xs|sm|md|lg|xl):")
# Radix's Dialog.Content sets a max width by default; these size classes carry it.
SIZE_STEMS = {"rt-r-w", "rt-r-min-w", "rt-r-max-w", "rt-r-h", "rt-r-min-h", "rt-r-max-h"}
LAYOUT_COMPONENTS = re.compile(
    r"import \{[^}]*\b(?:Box|Flex|Grid|Container|Section|Inset) as [^}]*\} from \"@radix-ui/themes\""
)


def uses_layout_components() -> bool:
    """Whether any compiled page or component imports a Radix layout component."""
    for folder in ("app", "utils", "components"):
        for source in (WEB / folder).rglob("*.js*"):
            if LAYOUT_COMPONENTS.search(source.read_text(errors="ignore")):
                return True
    return False


def used_stems(assets: Path) -> set[str]:
    stems: set[str] = set()
    for script in assets.glob("*.js"):
        stems.update(t.rstrip("-") for t in TOKEN.findall(script.read_text(errors="ignore")))
    return stems


def _class_allowed(name: str, stems: set[str]) -> bool:
    name = BREAKPOINT.sub("", name.replace("\\", ""))
    if not name.startswith("rt-"):
        return True
    if name in stems:
        return True
    parts = name.split("-")
    return any("-".join(parts[:n]) in stems for n in range(2, len(parts)))


def _split_top(text: str, sep: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _past_comment_or_string(css: str, i: int) -> int:
    """Where a comment or a quoted string starting at `i` ends; 0 when none starts there."""
    if css.startswith("/*", i):
        return css.index("*/", i) + 2
    if css[i] in "\"'":
        return css.index(css[i], i + 1) + 1
    return 0


def _blocks(css: str) -> list[tuple[str, str]]:
    """Top-level (prelude, body) pairs; a statement without a body has body None."""
    out, i, n = [], 0, len(css)
    while i < n:
        j = i
        while j < n and css[j] not in "{;":
            j = _past_comment_or_string(css, j) or j + 1
        if j >= n:
            break
        prelude = re.sub(r"/\*.*?\*/", "", css[i:j], flags=re.S).strip()
        if css[j] == ";":
            out.append((prelude, None))
            i = j + 1
            continue
        depth, k = 1, j + 1
        while depth:
            if skipped := _past_comment_or_string(css, k):
                k = skipped
                continue
            depth += {"{": 1, "}": -1}.get(css[k], 0)
            k += 1
        out.append((prelude, css[j + 1 : k - 1]))
        i = k
    return out


def subset(css: str, stems: set[str]) -> str:
    kept = []
    for prelude, body in _blocks(css):
        if body is None:
            kept.append(prelude + ";")
        elif prelude.startswith(("@media", "@supports", "@layer", "@container")):
            inner = subset(body, stems)
            if inner.strip():
                kept.append(prelude + "{" + inner + "}")
        elif prelude.startswith("@"):
            kept.append(prelude + "{" + body + "}")  # keyframes, font-face, property
        else:
            selectors = [
                s.strip()
                for s in _split_top(prelude, ",")
                if all(_class_allowed(c, stems) for c in CLASS.findall(s))
            ]
            if selectors:
                kept.append(",".join(selectors) + "{" + body.strip() + "}")
    return "\n".join(kept)


def generate() -> str:
    """assets/radix-themes.css as the current build needs it."""
    assets = WEB / "build" / "client" / "assets"
    if not assets.is_dir() or not THEMES.is_dir():
        sys.exit("build the app first (reflex export / make radix-css)")
    stems = used_stems(assets)
    version = re.search(r'"version":\s*"([^"]+)"', (THEMES / "package.json").read_text())
    header = (
        f"/* Generated by bench/radix_css.py from @radix-ui/themes {version.group(1)} "
        "components.css and utilities.css:\n   only the rules of the classes the app's bundle "
        "uses. Do not edit; rerun `make radix-css`. */\n"
    )
    utility_stems = stems if uses_layout_components() else stems & SIZE_STEMS
    body = "\n".join(
        subset((THEMES / sheet).read_text(), utility_stems if sheet == "utilities.css" else stems)
        for sheet in SHEETS
    )
    return header + body + "\n"


def main() -> None:
    OUT.write_text(generate())
    full = sum((THEMES / sheet).stat().st_size for sheet in SHEETS)
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size / 1024:.0f} KB (of {full / 1024:.0f} KB)")


if __name__ == "__main__":
    main()
