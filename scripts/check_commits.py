"""Commit subjects of at most 72 characters, the detail in the body, so `git log --oneline`
stays readable.

    python scripts/check_commits.py                      # every commit after BASE (make lint)
    python scripts/check_commits.py --message-file FILE  # one message (.githooks/commit-msg)

History up to BASE, the last commit before the rule, is not rewritten and not checked. Outside
a git checkout, or in a shallow clone that lacks BASE, the range check says so and passes."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

MAX_SUBJECT = 72
BASE = "40fec7b8f204f4ea19c8e1c52349fa53ffb80463"
# Subjects git writes for `commit --fixup/--squash`: squashed away before they land.
AUTOSQUASH = ("fixup! ", "squash! ", "amend! ")


def subject_of(message: str) -> str:
    """The first line that is neither blank nor a comment, as git keeps it."""
    for line in message.splitlines():
        if line.startswith("# ------------------------ >8 ------------------------"):
            break  # `commit -v`: the diff below is not part of the message
        if line.strip() and not line.startswith("#"):
            return line.strip()
    return ""


def problem(subject: str) -> str | None:
    if len(subject) > MAX_SUBJECT:
        return f"{len(subject)} characters, at most {MAX_SUBJECT}"
    return None


def check_message(path: Path) -> int:
    subject = subject_of(path.read_text(encoding="utf-8", errors="replace"))
    if subject.startswith(AUTOSQUASH):
        return 0
    wrong = problem(subject)
    if wrong:
        print(
            f"commit-msg: the subject has {wrong}; put the detail in the body, after a blank "
            f"line:\n  {subject}",
            file=sys.stderr,
        )
        return 1
    return 0


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], capture_output=True, text=True, encoding="utf-8")


def check_range(base: str = BASE, head: str = "HEAD") -> int:
    if _git("rev-parse", "--is-inside-work-tree").returncode != 0:
        print("check-commits: not a git checkout, skipped")
        return 0
    if _git("cat-file", "-e", f"{base}^{{commit}}").returncode != 0:
        print(f"check-commits: {base[:7]} is not in this clone (shallow?), skipped")
        return 0
    log = _git("log", "--format=%h%x00%s", f"{base}..{head}")
    if log.returncode != 0:
        print(log.stderr, file=sys.stderr)
        return 2
    wrong = []
    for line in log.stdout.splitlines():
        commit, subject = line.split("\0", 1)
        reason = problem(subject)
        if reason:
            wrong.append(f"  {commit} ({reason}): {subject}")
    if wrong:
        print(
            f"check-commits: {len(wrong)} commit subject(s) after {base[:7]} are too long "
            "(reword them: git rebase -i; the detail goes in the body):\n" + "\n".join(wrong),
            file=sys.stderr,
        )
        return 1
    count = len(log.stdout.splitlines())
    print(f"check-commits: {count} commit subject(s) after {base[:7]}, all within {MAX_SUBJECT}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--message-file", type=Path, help="check one commit message (the hook)")
    args = parser.parse_args(argv)
    if args.message_file:
        return check_message(args.message_file)
    return check_range()


if __name__ == "__main__":
    sys.exit(main())
