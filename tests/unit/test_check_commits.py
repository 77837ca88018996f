"""The commit-msg hook's reading of a message (scripts/check_commits.py)."""

from __future__ import annotations

from scripts import check_commits


def test_the_subject_is_the_first_line_git_keeps():
    message = "# a comment\n\n  Short subject\n\nThe body, as long as it likes " + "x" * 100
    assert check_commits.subject_of(message) == "Short subject"
    assert check_commits.subject_of("# only comments\n") == ""


def test_a_subject_over_72_characters_is_refused_and_72_pass(tmp_path):
    message = tmp_path / "COMMIT_EDITMSG"
    message.write_text("é" * 72 + "\n\nBody\n", encoding="utf-8")  # characters, not bytes
    assert check_commits.check_message(message) == 0
    message.write_text("a" * 73 + "\n", encoding="utf-8")
    assert check_commits.check_message(message) == 1
    message.write_text("fixup! " + "a" * 73 + "\n", encoding="utf-8")
    assert check_commits.check_message(message) == 0
