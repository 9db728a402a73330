"""One group of possible duplicates side by side, and what the merged paper would keep.

A column per paper and a last column with the merged paper as the core would
write it (``lib.duplicates.merged_row`` over the same rows). Rows whose values differ
are tinted; in each choosable row the value the merged paper keeps is marked.
Clicking a column's header keeps that paper; clicking a value keeps that value.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from paperdesk.core.api import CHOICES, Library
from paperdesk.gui.table.paper_model import STATUS_LABELS

FIELDS = [
    ("title", "Title"), ("abstract", "Abstract"), ("authors", "Authors"),
    ("author_count", "Author count"), ("organization", "Organisation"),
    ("published", "Published"), ("arxiv_id", "arXiv id"), ("doi", "DOI"), ("url", "URL"),
    ("citekey", "Citation key"), ("rating", "Rating"), ("status", "Status"),
    ("tags", "Tags"), ("digests", "Seen in"), ("upvotes", "Upvotes"), ("notes", "Notes"),
    ("added", "Added"),
]
KEYS = [k for k, _ in FIELDS]
DIFFERS = QColor(255, 179, 0, 70)   # amber: the papers disagree here
CHOSEN = QColor(67, 160, 71, 95)    # green: the value the merged paper keeps
ABSTRACT_LINES = 7


def show(key: str, paper: dict[str, Any]) -> str:
    """A field of a paper (or of a merged row) as the table shows it."""
    value = paper.get(key)
    if key == "authors":
        names = json.loads(value or "[]") if isinstance(value, str) else (value or [])
        return ", ".join(names)
    if key == "published":
        return f"{value} (year inferred)" if value and paper.get("year_inferred") else value or ""
    if key == "rating":
        return "★" * (value or 0)
    if key == "status":
        return STATUS_LABELS.get(value, value or "")
    if key == "tags":
        return ", ".join(value or [])
    if key == "digests":
        n = len(value or [])
        return f"{n} digest{'s' if n != 1 else ''}: {', '.join(value)}" if n else ""
    if key == "added":
        return (value or "").replace("T", " ")[:16]
    if key == "notes":
        return f"{len(value)} note{'s' if len(value) != 1 else ''}" if value else ""
    return "" if value is None else str(value)


class CompareTable(QTableWidget):
    changed = Signal()  # the keeper or a choice changed

    def __init__(self, parent=None) -> None:
        super().__init__(len(FIELDS), 0, parent)
        self.setVerticalHeaderLabels([label for _, label in FIELDS])
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.horizontalHeader().setSectionsClickable(True)
        self.horizontalHeader().sectionClicked.connect(self._header_clicked)
        self.cellClicked.connect(self._cell_clicked)
        self.ids: list[int] = []
        self.keep: int | None = None
        self.picks: dict[str, int] = {}
        self.papers: dict[int, dict[str, Any]] = {}
        self.rows: dict[int, dict[str, Any]] = {}
        self.lib: Library | None = None  # the library of the group shown

    # -- contents --------------------------------------------------------------

    def set_group(self, lib: Library, ids: Sequence[int]) -> None:
        """Show the papers ``ids`` (the first is the suggested keeper)."""
        self.lib = lib
        self.papers = {p["id"]: p for p in lib.papers(list(ids), with_notes=True)}
        self.ids = [i for i in ids if i in self.papers]
        self.rows = lib.browse.stored_rows(self.ids)
        self.keep = self.ids[0] if self.ids else None
        self.picks = {}
        self._render()

    def clear_group(self) -> None:
        self.ids, self.keep, self.picks, self.papers, self.rows = [], None, {}, {}, {}
        self.setColumnCount(0)

    def set_keep(self, paper_id: int) -> None:
        if paper_id in self.ids and paper_id != self.keep:
            self.keep = paper_id
            self.picks = {}
            self._render()
            self.changed.emit()

    def choose(self, key: str, paper_id: int) -> None:
        """Keep ``paper_id``'s value of ``key`` in the merged paper."""
        if key in CHOICES and paper_id in self.ids:
            self.picks[key] = paper_id
            self._render()
            self.changed.emit()

    def others(self) -> list[int]:
        return [i for i in self.ids if i != self.keep]

    def choices(self) -> dict[str, int]:
        return dict(self.picks)

    def preview(self) -> dict[str, Any]:
        """The merged paper: the kept row as the merge would write it, plus what it unites."""
        assert self.keep is not None and self.lib is not None
        merged = self.lib.duplicates.merged_row(self.rows, self.keep, self.others(), self.picks)
        papers = [self.papers[i] for i in self.ids]
        merged["tags"] = sorted({t for p in papers for t in p["tags"]}, key=str.casefold)
        merged["digests"] = list(dict.fromkeys(d for p in papers for d in p["digests"]))
        merged["notes"] = [n for p in papers for n in p["notes"]]
        merged["upvotes"] = max((p["upvotes"] or 0 for p in papers), default=0) or None
        return merged

    def differing(self) -> set[str]:
        """The fields on which the papers disagree (both having a value)."""
        out = set()
        for key in KEYS:
            values = {show(key, self.papers[i]) for i in self.ids} - {""}
            if len(values) > 1:
                out.add(key)
        return out

    def kept_from(self, key: str, merged: dict[str, Any] | None = None) -> int | None:
        """Which paper's value of ``key`` the merged paper keeps (None: no choice there)."""
        if key not in CHOICES or self.keep is None:
            return None
        if key in self.picks:
            return self.picks[key]
        value = show(key, merged if merged is not None else self.preview())
        same = [i for i in [self.keep, *self.others()] if show(key, self.papers[i]) == value]
        return same[0] if same else None

    # -- drawing ---------------------------------------------------------------

    def label(self, n: int, paper_id: int) -> str:
        """A column's heading: its place and its paper's title (duplicates often share
        one; the place tells them apart), never the paper's internal id."""
        title = self.papers[paper_id].get("title") or "untitled"
        short = title if len(title) <= 40 else title[:39] + "…"
        return f"{n}. {short}" + ("  (kept)" if paper_id == self.keep else "")

    def _render(self) -> None:
        self.setColumnCount(len(self.ids) + 1 if self.ids else 0)
        if not self.ids:
            return
        labels = [self.label(n, i) for n, i in enumerate(self.ids, 1)]
        self.setHorizontalHeaderLabels([*labels, "Merged paper"])
        merged = self.preview()
        differ = self.differing() & set(CHOICES)  # tags, sightings and notes are united
        for row, key in enumerate(KEYS):
            chosen = self.kept_from(key, merged)
            for col, pid in enumerate(self.ids):
                text = show(key, self.papers[pid])
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                if key in differ:
                    item.setBackground(QBrush(CHOSEN if pid == chosen else DIFFERS))
                if pid == chosen and key in differ:
                    font = QFont(item.font())
                    font.setBold(True)
                    item.setFont(font)
                    item.setToolTip(f"{text}\n\nThe merged paper keeps this "
                                    f"{key.replace('_', ' ')}")
                elif key in differ:
                    item.setToolTip(f"{text}\n\nClick to keep this value")
                self.setItem(row, col, item)
            result = QTableWidgetItem(show(key, merged))
            result.setToolTip(show(key, merged))
            font = QFont(result.font())
            font.setItalic(True)
            result.setFont(font)
            self.setItem(row, len(self.ids), result)
        line = self.fontMetrics().lineSpacing()
        self.resizeRowsToContents()
        for row, key in enumerate(KEYS):
            if key == "title":  # titles in full: they often differ in their last words
                continue
            limit = line * (ABSTRACT_LINES if key == "abstract" else 2) + 8
            self.setRowHeight(row, max(line + 8, min(self.rowHeight(row), limit)))

    def _header_clicked(self, col: int) -> None:
        if 0 <= col < len(self.ids):
            self.set_keep(self.ids[col])

    def _cell_clicked(self, row: int, col: int) -> None:
        if 0 <= col < len(self.ids) and 0 <= row < len(KEYS):
            self.choose(KEYS[row], self.ids[col])
