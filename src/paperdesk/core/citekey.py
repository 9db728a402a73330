"""Citation keys: readable, ASCII, assigned once and then left alone.

The pattern is the first author's last name, else the organisation, else the
first significant word of the title, followed by the year when it is known:
``vaswani2017``, ``deepseek2025``, ``polca2024``. Collisions get ``a``, ``b``,
... in the order the papers arrived; an existing key is never changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from anyascii import anyascii
from sqlite_utils import Database

# German umlauts transliterate by convention to two letters.
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue",
                         "ß": "ss"})
_STOP = frozenset(
    "a an the on of in for to with and or via from by at as is are be do does how what why "
    "when which who can could should would will we our your towards toward into beyond "
    "revisiting rethinking".split())
_WORD = re.compile(r"[A-Za-z0-9]+")
_KEY_OK = re.compile(r"^[A-Za-z0-9_:.\-+/]+$")


def ascii_text(text: str) -> str:
    """Transliterate to ASCII: ä -> ae, é -> e, ß -> ss, Ł -> L."""
    return anyascii(text.translate(_GERMAN))


def _last_name(author: str) -> str:
    author = author.strip()
    if "," in author:
        return author.split(",", 1)[0]
    return author.split()[-1] if author.split() else ""


def base_key(paper: dict[str, Any]) -> str:
    """The key before any suffix, from a paper's fields."""
    authors = paper.get("authors") or []
    if isinstance(authors, str):
        authors = json.loads(authors or "[]")
    words: list[str] = []
    if authors:
        words = _WORD.findall(ascii_text(_last_name(authors[0])))
    if not words and paper.get("organization"):
        words = _WORD.findall(ascii_text(paper["organization"]))[:1]
    if not words:
        title_words = _WORD.findall(ascii_text(paper.get("title") or ""))
        significant = [w for w in title_words if w.lower() not in _STOP]
        words = (significant or title_words or ["paper"])[:1]
    stem = "".join(words).lower()[:24] or "paper"
    year = paper.get("year")
    return f"{stem}{year}" if year else stem


def suffixes() -> Iterable[str]:
    yield ""
    letters = "abcdefghijklmnopqrstuvwxyz"
    yield from letters
    for first in letters:
        for second in letters:
            yield first + second


def valid_key(key: str) -> bool:
    return bool(key) and bool(_KEY_OK.match(key))


class KeyAllocator:
    """Hands out unique keys against those already in the library."""

    def __init__(self, db: Database) -> None:
        self._taken = {r[0] for r in db.execute(
            "SELECT citekey FROM papers WHERE citekey IS NOT NULL")}

    def take(self, paper: dict[str, Any]) -> str:
        base = base_key(paper)
        for suffix in suffixes():
            key = base + suffix
            if key not in self._taken:
                self._taken.add(key)
                return key
        raise AssertionError("unreachable: 703 keys per base")  # pragma: no cover

    def reserve(self, key: str) -> bool:
        """Claim a key chosen elsewhere (a .bib file, the user); False if taken."""
        if key in self._taken:
            return False
        self._taken.add(key)
        return True
