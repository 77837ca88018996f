"""Building and running the app leaves the checkout as it was: `make run` on a fresh clone must
not show the operator a change in `git status` they did not make.

Reflex writes `reflex.lock/package.json` and `package-lock.json` back at every build (its
frontend install renders package.json from the persisted copy, lets npm add the framework's
packages, and copies the result back). The committed files must therefore be byte for byte what
the build writes; when a dependency changes (a new component library), commit the files as the
build left them."""

from __future__ import annotations

import pytest

from tests.e2e.server import changed_by_build

pytestmark = pytest.mark.e2e


def test_the_build_changed_no_tracked_file(server):
    before, after = server.build_changes
    if before is None:
        pytest.skip("not inside a git checkout: nothing to compare")
    changed = changed_by_build(before, after)
    assert not changed, f"building the app changed tracked files; commit them as written:{changed}"


def test_the_radix_stylesheet_has_every_rule_the_build_uses(server):
    """rxconfig.py ships only the Radix Themes rules the bundle uses (assets/radix-themes.css,
    written by bench/radix_css.py). A page that starts using another Radix component would
    show it unstyled until `make radix-css` is rerun: this fails first."""
    from bench.radix_css import OUT, generate

    assert OUT.read_text() == generate(), (
        "assets/radix-themes.css is out of date with the build: run `make radix-css` and commit it"
    )
