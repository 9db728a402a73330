"""A page's text as the reader works with it: each character with its box, in PDF points.

The sandbox gives a page's text and one box per character (``(left, bottom, right,
top)``, origin at the page's lower left; a character PDFium made up, a line end,
has an empty box). From these, without Qt: the ranges of the characters a search
finds (every hit, case and spacing ignored), the character nearest a point (where
a mouse selection starts and ends), a range's text (what Copy puts on the
clipboard) and its quads, one per line it spans (what a highlight stores:
``[x1, y1, x2, y2, x3, y3, x4, y4]``, upper left, upper right, lower left, lower
right, as PDF's QuadPoints).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

Box = tuple[float, float, float, float]  # left, bottom, right, top
Quad = list[float]


def _fold(ch: str) -> str:
    """One character as a search compares it: ligatures and widths undone, case folded."""
    return unicodedata.normalize("NFKC", ch).casefold()


@dataclass(frozen=True)
class PageText:
    """``text`` with ``boxes[i]`` the box of ``text[i]``; ``width`` x ``height`` points."""

    text: str
    boxes: tuple[Box, ...]
    width: float
    height: float

    def __post_init__(self) -> None:
        if len(self.boxes) != len(self.text):
            raise ValueError(f"{len(self.text)} characters but {len(self.boxes)} boxes")

    # -- finding ---------------------------------------------------------------

    def _folded(self) -> tuple[str, list[int]]:
        """The text folded for search (spaces collapsed), and for each of its characters
        the index of the character of ``text`` it came from."""
        out: list[str] = []
        where: list[int] = []
        for i, ch in enumerate(self.text):
            if ch.isspace() or ch in "\x02\ufffe":  # PDFium marks a hyphen broken at a line end
                if out and out[-1] != " ":
                    out.append(" ")
                    where.append(i)
                continue
            for f in _fold(ch):
                out.append(f)
                where.append(i)
        return "".join(out), where

    def find(self, query: str) -> list[tuple[int, int]]:
        """Every place ``query`` occurs: (start, end) ranges of ``text``, in reading order."""
        needle = " ".join("".join(_fold(c) for c in query).split())
        if not needle:
            return []
        folded, where = self._folded()
        hits = []
        for m in re.finditer(re.escape(needle), folded):
            hits.append((where[m.start()], where[m.end() - 1] + 1))
        return hits

    def find_words(self, words: list[str]) -> list[tuple[int, int]]:
        """The hits of each of ``words`` (a full-text search's words), sorted."""
        return sorted({hit for w in words for hit in self.find(w)})

    # -- pointing and selecting --------------------------------------------------

    def char_at(self, x: float, y: float) -> int | None:
        """The index of the character whose box is nearest the point (x, y), or None
        when the page has no text. A point past a line's end gives its last character."""
        best, best_d = None, None
        for i, (left, bottom, right, top) in enumerate(self.boxes):
            if right <= left and top <= bottom:
                continue
            dx = max(left - x, 0.0, x - right)
            dy = max(bottom - y, 0.0, y - top)
            d = dy * 4 + dx  # the line first, then the place on it
            if best_d is None or d < best_d:
                best, best_d = i, d
        return best

    def selected(self, a: int, b: int) -> tuple[int, int]:
        """The range from character ``a`` to character ``b`` (either order), both in."""
        return (min(a, b), max(a, b) + 1)

    def text_of(self, start: int, end: int) -> str:
        """The text of a range, as it would be pasted: line ends as spaces, hyphens of
        words broken at a line end dropped."""
        raw = self.text[start:end].replace("\x02", "").replace("\ufffe", "")
        return " ".join(raw.split())

    def quads(self, start: int, end: int) -> list[Quad]:
        """The range's boxes joined line by line: one quad per line."""
        lines: list[list[float]] = []  # [left, bottom, right, top]
        for left, bottom, right, top in self.boxes[start:end]:
            if right <= left and top <= bottom:
                continue
            last = lines[-1] if lines else None
            if last is not None and bottom < last[3] and top > last[1] and left >= last[0] - 1:
                last[0], last[1] = min(last[0], left), min(last[1], bottom)
                last[2], last[3] = max(last[2], right), max(last[3], top)
            else:
                lines.append([left, bottom, right, top])
        return [quad(*line) for line in lines]


def quad(left: float, bottom: float, right: float, top: float) -> Quad:
    """A rectangle as a quad: upper left, upper right, lower left, lower right."""
    return [round(v, 2) for v in (left, top, right, top, left, bottom, right, bottom)]


def quad_box(q: Quad) -> Box:
    """The rectangle around a quad."""
    xs, ys = q[0::2], q[1::2]
    return (min(xs), min(ys), max(xs), max(ys))
