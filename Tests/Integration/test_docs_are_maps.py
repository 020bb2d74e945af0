"""The docs that hold figures and checks are maps of today: docs/BENCHMARKS.md and docs/RELIABILITY.md carry
no dates and no commit hashes. A change that moves a figure replaces its row and appends the old one to
docs/history/ (docs/DEVELOPMENT.md), so these pages do not grow into change logs again.

Also: every relative link in README.md and docs/*.md names a file that exists.
"""
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
MAPS = [ROOT / "docs" / "BENCHMARKS.md", ROOT / "docs" / "RELIABILITY.md"]
DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")
#: A word of 7 to 40 hexadecimal characters with a letter and a digit in it: the shape of a commit hash.
HEXADECIMAL = re.compile(r"(?<![\w-])[0-9a-f]{7,40}(?![\w-])")


def is_commit(word):
    """Whether `word` names a commit of this repository (a hash-shaped word that is not one is let through)."""
    if not (re.search(r"[a-f]", word) and re.search(r"\d", word)):
        return False
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--quiet", "--verify", f"{word}^{{commit}}"],
                           capture_output=True, text=True)
    return found.returncode == 0


@pytest.mark.parametrize("page", MAPS, ids=lambda page: page.name)
def test_a_map_of_today_carries_no_date(page):
    dated = [f"{number}: {line.strip()[:120]}" for number, line in enumerate(page.read_text().splitlines(), 1)
             if DATE.search(line)]
    assert not dated, f"{page.name} has dates (history goes in docs/history/):\n" + "\n".join(dated[:20])


@pytest.mark.parametrize("page", MAPS, ids=lambda page: page.name)
def test_a_map_of_today_carries_no_commit_hash(page):
    hashed = [f"{number}: {word}" for number, line in enumerate(page.read_text().splitlines(), 1)
              for word in HEXADECIMAL.findall(line) if is_commit(word)]
    assert not hashed, f"{page.name} names commits (history goes in docs/history/):\n" + "\n".join(hashed[:20])


def test_the_hash_check_sees_a_commit_and_nothing_else():
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout
    # The shortest prefix of HEAD with a letter and a digit in it, from 7 characters: a hash as a page would cite it.
    short = next(head[:n] for n in range(7, 41) if re.search(r"[a-f]", head[:n]) and re.search(r"\d", head[:n]))
    assert is_commit(short), short
    assert HEXADECIMAL.findall(f"built from `{short}`.") == [short]
    assert not is_commit("0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"), "a hash-shaped word that names no commit"


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))],
                         ids=lambda page: page.name)
def test_every_relative_link_names_a_file_that_exists(page):
    broken = [target for target in LINK.findall(page.read_text())
              if "://" not in target and not target.startswith("mailto:") and not (page.parent / target).exists()]
    assert not broken, f"{page.name} links to files that do not exist: {broken}"
