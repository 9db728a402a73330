"""The sidebar: the library, reading statuses, the reading list, tags, digests, saved searches."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QMenu, QStyledItemDelegate, QTreeWidget, QTreeWidgetItem

from paperdesk.gui.common.icons import icon
from paperdesk.gui.jobs import reads
from paperdesk.gui.jobs.reads import Source
from paperdesk.gui.table.paper_model import STATUS_LABELS

SOURCE_ROLE = Qt.ItemDataRole.UserRole


def _key(source: Source) -> str:
    return f"{source[0]}\x1f{source[1]}"


class CountKeeper(QStyledItemDelegate):
    """Draws "label  (count)" with the label shortened in its middle when the sidebar
    is narrow: its start and its end stay, and the count stays whole ("2026-03-14 ·
    004…a5.txt  (41)", never "2026-03-14 · 0…"); the tooltip has the whole name."""

    def initStyleOption(self, option, index) -> None:
        super().initStyleOption(option, index)
        label, sep, count = option.text.rpartition("  (")
        if not sep:
            return
        tail = f"  ({count}"
        metrics = option.fontMetrics
        room = option.rect.width() - option.decorationSize.width() - 2 * metrics.averageCharWidth()
        if metrics.horizontalAdvance(option.text) > room:
            # A digest's date stays whole ("2026-04-21 · 004…ce6f.txt"): its file name
            # is shortened instead, unless too little of it would be left.
            left = room - metrics.horizontalAdvance(tail)
            head, dot, name = label.partition(" · ") if " · " in label else ("", "", label)
            head += dot
            if left - metrics.horizontalAdvance(head) < metrics.horizontalAdvance("0000…"):
                head, name = "", label
            short = metrics.elidedText(name, Qt.TextElideMode.ElideMiddle,
                                       max(0, left - metrics.horizontalAdvance(head)))
            option.text = head + short + tail


class Sidebar(QTreeWidget):
    source_changed = Signal(object)        # Source
    next_up = Signal(int)                  # paper id: show the queue with it selected
    triage = Signal(int)                   # digest id
    delete_saved_search = Signal(str)      # name

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)
        self.setIndentation(10)
        self.setUniformRowHeights(True)
        self.setMinimumWidth(self.least_width())
        self.setItemDelegate(CountKeeper(self))
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self.currentItemChanged.connect(self._changed)
        self._current: Source = reads.ALL
        self._sources: dict[str, Source] = {}
        self._filling = False
        self._fillers: list[Callable[[Sidebar], None]] = []

    def current_source(self) -> Source:
        return self._current

    def least_width(self) -> int:
        """Room for the longest fixed entry with its count ("Recently imported  (9999)")
        and its icon: names are shortened only past ~20 characters, at any scale."""
        metrics = self.fontMetrics()
        text = metrics.horizontalAdvance("Recently imported  (99999)")
        return max(140, text + self.iconSize().width() + 2 * self.indentation() + 24)

    def source_at(self, pos) -> Source | None:
        """The source of the entry at ``pos`` (in the viewport), or None."""
        item = self.itemAt(pos)
        return self._sources.get(item.data(0, SOURCE_ROLE)) if item is not None else None

    def fill(self, counts: dict[str, Any]) -> None:
        """Rebuild the entries from ``reads.counts``, keeping the current one selected."""
        self._filling = True
        self.clear()
        self._sources: dict[str, Source] = {}
        library = self.section("Library")
        self.entry(library, "All papers", counts["all"], reads.ALL, "library")
        for status, label in STATUS_LABELS.items():
            if status == "to-read":  # the to-read papers are the queue, in the user's order
                self.entry(library, "Reading queue", counts["list"], ("list", None), "list")
                if nxt := counts.get("next_up"):
                    item = self.entry(library, f"Next up: {nxt['title']}", None,
                                       ("next", nxt["id"]), "read")
                    item.setToolTip(0, f"Next in the reading queue: {nxt['title']}")
                    font = item.font(0)
                    font.setItalic(True)
                    item.setFont(0, font)
                continue
            self.entry(library, label, counts["status"].get(status, 0), ("status", status), status)
        self.entry(library, "Recently imported", counts["recent"], ("recent", None), "recent")
        tags = self.section("Tags")
        for name, count in counts["tags"]:
            if count:  # a tag no paper holds any more is gone from the sidebar
                self.entry(tags, name, count, ("tag", name), "tag")
        digests = self.section("Digests")
        for digest_id, name, count, date in counts["digests"]:
            label = f"{date} · {name}" if date else name  # two digests of a day differ by file
            item = self.entry(digests, label, count, ("digest", digest_id), "digest")
            item.setToolTip(0, f"{name}: {count} papers" + (f", dated {date}" if date else ""))
        saved = self.section("Saved searches")
        for name, query in counts["saved"]:
            item = self.entry(saved, name, None, ("saved", query), "smart-list")
            item.setToolTip(0, f"{name}: {query}")
            item.setData(0, SOURCE_ROLE + 1, name)
        for add in self._fillers:
            add(self)
        for i in range(self.topLevelItemCount()):
            section = self.topLevelItem(i)
            section.setHidden(section.childCount() == 0)
        self.expandAll()
        self._filling = False
        if not self.select(self._current):
            self.select(reads.ALL)

    def add_filler(self, fill: Callable[[Sidebar], None]) -> None:
        """``fill(sidebar)`` adds its sections and entries on every fill, after the
        library's own (``section`` and ``entry``)."""
        self._fillers.append(fill)

    def set_count(self, source: Source, label: str, count: int | None) -> None:
        """Rewrite the entry of ``source`` without filling the sidebar again."""
        for item in self.entries():
            if item.data(0, SOURCE_ROLE) == _key(source):
                item.setText(0, label if count is None else f"{label}  ({count})")

    def select(self, source: Source) -> bool:
        for item in self.entries():
            if item.data(0, SOURCE_ROLE) == _key(source):
                self.setCurrentItem(item)
                return True
        return False

    def label_of(self, source: Source) -> str | None:
        for item in self.entries():
            if item.data(0, SOURCE_ROLE) == _key(source):
                return item.text(0)
        return None

    def entries(self) -> Iterator[QTreeWidgetItem]:
        """Every entry (not the section headings), top to bottom."""
        for i in range(self.topLevelItemCount()):
            section = self.topLevelItem(i)
            for j in range(section.childCount()):
                yield section.child(j)

    def section(self, title: str) -> QTreeWidgetItem:
        """A new section heading at the end (hidden while it has no entries)."""
        item = QTreeWidgetItem(self, [title])
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)
        return item

    def entry(self, parent: QTreeWidgetItem, label: str, count: int | None, source: Source,
              icon_name: str) -> QTreeWidgetItem:
        """An entry showing ``source`` in section ``parent``: "label  (count)"."""
        text = label if count is None else f"{label}  ({count})"
        item = QTreeWidgetItem(parent, [text])
        item.setData(0, SOURCE_ROLE, _key(source))
        self._sources[_key(source)] = source
        item.setIcon(0, icon(icon_name))
        item.setToolTip(0, text)  # the whole name, however narrow the sidebar
        return item

    def _changed(self, current: QTreeWidgetItem | None, _previous=None) -> None:
        if current is None or self._filling:
            return
        source = self._sources.get(current.data(0, SOURCE_ROLE))
        if source is not None and source[0] == "next":  # the queue, its first paper chosen
            paper_id = source[1]
            if not self.select(("list", None)):
                return
            self.next_up.emit(paper_id)
            return
        if source is not None and source != self._current:
            self._current = source
            self.source_changed.emit(source)

    def _menu(self, pos) -> None:
        item = self.itemAt(pos)
        source = self._sources.get(item.data(0, SOURCE_ROLE)) if item is not None else None
        if source is not None and source[0] == "digest":
            menu = QMenu(self)
            menu.addAction("Triage this digest…", lambda: self.triage.emit(source[1]))
            menu.exec(self.viewport().mapToGlobal(pos))
            return
        name = item.data(0, SOURCE_ROLE + 1) if item is not None else None
        if not name:
            return
        menu = QMenu(self)
        menu.addAction(f"Delete saved search “{name}”",
                       lambda: self.delete_saved_search.emit(name))
        menu.exec(self.viewport().mapToGlobal(pos))
