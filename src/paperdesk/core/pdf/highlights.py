"""Highlights: passages of a paper's PDFs marked in a colour, with a comment.

``lib.highlights``. A highlight is a row of the library (attachment, page, quads in
PDF points, text, comment, colour, times: ``highlights_table``), never written
into the PDF, so a file stays as it came and two computers never fight over it.
Each change is one undoable edit that also stamps the paper's ``modified`` time,
as a note's does; a highlight goes where its attachment goes (a merge moves it,
the trash keeps it, emptying the trash takes it, an undo brings it back).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from paperdesk.core.db import attachments_table, highlights_table, papers_table
from paperdesk.core.db import changes as ch
from paperdesk.core.model.clock import now
from paperdesk.core.model.errors import CurationError, NotFound

if TYPE_CHECKING:
    from paperdesk.core.library import Library

# The colours offered, by name (Zotero's first four); a highlight keeps its colour's name.
COLOURS = {"yellow": "#ffd400", "green": "#5fb236", "blue": "#2ea8e5", "pink": "#e56eee"}
HIGHLIGHT_COLOURS = COLOURS  # the name the front ends know them by
MAX_TEXT = 100_000     # characters of a highlight's passage or comment
MAX_QUADS = 10_000     # a passage of a whole page has a few hundred lines at most
_KINDS = (ch.HIGHLIGHTS, ch.PAPERS)


@dataclass(frozen=True)
class HighlightResult(ch.Result):
    highlight_id: int


def _quads(quads: Sequence[Sequence[float]]) -> list[list[float]]:
    out = []
    if not quads or len(quads) > MAX_QUADS:
        raise CurationError("a highlight covers at least one line of a page")
    for q in quads:
        values = [float(v) for v in q]
        if len(values) != 8 or not all(math.isfinite(v) for v in values):
            raise CurationError("a highlight's quad is eight numbers (four corners)")
        out.append(values)
    return out


def _colour(colour: str) -> str:
    if colour not in COLOURS:
        raise CurationError(f"unknown colour {colour!r}; choose from {', '.join(COLOURS)}")
    return colour


def _bounded(text: str, what: str) -> str:
    if not isinstance(text, str):
        raise CurationError(f"a highlight's {what} is text")
    if len(text) > MAX_TEXT:
        raise CurationError(f"a highlight's {what} is at most {MAX_TEXT:,} characters")
    return text


class Highlights:
    def __init__(self, lib: Library) -> None:
        self.lib = lib

    # -- reading ------------------------------------------------------------------

    def of_attachment(self, attachment_id: int) -> list[dict[str, Any]]:
        """An attachment's highlights by page, then as made: id, page, quads, text,
        comment, colour, created_at, modified_at."""
        return highlights_table.of_attachments(self.lib.db, [attachment_id])

    def of_paper(self, paper_id: int,
                 attachments: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """The highlights of all of a paper's PDFs (``attachments``: as just read), each
        with its file's ``name``."""
        if attachments is None:
            attachments = attachments_table.of_papers(self.lib.db, [paper_id])
        names = {a["id"]: a["name"] for a in attachments}
        rows = highlights_table.of_attachments(self.lib.db, list(names))
        for row in rows:
            row["name"] = names[row["attachment_id"]]
        return rows

    def get(self, highlight_id: int) -> dict[str, Any]:
        row = self.lib.db.execute(
            "SELECT h.id, h.attachment_id, a.paper_id, h.page, h.quads, h.text, h.comment, "
            "h.colour FROM highlights h JOIN attachments a ON a.id = h.attachment_id "
            "WHERE h.id = ?", [highlight_id]).fetchone()
        if row is None:
            raise NotFound(f"no highlight with id {highlight_id}")
        keys = ("id", "attachment_id", "paper_id", "page", "quads", "text", "comment", "colour")
        found = dict(zip(keys, row, strict=True))
        found["quads"] = json.loads(found["quads"])
        return found

    def _paper_of(self, attachment_id: int) -> int:
        row = attachments_table.get(self.lib.db, attachment_id)
        if row is None:
            raise NotFound(f"no attachment with id {attachment_id}")
        return int(row["paper_id"])

    # -- writing --------------------------------------------------------------------

    def add(self, attachment_id: int, page: int, quads: Sequence[Sequence[float]],
            text: str, colour: str = "yellow", comment: str = "") -> ch.Changes:
        """Highlight a passage of page ``page`` (0-based); the result names the new id."""
        pid = self._paper_of(attachment_id)
        if isinstance(page, bool) or not isinstance(page, int) or page < 0:
            raise CurationError(f"a page is a whole number from 0, not {page!r}")
        checked = _quads(quads)
        text, comment = _bounded(text, "text"), _bounded(comment, "comment")
        with self.lib.edit("Highlight", _KINDS, [pid]) as e:
            stamp = now()
            e.result = HighlightResult(highlights_table.add(
                self.lib.db, attachment_id, page, checked, text, _colour(colour), stamp,
                comment))
            papers_table.touch(self.lib.db, pid, stamp)
        return e.changes

    def _change(self, highlight_id: int, label: str, **fields: str) -> ch.Changes:
        found = self.get(highlight_id)
        if all(found[k] == v for k, v in fields.items()):
            return ch.NOTHING
        with self.lib.edit(label, _KINDS, [found["paper_id"]]) as e:
            stamp = now()
            highlights_table.set_fields(self.lib.db, highlight_id, stamp, **fields)
            papers_table.touch(self.lib.db, found["paper_id"], stamp)
            e.result = HighlightResult(highlight_id)
        return e.changes

    def set_comment(self, highlight_id: int, comment: str) -> ch.Changes:
        return self._change(highlight_id, "Comment on a highlight",
                            comment=_bounded(comment, "comment"))

    def set_colour(self, highlight_id: int, colour: str) -> ch.Changes:
        return self._change(highlight_id, f"Highlight in {_colour(colour)}", colour=colour)

    def delete(self, highlight_id: int) -> ch.Changes:
        found = self.get(highlight_id)
        with self.lib.edit("Delete highlight", _KINDS, [found["paper_id"]]) as e:
            highlights_table.delete(self.lib.db, highlight_id)
            papers_table.touch(self.lib.db, found["paper_id"], now())
            e.result = HighlightResult(highlight_id)
        return e.changes
